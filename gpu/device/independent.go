package device

import (
	"fmt"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// bestResult is the shortest of the searches' results with all their moves and steps, failures named (none: the first error).
func bestResult(res []solver.Result, errs []error, sel []DevSlot, p solver.Params) (solver.Result, error) {
	best := -1
	var moves, steps int64
	var elapsed time.Duration
	for i, r := range res {
		if errs[i] != nil {
			continue
		}
		moves, steps, elapsed = moves+r.Moves, steps+r.Steps, max(elapsed, r.Elapsed)
		if best < 0 || r.Length < res[best].Length {
			best = i
		}
	}
	if best < 0 {
		return solver.Result{}, errs[0]
	}
	out := res[best]
	out.Moves, out.Steps, out.Elapsed = moves, steps, elapsed
	out.Params.Seed = p.Seed
	out.Settings.GPUs = GpusText(sel)
	out.Device = fmt.Sprintf("%s; the best of %d independent searches, gpus %s (search %d's)", out.Device, len(sel), GpusText(sel), best)
	g := out.Account.GPUPart()
	g.Contexts, g.PerContext = len(sel), 1
	for i, err := range errs {
		if err != nil {
			g.Contexts--
			out.Account.Warn(fmt.Sprintf("GPU %d.%d left out: %v", sel[i].ordinal, sel[i].slot, err))
		}
	}
	return out, nil
}

// bestOf merges independent searches' snapshots: a new overall best goes on, else the lead search's with the best so far,
// each with the moves and steps of all.
type bestOf struct {
	out   chan solver.Snapshot
	mu    sync.Mutex
	moves []int64
	steps []int64
	best  int64 // the shortest best tour's length sent (0: none yet)
}

// newBestOf merges n searches' snapshots into out (nil: none are taken).
func newBestOf(out chan solver.Snapshot, n int) *bestOf {
	return &bestOf{out: out, moves: make([]int64, n), steps: make([]int64, n)}
}

// share returns search i's snapshot channel (nil where out is) and its end function.
func (b *bestOf) share(i int) (chan solver.Snapshot, func()) {
	if b.out == nil {
		return nil, func() {}
	}
	ch := make(chan solver.Snapshot, 1)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for s := range ch {
			b.take(i, s)
		}
	}()
	return ch, func() { close(ch); <-ended }
}

// take passes search i's snapshot s on as bestOf says.
func (b *bestOf) take(i int, s solver.Snapshot) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.moves[i], b.steps[i] = s.Moves, s.Step
	s.Moves, s.Step = sum(b.moves), sum(b.steps)
	switch {
	case s.Best != nil && (b.best == 0 || s.BestLength < b.best):
		b.best = s.BestLength
	case i != 0 || b.best == 0:
		return
	default:
		// the lead's progress, with the shortest tour sent still the best
		s.Tour, s.Best, s.Length, s.BestLength, s.BestElapsed = nil, nil, b.best, b.best, 0
	}
	solver.Offer(b.out, s)
}

// sum is the sum of xs.
func sum(xs []int64) int64 {
	var t int64
	for _, x := range xs {
		t += x
	}
	return t
}
