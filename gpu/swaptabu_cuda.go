//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
)

func init() {
	registerKernels("swap_tabu_apply")
	for _, s := range []string{"mat", "euc", "ceil", "att"} {
		registerKernels("swap_tabu_eval_" + s)
	}
}

// swapTabuState is the tabu search's device state beside a one-climber
// swapBatch: the tabu list (per move index, the first iteration at which
// the move is allowed again), a byte per move saying whether it is tabu
// now (what the evaluation reads), the ring of the last tenure moves made
// (which flags to clear when), the counters (iteration, current length,
// best length, stuck) and the best tour; per is the moves each evaluation
// thread takes.
type swapTabuState struct {
	tabu, flag, ring, state, best cu.DevicePtr
	tenure, per                   int
}

// SwapTabuPerCandidates are the moves per thread the tabu search's thread
// control tries with each block size (1: one thread per neighbour).
var SwapTabuPerCandidates = []int{1, 2, 4, 8, 16, 32}

// tabuEval queues the tabu evaluation (the thread control times it as it
// times swap_eval).
func (b *swapBatch) tabuEval() error {
	return b.r.launch("swap_tabu_eval_"+b.dist.suffix, b.gx(), 1, b.block, 0, b.r.stream,
		b.dist.xy, b.dist.mat, b.n, b.tours, b.tb.flag, b.tb.state, b.tb.per, b.best)
}

// tabuApply queues the choice and the move of one iteration.
func (b *swapBatch) tabuApply() error {
	return b.r.launch("swap_tabu_apply", 1, 1, b.r.block("swap_tabu_apply", 1024), 0, b.r.stream,
		b.tours, b.tb.best, b.n, b.best, b.gx(), b.tb.tabu, b.tb.flag, b.tb.ring, b.tb.state, b.tb.tenure)
}

// tuneTabu is the tabu search's thread control: the block sizes of tune
// for each count of moves per thread in pers; the fastest pair stays
// (context thread).
func (b *swapBatch) tuneTabu(pers []int) error {
	bestPer, bestBlock, bestMs := 0, 0, 0.0
	var lastErr error
	for _, per := range pers {
		b.tb.per = per
		trials, err := b.tune(SwapLaunchCandidates)
		if err != nil {
			lastErr = err
			continue
		}
		for _, tr := range trials {
			if tr.Err == nil && tr.Block == b.block && (bestPer == 0 || tr.Ms < bestMs) {
				bestPer, bestBlock, bestMs = per, tr.Block, tr.Ms
			}
		}
	}
	if bestPer == 0 {
		return lastErr
	}
	b.tb.per, b.block = bestPer, bestBlock
	return nil
}

