package ils

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/enginetest"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// TestMixedCandidatesOneWorker: under "mixed" a partition search of one
// worker gets the quadrant lists beside the nearest ones (its pieces
// alternate them and they tell it a clustered instance), while one
// independent search of one worker takes the nearest lists alone.
func TestMixedCandidatesOneWorker(t *testing.T) {
	in := enginetest.DIMACS(t, "portcgen", 1500, 1500)
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	for _, on := range []bool{true, false} {
		part := map[bool]partMode{true: partOn, false: partOff}[on]
		p := solver.Params{Seed: 1, Workers: 1, Config: func(o *ilsOptions) { o.partition, o.cfg.candidates = part, listMixed }}
		ie := e.(ilsEngine)
		cfg, err := ie.prepare(in, p, true)
		if err != nil {
			t.Fatal(err)
		}
		o := cfg.o
		r := &ilsRun{e: ie, in: in, p: p, o: o, w: 1, plan: ie.decide(ie.facts(o, in, cfg.given, 1, p.TimeLimit)),
			c: runctl.NewControl(context.Background(), p, 1, nil, time.Now())}
		if r.usePartition() != on {
			t.Fatalf("partition %v: the plan's partition search is %v", on, r.usePartition())
		}
		nb, nbOdd, err := r.candidates(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		k := o.cfg.neighbors
		near, quad := neighbor.Nearest(in, k), neighbor.Quadrant(in, k)
		if !slices.Equal(nb.List, near.List) {
			t.Fatalf("partition %v: the even workers' lists are not the nearest cities", on)
		}
		want := near
		if on {
			want = quad
		}
		if !slices.Equal(nbOdd.List, want.List) {
			t.Fatalf("partition %v: the odd lists are not the %s ones", on, map[bool]string{true: "quadrant", false: "nearest"}[on])
		}
	}
}
