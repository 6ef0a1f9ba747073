package partition

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/enginetest"
	"github.com/tsplab/tsplab/solver/tour"
)

// TestPartitionShadow: a shadow search beside every round gets a copy of
// the whole tour; its copy is merged in by partition crossover (the tour
// stays one cycle of the exact length recorded, never longer), copies
// that move the first city or lose a city are refused, and an error ends
// its part without ending the search.
func TestPartitionShadow(t *testing.T) {
	in := uniformInstance(2000, 29)
	for _, mode := range []string{"2opt", "end", "dup", "keep", "error"} {
		pr := newTestPartRun(t, in, 4, map[string]string{optPartSegment: "250", optPartKicks: "0.05"})
		f := &enginetest.FakePaths{Mode: mode}
		pr.sh = shadow{imp: f}
		if mode == "2opt" {
			f.Mode = "keep" // records the calls; windowPaths improves
			pr.sh.imp = windowPaths{f}
		}
		rng := newRNG(9, 0)
		for round := range 3 {
			before := pr.length
			pr.step(rng.Intn(in.N), 0)
			checkPartTour(t, pr, mode+": round "+strconv.Itoa(round))
			if pr.length > before {
				t.Fatalf("%s, round %d: %d → %d, longer", mode, round, before, pr.length)
			}
		}
		s := pr.sh
		switch mode {
		case "2opt":
			// whether the workers left the shadow's gains to it depends
			// on their search: TestShadowSplice checks the merge
			if f.Calls != 3 || f.Sizes[0] != in.N || s.own <= 0 || s.refused != 0 || (s.merged > 0) != (s.gain > 0) {
				t.Fatalf("2opt: %d calls (first of %v cities), own gain %d, %d merges gaining %d, %d refused; want 3 calls on the whole tour and its own gains", f.Calls, f.Sizes, s.own, s.merged, s.gain, s.refused)
			}
		case "end", "dup":
			if s.refused != 3 || s.merged != 0 {
				t.Fatalf("%s: %d refused, %d merged; want all 3 refused", mode, s.refused, s.merged)
			}
		case "keep":
			if s.rounds != 3 || s.merged != 0 || s.refused != 0 {
				t.Fatalf("keep: %d rounds, %d merged, %d refused; want 3 rounds and nothing merged", s.rounds, s.merged, s.refused)
			}
		case "error":
			if f.Calls != 1 || s.err == nil {
				t.Fatalf("error: %d calls, err %v; want one call and the error kept", f.Calls, s.err)
			}
		}
	}
}

// windowPaths is a shadow search like the GPU's windows: a 2-opt
// descent inside each window of 40 positions, the window's ends kept.
type windowPaths struct{ f *enginetest.FakePaths }

func (w windowPaths) ImprovePath(ctx context.Context, in *solver.Instance, path []int32, until time.Time) (int64, error) {
	w.f.ImprovePath(ctx, in, path, until)
	d := tour.LazyDist(in)
	before := d.Length(path)
	for lo := 0; lo+2 < len(path); lo += 39 {
		win := path[lo:min(lo+40, len(path))]
		for improved := true; improved; {
			improved = false
			for i := 0; i+3 < len(win); i++ {
				for j := i + 2; j+1 < len(win); j++ {
					a, b, c, e := win[i], win[i+1], win[j], win[j+1]
					if d.At(a, c)+d.At(b, e) < d.At(a, b)+d.At(c, e) {
						slices.Reverse(win[i+1 : j+1])
						improved = true
					}
				}
			}
		}
	}
	return before - d.Length(path), nil
}

// TestShadowSplice: the shadow's reordered intervals go into the tour
// where their cities lie between the same neighbours there, in either
// direction, when shorter; elsewhere the tour keeps its own order.
func TestShadowSplice(t *testing.T) {
	in := uniformInstance(600, 37)
	d := tour.LazyDist(in)
	p := make([]int32, in.N)
	for i := range p {
		p[i] = int32(i)
	}
	sh := slices.Clone(p)
	windowPaths{&enginetest.FakePaths{Mode: "keep"}}.ImprovePath(context.Background(), in, sh, time.Time{})
	if d.Length(sh) >= d.Length(p) {
		t.Fatal("the windows found nothing to test with")
	}
	// the tour: the copy reversed as a whole, and one stretch (100..199)
	// moved elsewhere, whose intervals are not taken
	c := slices.Clone(p)
	slices.Reverse(c)
	var s shadow
	l0 := d.Length(c)
	gain, taken := s.splice(d, p, sh, c)
	if taken == 0 || gain <= 0 || d.Length(c) != l0-gain {
		t.Fatalf("%d intervals taken gaining %d; tour %d → %d", taken, gain, l0, d.Length(c))
	}
	if d.Length(c) != d.Length(sh) {
		t.Fatalf("tour %d after splicing every interval, want the shadow's %d", d.Length(c), d.Length(sh))
	}
	// cities of p[100..199] scattered in the tour: none of their
	// intervals is taken, the rest is
	c = slices.Clone(p)
	for i := 100; i < 200; i += 2 {
		c[i], c[i+300] = c[i+300], c[i]
	}
	before := slices.Clone(c)
	gain, taken = s.splice(d, p, sh, c)
	if taken == 0 || gain <= 0 {
		t.Fatalf("%d intervals taken gaining %d", taken, gain)
	}
	for i := 100; i < 200; i++ {
		if c[i] != before[i] && i%2 == 0 {
			t.Fatalf("position %d changed: %d → %d, in a scattered stretch", i, before[i], c[i])
		}
	}
}

// TestShadowNone: no shadow search with a kicks budget (the run stays
// deterministic) or fixed edges.
func TestShadowNone(t *testing.T) {
	in := uniformInstance(500, 31)
	f := &enginetest.FakePaths{}
	r := &Env{In: in, Opts: Options{Kicks: 10}, Aid: solver.Aid{Shadow: f}}
	if s := newShadow(r); s.imp != nil {
		t.Fatal("a shadow on a run with a kicks budget")
	}
	r.Opts.Kicks = 0
	if s := newShadow(r); s.imp == nil {
		t.Fatal("no shadow on a run without a budget")
	}
	r.In = &solver.Instance{N: in.N, X: in.X, Y: in.Y, FixedEdges: [][2]int{{0, 1}}}
	if s := newShadow(r); s.imp != nil {
		t.Fatal("a shadow on a run with fixed edges")
	}
}
