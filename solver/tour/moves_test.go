package tour

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
)

// sameCycle reports whether a and l hold the same undirected cycle.
func sameCycle(a *Array, l *Linked) bool {
	for c := range a.Len() {
		an, ap := a.Next(c), a.Prev(c)
		ln, lp := int(l.Next[c]), int(l.Prev[c])
		if !(an == ln && ap == lp) && !(an == lp && ap == ln) {
			return false
		}
	}
	return true
}

// checkMove applies one random move to a and the equivalent move to l,
// checking both deltas against the exact lengths.
func checkMove(t *testing.T, in *solver.Instance, a *Array, l *Linked, rng *rand.Rand) {
	t.Helper()
	n := in.N
	d := NewDist(in)
	before := solver.TourLength(in, a.Tour)
	lTour := l.Tour(0)
	if got := solver.TourLength(in, lTour); got != before {
		t.Fatalf("linked length %d, array length %d before the move", got, before)
	}
	same := n < 2 || l.Next[a.Tour[0]] == int32(a.At(1)) // same orientation
	var da, dl int64
	var what string
	switch kind := rng.IntN(5); kind {
	case 0:
		i, j := rng.IntN(n), rng.IntN(n)
		what = "2-opt"
		t1, t2, t3, t4 := a.At(i), a.At(i+1), a.At(j), a.At(j+1)
		da = Delta2Opt(d, a, i, j)
		a.Apply2Opt(i, j)
		if same {
			dl = DeltaLinked2Opt(d, l, t1, t3)
			l.Apply2Opt(t1, t3)
		} else {
			dl = DeltaLinked2Opt(d, l, t2, t4)
			l.Apply2Opt(t2, t4)
		}
		if i%n != j%n && n >= 4 && !(a.Next(t1) == t3 || a.Prev(t1) == t3) && t2 != t3 && t4 != t1 {
			t.Fatalf("2-opt %d,%d: edge (%d,%d) not created", i, j, t1, t3)
		}
	case 1:
		c, u := rng.IntN(n), rng.IntN(n)
		what = "relocate"
		v := a.Next(u)
		da = DeltaRelocate(d, a, c, u)
		a.Relocate(c, u)
		if same {
			dl = DeltaLinkedRelocate(d, l, c, u)
			l.Relocate(c, u)
		} else {
			dl = DeltaLinkedRelocate(d, l, c, v)
			l.Relocate(c, v)
		}
		if n >= 3 && u != c && v != c && (a.Next(u) != c || a.Next(c) != v) {
			t.Fatalf("relocate %d after %d: got %d %d %d", c, u, a.Prev(c), c, a.Next(c))
		}
	case 2:
		i, sl, u, rev := rng.IntN(n), 1+rng.IntN(3), rng.IntN(n), rng.IntN(2) == 0
		what = "or-opt"
		v := a.Next(u)
		s, e := a.At(i), a.At(i+sl-1)
		da = DeltaOrOpt(d, a, i, sl, u, rev)
		a.OrOpt(i, sl, u, rev)
		if same {
			dl = DeltaLinkedOrOpt(d, l, s, sl, u, rev)
			l.OrOpt(s, sl, u, rev)
		} else {
			dl = DeltaLinkedOrOpt(d, l, e, sl, v, rev)
			l.OrOpt(e, sl, v, rev)
		}
	case 3:
		i, j := rng.IntN(n), rng.IntN(n)
		what = "swap"
		x, y := a.At(i), a.At(j)
		da = DeltaSwap(d, a, i, j)
		a.Swap(i, j)
		dl = DeltaLinkedSwap(d, l, x, y)
		l.Swap(x, y)
		if a.At(i) != y || a.At(j) != x {
			t.Fatalf("swap %d,%d did not exchange %d and %d", i, j, x, y)
		}
	case 4:
		what = "double bridge"
		p1, p2, p3 := DoubleBridgeCuts(n, rng)
		if n >= 4 && !validCuts(n, p1, p2, p3) {
			t.Fatalf("DoubleBridgeCuts(%d) = %d %d %d", n, p1, p2, p3)
		}
		da = DeltaDoubleBridge(d, a.Tour, p1, p2, p3)
		nt := DoubleBridgeAt(a.Tour, p1, p2, p3)
		if err := solver.ValidateTour(nt, n); err != nil {
			t.Fatal(err)
		}
		a.Set(nt)
		l.Set(nt)
		dl = da
	}
	after := solver.TourLength(in, a.Tour)
	if err := solver.ValidateTour(a.Tour, n); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := a.Check(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if err := l.Check(); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if da != after-before {
		t.Fatalf("%s on %s n=%d: array delta %d, lengths %d → %d (%d)", what, in.Name, n, da, before, after, after-before)
	}
	if got := solver.TourLength(in, l.Tour(0)); dl != got-before {
		t.Fatalf("%s on %s n=%d: linked delta %d, lengths %d → %d", what, in.Name, n, dl, before, got)
	}
	if !sameCycle(a, l) {
		t.Fatalf("%s on %s n=%d: array %v and linked %v disagree", what, in.Name, n, a.Tour, l.Tour(a.Tour[0]))
	}
}

func TestMovesProperty(t *testing.T) {
	rng := rand.New(rand.NewPCG(21, 22))
	sizes := []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 20, 57, 200}
	steps := 1500
	if testing.Short() {
		steps = 500
	}
	for _, n := range sizes {
		for _, in := range testinst.Mix(n, rng) {
			tour := construct.Random(n, rng)
			a, l := NewArray(tour), NewLinked(tour)
			for range steps {
				checkMove(t, in, a, l, rng)
			}
		}
	}
}

