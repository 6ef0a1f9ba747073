//go:build cuda

package device

import (
	"context"
	"sync"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestIndependent: one context selected runs the body itself with the
// run's own context and seed; several run a search each on its own
// context, seeded ShareSeed(seed, i), the shortest kept (no device
// needed: the body is a stand-in).
func TestIndependent(t *testing.T) {
	var mu sync.Mutex
	type call struct {
		ds   DevSlot
		seed uint64
		same bool
	}
	var calls []call
	outer := context.WithValue(context.Background(), struct{ k int }{1}, "outer")
	body := func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
		mu.Lock()
		calls = append(calls, call{slotIn(ctx), p.Seed, ctx == outer})
		mu.Unlock()
		l := int64(100 - slotIn(ctx).ordinal)
		solver.Offer(snaps, solver.Snapshot{Best: []int{0}, BestLength: l, Moves: 1})
		return solver.Result{Length: l, Moves: 1, Params: p}, nil
	}
	run := Independent(body)
	res, err := run(outer, nil, nil, solver.Params{Seed: 3}, nil, slotsOf([]int{0}))
	if err != nil || len(calls) != 1 || calls[0] != (call{DevSlot{}, 3, true}) || res.Settings.GPUs != "" || res.Account.GPU != nil {
		t.Fatalf("one context: %+v, %v, calls %+v; want the body itself on device 0, seed 3", res, err, calls)
	}
	calls = nil
	snaps := make(chan solver.Snapshot, 8)
	res, err = run(outer, nil, nil, solver.Params{Seed: 3}, snaps, slotsOf([]int{0, 2}))
	if err != nil || res.Length != 98 || res.Moves != 2 || res.Params.Seed != 3 || res.Settings.GPUs != "0,2" {
		t.Fatalf("two contexts: %+v, %v", res, err)
	}
	seeds := map[DevSlot]uint64{}
	for _, c := range calls {
		seeds[c.ds] = c.seed
	}
	if len(calls) != 2 || seeds[DevSlot{0, 0}] != 3 || seeds[DevSlot{2, 0}] != ShareSeed(3, 1) {
		t.Fatalf("calls %+v; want device 0 seeded 3 and device 2 ShareSeed(3, 1)", calls)
	}
	close(snaps)
	best := int64(0)
	for s := range snaps {
		if s.Best != nil {
			best = s.BestLength
		}
	}
	if best != 98 {
		t.Errorf("snapshots' last best %d, want 98", best)
	}
}