// solveSwapTabu is swap-climb with the tabu option: Luong et al.'s tabu
// search over the pair-exchange neighbourhood, the whole iteration on the
// device (each thread evaluates per consecutive neighbours and whether
// they are admissible, per = 1 being Luong et al.'s one thread per
// neighbour; the thread control tunes per with the block size; one block picks the best admissible move, makes it, marks it
// tabu and keeps the best tour), so the host only queues launches and
// reads the counters every few dozen iterations. The rules are the CPU
// engine's (solver/cpu/tabu.go), ties included, so with exact distances
// (dist=matrix) both follow the same trajectory.
func solveSwapTabu(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, matrix bool, iters, tenure, per int) (solver.Result, error) {
	start := time.Now()
	r, err := newRun()
	if err != nil {
		return solver.Result{}, err
	}
	defer r.close()
	p.Algorithm, p.Backend = AlgoSwapClimb, solver.BackendGPU
	var deadline time.Time
	if p.TimeLimit > 0 {
		deadline = start.Add(p.TimeLimit)
	}
	n := in.N
	m := swapMoves(n)
	if m >= 1<<31 {
		return solver.Result{}, fmt.Errorf("%w: %d cities is too many for the swap tabu search's move indices", ErrUnsupported, n)
	}
	t := p.Start
	if len(t) != n {
		t = construct.Random(n, rand.New(rand.NewPCG(p.Seed, 0x7ab)))
	}
	tenure = solver.TabuTenure(n, tenure)
	l0 := solver.TourLength(in, t)
	var b *swapBatch
	defer r.do(func() error {
		if b != nil {
			return b.free()
		}
		return nil
	})
	err = r.do(func() (err error) {
		if b, err = r.newSwapBatch(in, 1, matrix); err != nil {
			return err
		}
		b.tb = &swapTabuState{tenure: tenure, per: max(per, 1)}
		if b.tb.tabu, err = b.bufs.alloc(m * 4); err != nil {
			return err
		}
		if err := htod(b.tb.tabu, make([]int32, m)); err != nil {
			return err
		}
		if b.tb.flag, err = b.bufs.alloc(m); err != nil {
			return err
		}
		if err := htod(b.tb.flag, make([]byte, m)); err != nil {
			return err
		}
		if b.tb.ring, err = b.bufs.alloc(int64(tenure) * 4); err != nil {
			return err
		}
		ring := make([]int32, tenure)
		for i := range ring {
			ring[i] = -1
		}
		if err := htod(b.tb.ring, ring); err != nil {
			return err
		}
		if b.tb.state, err = b.bufs.alloc(4 * 8); err != nil {
			return err
		}
		if err := htod(b.tb.state, []int64{0, l0, l0, 0}); err != nil {
			return err
		}
		if b.tb.best, err = b.bufs.alloc(int64(n) * 4); err != nil {
			return err
		}
		if err := b.upload(0, t); err != nil {
			return err
		}
		c := make([]int32, n)
		for i, v := range t {
			c[i] = int32(v)
		}
		if err := htod(b.tb.best, c); err != nil {
			return err
		}
		// thread control: the block size, and the moves per thread unless
		// asked; a fixed block size alone keeps one thread per neighbour
		key := swapTuneKey{n, 1, fmt.Sprintf("%s/tabu/%d", b.dist.suffix, per)}
		switch {
		case p.Threads > 0:
			b.block = min(max(SwapLaunchCandidates[0], p.Threads/32*32), 1024)
		case per > 0:
			if blk, ok := swapTuned.Load(key); ok {
				b.block = blk.(int)
			} else {
				if _, err = b.tune(SwapLaunchCandidates); err != nil {
					return err
				}
				swapTuned.Store(key, b.block)
			}
		default:
			if c, ok := swapTuned.Load(key); ok {
				b.block, b.tb.per = c.([2]int)[0], c.([2]int)[1]
			} else {
				if err = b.tuneTabu(SwapTabuPerCandidates); err != nil {
					return err
				}
				swapTuned.Store(key, [2]int{b.block, b.tb.per})
			}
		}
		return nil
	})
	if err != nil {
		return solver.Result{}, err
	}
	p.Threads = b.block
	p.Blocks = 1
	p.Extra = maps.Clone(p.Extra)
	if p.Extra == nil {
		p.Extra = map[string]string{}
	}
	p.Extra[OptTenure] = fmt.Sprint(tenure)
	p.Extra[OptPer] = fmt.Sprint(b.tb.per)
	// iterations per host round trip: up to 64, fewer when an iteration is
	// large enough that 64 would take long to stop
	chunk := int(min(max(int64(2e9)/m, 1), 64))
	sink := solver.NewSink(snaps, 0, start)
	state := make([]int64, 4)
	best := make([]int32, n)
	stopped := false
	for state[0] < int64(iters) && state[3] == 0 {
		if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
			stopped = true
			break
		}
		k := int(min(int64(chunk), int64(iters)-state[0]))
		due := sink.Due()
		err := r.do(func() error {
			for range k {
				if err := b.tabuEval(); err != nil {
					return err
				}
				if err := b.tabuApply(); err != nil {
					return err
				}
			}
			if err := r.sync("swap tabu search"); err != nil {
				return err
			}
			if err := dtoh(state, b.tb.state); err != nil {
				return err
			}
			if due {
				return dtoh(best, b.tb.best)
			}
			return nil
		})
		if err != nil {
			return solver.Result{}, err
		}
		if due {
			sink.Send(solver.Snapshot{Phase: solver.PhaseSearch, PhaseProgress: float64(state[0]) / float64(iters),
				Best: toInts(best), BestLength: state[2], Length: state[1], Step: state[0], Moves: state[0] * m,
				Progress: float64(state[0]) / float64(iters)})
		}
		if p.Target > 0 && state[2] <= p.Target {
			break
		}
	}
	if err := r.do(func() error { return dtoh(best, b.tb.best) }); err != nil {
		return solver.Result{}, err
	}
	tour := toInts(best)
	sink.Send(solver.Snapshot{Best: tour, BestLength: state[2], Length: state[1], Step: state[0], Moves: state[0] * m, Progress: 1})
	return solver.Finish(in, e, p, solver.Outcome{Tour: tour, Moves: state[0] * m, Steps: state[0], Start: start, Stopped: stopped, Device: r.d.label})
}

func toInts(c []int32) []int {
	t := make([]int, len(c))
	for i, v := range c {
		t[i] = int(v)
	}
	return t
}
