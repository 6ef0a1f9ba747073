package ils

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/internal/runctl"
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
	for _, part := range []string{"on", "off"} {
		p := solver.Params{Seed: 1, Workers: 1, Extra: map[string]string{OptPartition: part, OptCandidates: "mixed"}}
		o, err := e.(ilsEngine).config(in, p)
		if err != nil {
			t.Fatal(err)
		}
		ie := e.(ilsEngine)
		r := &ilsRun{e: ie, in: in, p: p, o: o, w: 1, plan: ie.decide(ie.facts(o, in, p.Given, 1, p.TimeLimit)),
			c: runctl.NewControl(context.Background(), p, 1, nil, time.Now())}
		if r.usePartition() != (part == "on") {
			t.Fatalf("partition %s: the plan's partition search is %v", part, r.usePartition())
		}
		nb, nbOdd, err := r.candidates(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		k := o.cfg.neighbors
		near, quad := neighbor.Nearest(in, k), neighbor.Quadrant(in, k)
		if !slices.Equal(nb.List, near.List) {
			t.Fatalf("partition %s: the even workers' lists are not the nearest cities", part)
		}
		want := near
		if part == "on" {
			want = quad
		}
		if !slices.Equal(nbOdd.List, want.List) {
			t.Fatalf("partition %s: the odd lists are not the %s ones", part, map[bool]string{true: "quadrant", false: "nearest"}[part == "on"])
		}
	}
}
