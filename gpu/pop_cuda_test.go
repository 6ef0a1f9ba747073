//go:build cuda

package gpu

import (
	"context"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/gputest"

	"github.com/tsplab/tsplab/solver"

	// the CPU pop engine, which GPU pop runs
	_ "github.com/tsplab/tsplab/solver/cpu"
)

// TestPopFeedsPool runs GPU pop for 4 s on 3,000 cities: the block search
// ran rounds on the pool's tours (the note says how many, with the tours
// it improved and its kicks), the result is a valid tour of its length
// and in a run with fixed edges the GPU builds members of the population
// that keep them.
func TestPopFeedsPool(t *testing.T) {
	gputest.NeedDevice(t)
	if testing.Short() {
		t.Skip("a 4 s run")
	}
	e, err := solver.Lookup(AlgoPop, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	in := gputest.RandomInstance(3000, solver.Euc2D, 1e5, 3)
	t0 := time.Now()
	res, err := solver.RunAided(context.Background(), e, in, solver.Params{TimeLimit: 4 * time.Second, Seed: 1, Workers: 8}, nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	wall := time.Since(t0)
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if l := solver.TourLength(in, res.Tour); l != res.Length {
		t.Fatalf("length %d, reported %d", l, res.Length)
	}
	g := res.Account.GPU
	if g == nil {
		t.Fatalf("the account says nothing of the GPU: %+v", res.Account)
	}
	if g.Rounds == 0 || g.TourSlots == 0 || g.Kicks == 0 {
		t.Fatalf("the GPU did nothing: %+v", g)
	}
	t.Logf("%v: %d (%s); %+v", wall, res.Length, res.Device, g)

	in.FixedEdges = [][2]int{{0, 1}, {5, 9}}
	res, err = solver.RunAided(context.Background(), e, in, solver.Params{TimeLimit: time.Second, Seed: 1, Workers: 4}, nil, solver.Aid{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if err := in.CheckFixedEdges(res.Tour); err != nil {
		t.Fatalf("fixed edges: %v", err)
	}
	if g, x := res.Account.GPU, res.Account.EAX; g == nil || g.NoPool != "" || x == nil || x.FromGPU == 0 {
		t.Fatalf("fixed edges: no member of the population came from the GPU: %+v, %+v", g, x)
	}
}
