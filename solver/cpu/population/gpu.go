package population

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// KickCounter is a solver.TourPool counting its last Improve's kicks.
type KickCounter interface {
	// LastKicks is the kicks of the last Improve.
	LastKicks() int64
}

// gpuTour is a tour the accelerator returned shorter than it came.
type gpuTour struct {
	tour   []int32
	length int64
}

// feeder runs an accelerator's TourPool beside the workers on copies of the pool's members, queueing the shorter tours
// for the main goroutine, which alone touches the pool.
type feeder struct {
	open  solver.OpenTourPool
	in    *solver.Instance
	seed  uint64
	round time.Duration

	mu       sync.Mutex
	seeds    [][]int32
	seedLens []int64
	gen      int
	out      []gpuTour
	ready    chan struct{} // signalled on each publish
	done     chan struct{} // closed when the feeder's goroutine ends

	// under mu, read by the main goroutine
	slots, calls, improved int
	kicks                  int64
	err                    error
}

// newFeeder returns the feeder of open for in, not yet started.
func newFeeder(open solver.OpenTourPool, in *solver.Instance, seed uint64, round time.Duration) *feeder {
	return &feeder{open: open, in: in, seed: seed, round: round, ready: make(chan struct{}, 1), done: make(chan struct{})}
}

// publish hands the feeder copies of the pool's members (main goroutine).
func (f *feeder) publish(p *Pool) {
	if p.Len() == 0 {
		return
	}
	seeds := make([][]int32, p.Len())
	lens := make([]int64, p.Len())
	for i := range seeds {
		t, l := p.Tour(i)
		seeds[i], lens[i] = slices.Clone(t), l
	}
	f.mu.Lock()
	f.seeds, f.seedLens = seeds, lens
	f.gen++
	f.mu.Unlock()
	select {
	case f.ready <- struct{}{}:
	default:
	}
}

// take returns the queued tours and empties the queue (main goroutine).
func (f *feeder) take() []gpuTour {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.out
	f.out = nil
	return out
}

// stats returns the feeder's counters.
func (f *feeder) stats() (slots, calls, improved int, kicks int64, err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.slots, f.calls, f.improved, f.kicks, f.err
}

// run opens the accelerator's pool and feeds it until ctx ends, closing f.done; a failure ends the feeder alone.
func (f *feeder) run(ctx context.Context) {
	defer close(f.done)
	tp, err := f.open(f.in, f.seed)
	if err != nil {
		f.fail(err)
		return
	}
	defer tp.Close()
	slots := max(tp.Slots(), 1)
	f.mu.Lock()
	f.slots = slots
	f.mu.Unlock()
	var (
		tours   [][]int32
		from    []int // the member each slot started from
		lens    []int64
		lastGen int
	)
	for ctx.Err() == nil {
		f.mu.Lock()
		seeds, seedLens, gen := f.seeds, f.seedLens, f.gen
		f.mu.Unlock()
		if seeds == nil {
			select {
			case <-ctx.Done():
				return
			case <-f.ready:
			}
			continue
		}
		if gen != lastGen {
			// new members: every slot restarts from one of them
			lastGen = gen
			tours, from = tours[:0], from[:0]
			for j := 0; j < slots; j++ {
				m := j % len(seeds)
				tours, from = append(tours, slices.Clone(seeds[m])), append(from, m)
			}
		}
		rctx, cancel := context.WithTimeout(ctx, f.round)
		got, err := tp.Improve(rctx, tours, 0)
		cancel()
		if err != nil {
			if ctx.Err() == nil {
				f.fail(err)
			}
			return
		}
		lens = got
		f.collect(tours, from, lens, seedLens, tp)
	}
}

// collect queues each member's shortest slot tour when shorter than the member.
func (f *feeder) collect(tours [][]int32, from []int, lens, seedLens []int64, tp solver.TourPool) {
	best := make([]int, len(seedLens))
	for i := range best {
		best[i] = -1
	}
	improved := 0
	for j, l := range lens {
		m := from[j]
		if l < seedLens[m] {
			improved++
			if best[m] < 0 || l < lens[best[m]] {
				best[m] = j
			}
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	f.improved += improved
	if kc, ok := tp.(KickCounter); ok {
		f.kicks += kc.LastKicks()
	}
	for m, j := range best {
		if j >= 0 {
			f.out = append(f.out, gpuTour{tour: slices.Clone(tours[j]), length: lens[j]})
			seedLens[m] = lens[j] // later rounds queue only further gains
		}
	}
}

// fail keeps the feeder's error.
func (f *feeder) fail(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.err = err
}

// worked reports whether the accelerator opened and searched the pool's tours.
func (f *feeder) worked() bool {
	_, calls, _, _, err := f.stats()
	return err == nil || (!errors.Is(err, solver.ErrNoTourPool) && calls > 0)
}

// account adds what the accelerator did to a, or why it failed.
func (f *feeder) account(a *solver.Account, entered, bests int) {
	slots, calls, improved, kicks, err := f.stats()
	g := a.GPUPart()
	switch {
	case errors.Is(err, solver.ErrNoTourPool):
		g.NoPool = solver.NoPoolInstance
		return
	case err != nil && calls == 0:
		a.Warn(fmt.Sprintf("the GPU's searches on the pool failed: %v", err))
		return
	}
	g.Rounds, g.TourSlots, g.Improved, g.Kicks = calls, slots, improved, kicks
	g.Entered, g.Bests = entered, bests
	if a.Pool != nil {
		g.Members = a.Pool.FromGPU
	}
	if err != nil {
		a.Warn(fmt.Sprintf("the GPU's searches on the pool stopped after %d rounds: %v", calls, err))
	}
}
