package ils

import (
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// TestOrSpanOK: or-ils (and so GPU auto's choice of it) takes coordinates
// whose span keeps its int32 move keys exact, and refuses wider ones and
// instances without coordinates.
func TestOrSpanOK(t *testing.T) {
	coords := func(span float64) *solver.Instance {
		return solver.NewCoordInstance("s", solver.Euc2D, []float64{0, span, 0, span}, []float64{0, 0, span, span}, nil)
	}
	if !OrSpanOK(coords(1e6)) || !OrSpanOK(coords(OrMaxSpan)) {
		t.Error("a span within orMaxSpan refused")
	}
	if OrSpanOK(coords(2.5e8)) {
		t.Error("a span of 2.5e8 accepted: six such edges overflow the kernel's int32 keys")
	}
	if OrSpanOK(&solver.Instance{N: 4}) {
		t.Error("an instance without coordinates accepted")
	}
}

// TestOrRoundKicks: a round takes the kicks asked for while they fit in
// orRoundTarget and in the time left, else as many as fit, at least one.
func TestOrRoundKicks(t *testing.T) {
	for _, c := range []struct {
		want          int
		perKick, left time.Duration
		kicks         int
	}{
		{1024, time.Microsecond, time.Second, 1024},
		{1024, 100 * time.Microsecond, time.Second, int(orRoundTarget / (100 * time.Microsecond))},
		{1024, time.Microsecond, 300 * time.Microsecond, 300},
		{1024, time.Second, time.Second, 1},
		{1024, time.Microsecond, 0, 1},
	} {
		if k := orRoundKicks(c.want, c.perKick, c.left); k != c.kicks {
			t.Errorf("orRoundKicks(%d, %v, %v) = %d, want %d", c.want, c.perKick, c.left, k, c.kicks)
		}
	}
}

// TestOrClock: no kicks before a round was timed, then the kicks the last
// round's time per kick allows; a descent alone times at a 64th of its
// time, at least a microsecond.
func TestOrClock(t *testing.T) {
	var c orClock
	if k := c.kicks(1024, time.Second); k != 0 {
		t.Fatalf("%d kicks before any round", k)
	}
	c.timed(6400*time.Microsecond, 0)
	if k := c.kicks(1024, time.Second); k != int(orRoundTarget/(100*time.Microsecond)) || c.perKick != 100*time.Microsecond {
		t.Fatalf("after a descent of 6.4 ms: %d kicks, %v a kick", k, c.perKick)
	}
	c.timed(10*time.Nanosecond, 0)
	if c.perKick != time.Microsecond {
		t.Fatalf("a descent of 10 ns timed at %v a kick", c.perKick)
	}
	c.timed(120*time.Millisecond, 100)
	if k := c.kicks(1024, time.Second); k != int(orRoundTarget/(1200*time.Microsecond)) {
		t.Fatalf("after 100 kicks in 120 ms: %d kicks", k)
	}
	c.timed(time.Nanosecond, 1000)
	if c.perKick != time.Nanosecond {
		t.Fatalf("a round shorter than its kicks timed at %v a kick", c.perKick)
	}
}
