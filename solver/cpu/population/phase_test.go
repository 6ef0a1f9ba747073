package population

import (
	"strings"
	"testing"
)

// TestPhaseSaysNoBestBeforeTheFirstTour: a generation that starts before
// any tour is the best names no best, never "best -1".
func TestPhaseSaysNoBestBeforeTheFirstTour(t *testing.T) {
	e := evolution{want: 8, gen: 1, size: 8}
	if ph := string(e.phase(-1)); strings.Contains(ph, "best") {
		t.Errorf("phase %q names a best before there is one", ph)
	}
	if ph := string(e.phase(1234)); !strings.Contains(ph, "best 1234") {
		t.Errorf("phase %q lacks the best", ph)
	}
}
