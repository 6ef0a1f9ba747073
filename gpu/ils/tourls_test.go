package ils

import (
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// glsMove is a move as gls_eval stores it.
type glsMove struct{ gain, lo, hi, flags, mid int32 }

// glsNewPosition mirrors gls_new_position in tourls.cu.
func glsNewPosition(m glsMove, v int32) int32 {
	a, b := m.lo+1, m.hi
	if m.flags&4 == 0 {
		return a + b - v
	}
	len1, len2 := m.mid-a+1, b-m.mid
	if v <= m.mid {
		k := v - a
		if m.flags&1 != 0 {
			k = len1 - 1 - k
		}
		return a + len2 + k
	}
	k := v - m.mid - 1
	if m.flags&2 != 0 {
		k = len2 - 1 - k
	}
	return a + k
}

// glsApplyCPU is tour t (by position) after move m read from origin off.
func glsApplyCPU(t []int, off int, m glsMove) []int {
	n := len(t)
	out := append([]int(nil), t...)
	for v := m.lo + 1; v <= m.hi; v++ {
		out[(int(glsNewPosition(m, v))+off)%n] = t[(int(v)+off)%n]
	}
	return out
}

// TestGLSMoveEncoding applies hand-made moves of each kind through the
// kernel's position map (mirrored on the host) from origins 0 and 3.
func TestGLSMoveEncoding(t *testing.T) {
	base := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	cases := []struct {
		m    glsMove
		want []int // the tour read from the origin
	}{
		{glsMove{lo: 1, hi: 5}, []int{0, 1, 5, 4, 3, 2, 6, 7, 8, 9}},                   // reversal of 2..5
		{glsMove{lo: 1, hi: 6, mid: 3, flags: 4}, []int{0, 1, 4, 5, 6, 2, 3, 7, 8, 9}}, // 2 3 after 6
		{glsMove{lo: 1, hi: 6, mid: 3, flags: 5}, []int{0, 1, 4, 5, 6, 3, 2, 7, 8, 9}}, // reversed
		{glsMove{lo: 1, hi: 6, mid: 4, flags: 6}, []int{0, 1, 6, 5, 2, 3, 4, 7, 8, 9}}, // 5 6 reversed before 2
		{glsMove{lo: 0, hi: 9, mid: 6, flags: 4}, []int{0, 7, 8, 9, 1, 2, 3, 4, 5, 6}}, // up to the last edge
	}
	for _, off := range []int{0, 3} {
		for _, c := range cases {
			tour := make([]int, len(base))
			for v, x := range base {
				tour[(v+off)%len(base)] = x
			}
			got := glsApplyCPU(tour, off, c.m)
			read := make([]int, len(got))
			for v := range read {
				read[v] = got[(v+off)%len(got)]
			}
			if !slices.Equal(read, c.want) {
				t.Errorf("origin %d, move %+v: %v, want %v", off, c.m, read, c.want)
			}
		}
	}
}

// TestGLSPlan checks the host's launch plan: the grid's size, the level
// arrays' length and the cell prefix sums.
func TestGLSPlan(t *testing.T) {
	for _, n := range []int{16, 1000, 13509, 1000000, 10000000} {
		k := glsGridBits(n)
		cells := 1 << (2 * k)
		if n > 8 && (cells*2 < n || cells > 4*n) {
			t.Errorf("n %d: %d cells", n, cells)
		}
		want := n + n/32 + n/1024 + n/32768 + n/(1<<20) + n/(1<<25) + glsLevels
		if got := glsLevelSlots(n); got != want {
			t.Errorf("n %d: %d level slots, want %d", n, got, want)
		}
	}
	counts := []uint32{3, 0, 2, 5}
	start := make([]uint32, 5)
	glsScan(counts, start)
	if !slices.Equal(start, []uint32{0, 3, 3, 5, 10}) {
		t.Errorf("scan %v", start)
	}
	in := solver.NewCoordInstance("box", solver.Euc2D, []float64{10, 30, 20}, []float64{5, 6, 45}, nil)
	minx, miny, inv := glsBox(in, 3)
	if minx != 10 || miny != 5 || inv != 8.0/40 {
		t.Errorf("box %v %v %v", minx, miny, inv)
	}
}

// TestStallWatch: the watch ends a descent only after a whole window whose
// passes gained less than its share of the descent's gain, judges each
// window on its own, and never ends one with share 0.
func TestStallWatch(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }
	w := stallWatch{share: 0.01}
	for _, c := range []struct {
		s    float64
		gain uint64
		want bool
	}{
		{0, 0, false},      // the first window starts
		{0.5, 1000, false}, // within it
		{1.0, 5000, false}, // it gained 5,000 of 5,000
		{1.9, 5010, false}, // the next window not over
		{2.0, 5060, false}, // 60 of 5,060: above 1 %
		{3.0, 5100, true},  // 40 of 5,100: below
		{3.5, 5100, false}, // a new window, not over
		{4.0, 6000, false}, // 900 of 6,000
		{5.5, 6030, true},  // 30 of 6,030 over 1.5 s
	} {
		if got := w.stalled(at(c.s), c.gain); got != c.want {
			t.Fatalf("at %.1f s, gain %d: stalled %v, want %v", c.s, c.gain, got, c.want)
		}
	}
	never := stallWatch{}
	for s := range 10 {
		if never.stalled(at(float64(s)), 100) {
			t.Fatalf("share 0 ended the descent at %d s", s)
		}
	}
}