func TestReverse2Opt(t *testing.T) {
	a := NewArray([]int{0, 1, 2, 3, 4, 5, 6, 7})
	a.Reverse2Opt(1, 3) // short side
	if want := []int{0, 3, 2, 1, 4, 5, 6, 7}; !slices.Equal(a.Tour, want) {
		t.Fatalf("got %v, want %v", a.Tour, want)
	}
	a = NewArray([]int{0, 1, 2, 3, 4, 5, 6, 7})
	a.Reverse2Opt(6, 1) // wraps: 6 7 0 1 reversed
	if want := []int{7, 6, 2, 3, 4, 5, 1, 0}; !slices.Equal(a.Tour, want) {
		t.Fatalf("wrap: got %v, want %v", a.Tour, want)
	}
	a = NewArray([]int{0, 1, 2, 3, 4, 5, 6, 7})
	a.Reverse2Opt(1, 6) // long side: the complement 7 0 is reversed instead
	if want := []int{7, 1, 2, 3, 4, 5, 6, 0}; !slices.Equal(a.Tour, want) {
		t.Fatalf("long side: got %v, want %v", a.Tour, want)
	}
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
}

func TestArrayBetweenNextPrev(t *testing.T) {
	a := NewArray([]int{3, 1, 4, 0, 2})
	if a.Next(2) != 3 || a.Prev(3) != 2 || a.Next(1) != 4 || a.Prev(1) != 3 {
		t.Fatal("Next/Prev wrong")
	}
	cases := []struct {
		x, b, c int
		want    bool
	}{
		{3, 4, 0, true}, {3, 2, 0, false}, {4, 2, 3, true}, {4, 1, 3, false},
		{0, 0, 0, true}, {0, 3, 0, false}, {2, 3, 1, true}, {1, 1, 4, true}, {1, 4, 4, true},
	}
	for _, c := range cases {
		if got := a.Between(c.x, c.b, c.c); got != c.want {
			t.Errorf("Between(%d,%d,%d) = %v, want %v", c.x, c.b, c.c, got, c.want)
		}
	}
}

func TestLinkedTourAndCheck(t *testing.T) {
	l := NewLinked([]int{2, 0, 3, 1})
	if got := l.Tour(3); !slices.Equal(got, []int{3, 1, 2, 0}) {
		t.Fatalf("Tour(3) = %v", got)
	}
	if err := l.Check(); err != nil {
		t.Fatal(err)
	}
	bad := l.Clone()
	bad.Next[2], bad.Next[0] = 2, 0 // two 1-cycles... and a broken Prev
	if bad.Check() == nil {
		t.Fatal("Check accepted a broken list")
	}
	split := NewLinked([]int{0, 1, 2, 3})
	split.Next[1], split.Prev[0] = 0, 1
	split.Next[3], split.Prev[2] = 2, 3 // cycles 0-1 and 2-3
	if split.Check() == nil {
		t.Fatal("Check accepted two cycles")
	}
	if NewLinked(nil).Check() != nil || len(NewLinked([]int{0}).Tour(0)) != 1 {
		t.Fatal("empty or single-city linked tours")
	}
}

func TestDoubleBridgeCutsUniform(t *testing.T) {
	rng := rand.New(rand.NewPCG(31, 32))
	counts := map[[3]int]int{}
	const n, draws = 6, 20000 // C(5,3) = 10 triples
	for range draws {
		p1, p2, p3 := DoubleBridgeCuts(n, rng)
		counts[[3]int{p1, p2, p3}]++
	}
	if len(counts) != 10 {
		t.Fatalf("%d distinct cut triples, want 10", len(counts))
	}
	for k, c := range counts {
		if c < draws/10*8/10 || c > draws/10*12/10 {
			t.Errorf("triple %v drawn %d times of %d", k, c, draws)
		}
	}
	tour := []int{0, 1, 2, 3, 4, 5, 6, 7}
	if got := DoubleBridgeAt(tour, 2, 4, 6); !slices.Equal(got, []int{0, 1, 4, 5, 2, 3, 6, 7}) {
		t.Fatalf("DoubleBridgeAt = %v", got)
	}
	if got := DoubleBridge([]int{0, 1, 2}, rng); !slices.Equal(got, []int{0, 1, 2}) {
		t.Fatalf("DoubleBridge of 3 cities = %v", got)
	}
}

// SwapAdjacent exchanges the two segments after position i, wrapping
// around the end of the array.
func TestSwapAdjacent(t *testing.T) {
	for _, tc := range []struct {
		i, l1, l2 int
		want      []int32
	}{
		{0, 2, 3, []int32{0, 3, 4, 5, 1, 2, 6, 7}},
		{5, 1, 1, []int32{0, 1, 2, 3, 4, 5, 7, 6}},
		{6, 2, 1, []int32{7, 0, 2, 3, 4, 5, 6, 1}},
		{7, 1, 2, []int32{1, 2, 0, 3, 4, 5, 6, 7}},
	} {
		got := []int32{0, 1, 2, 3, 4, 5, 6, 7}
		SwapAdjacent(got, tc.i, tc.l1, tc.l2)
		if !slices.Equal(got, tc.want) {
			t.Errorf("SwapAdjacent(%d, %d, %d) = %v, want %v", tc.i, tc.l1, tc.l2, got, tc.want)
		}
	}
}
