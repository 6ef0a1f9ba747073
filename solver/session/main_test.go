package session

import (
	"testing"

	"github.com/tsplab/tsplab/internal/tsplibdir"
)

// TestMain gives the tests a cache of bounds of their own (tsplibdir.Main).
func TestMain(m *testing.M) { tsplibdir.Main(m) }
