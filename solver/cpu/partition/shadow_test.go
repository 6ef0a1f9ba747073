package partition

import (
	"strconv"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/enginetest"
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
			if f.Calls != 3 || f.Sizes[0] != in.N || s.own <= 0 || s.merged == 0 || s.gain <= 0 {
				t.Fatalf("2opt: %d calls (first of %v cities), own gain %d, %d merges gaining %d; want 3 calls on the whole tour and merged gains", f.Calls, f.Sizes, s.own, s.merged, s.gain)
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
