package climb

import (
	"testing"

	"github.com/tsplab/tsplab/internal/tsplibdir"
)

// TestMain reports, in one line, the tests skipped for want of TSPLIB data.
func TestMain(m *testing.M) { tsplibdir.Main(m) }
