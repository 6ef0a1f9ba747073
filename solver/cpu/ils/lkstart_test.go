package ils

import (
	"context"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/partition"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/strategy"
)

// TestMergedLKStart runs auto's merged search on two workers where the
// plan starts it from chained LK over the whole tour: the account names
// that start, which ended within its share of the limit, and the merged
// search's tour is no longer than the one it was handed; solo=off keeps
// the merged search alone.
func TestMergedLKStart(t *testing.T) {
	in, err := gen.Generate("uniform", strategy.LKStartMinN, 5)
	if err != nil {
		t.Fatal(err)
	}
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	for _, off := range []bool{false, true} {
		limit := 2 * time.Second
		p := solver.Params{Seed: 1, Workers: 2, TimeLimit: limit}
		if off {
			p.Config = func(o *ilsOptions) { o.solo = partition.SoloOff }
		}
		ctx, stop := solver.WithTimeLimit(context.Background(), limit)
		res, err := e.Solve(ctx, in, p, nil)
		stop()
		if err != nil {
			t.Fatal(err)
		}
		if err := solver.ValidateTour(res.Tour, in.N); err != nil {
			t.Fatal(err)
		}
		a := res.Account
		if a.Search != solver.SearchMerged {
			t.Fatalf("solo off %v: search %q, want the merged search", off, a.Search)
		}
		l := a.LKStart
		if off {
			if l != nil {
				t.Errorf("solo=off: a chained LK start %+v", *l)
			}
			continue
		}
		if l == nil {
			t.Fatalf("account %+v: no chained LK start on 2 workers and %d cities", a, in.N)
		}
		share := time.Duration(strategy.LKStartShare * float64(limit))
		if l.Seconds <= 0 || l.Seconds > (share+500*time.Millisecond).Seconds() {
			t.Errorf("the chained LK start took %.2f s of a %v share", l.Seconds, share)
		}
		if got := float64(res.Length); got > l.Length {
			t.Errorf("the merged search ended at %v, longer than the %v it was handed", got, l.Length)
		}
	}
}
