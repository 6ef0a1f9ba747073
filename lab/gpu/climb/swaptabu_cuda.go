//go:build cuda

package climb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
)

func init() {
	device.RegisterKernels("swap_tabu_apply")
	for _, s := range []string{"mat", "euc", "ceil", "att"} {
		device.RegisterKernels("swap_tabu_eval_" + s)
	}
}

// swapTabuState is the tabu search's device state beside a one-climber swapBatch; per is the moves a thread evaluates.
type swapTabuState struct {
	tabu, flag, ring, state, best cu.DevicePtr
	tenure, per                   int
}

// SwapTabuPerCandidates are the moves per thread the tabu thread control tries.
var SwapTabuPerCandidates = []int{1, 2, 4, 8, 16, 32}

// tabuEval queues the tabu evaluation.
func (b *swapBatch) tabuEval() error {
	return b.r.Launch("swap_tabu_eval_"+b.dist.Suffix, b.gx(), 1, b.block, 0, b.r.Stream,
		b.dist.Xy, b.dist.Mat, b.n, b.tours, b.tb.flag, b.tb.state, b.tb.per, b.best)
}

// tabuApply queues the choice and the move of one iteration.
func (b *swapBatch) tabuApply() error {
	return b.r.Launch("swap_tabu_apply", 1, 1, b.r.Block("swap_tabu_apply", 1024), 0, b.r.Stream,
		b.tours, b.tb.best, b.n, b.best, b.gx(), b.tb.tabu, b.tb.flag, b.tb.ring, b.tb.state, b.tb.tenure)
}

// tuneTabu tunes the block size for each moves per thread in pers, keeping the fastest pair.
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

// solveSwapTabu is swap-climb with the tabu option: Luong et al.'s tabu search on the device by lab/cpu/climb/tabu.go's
// rules, ties included, so with dist=matrix both follow the same trajectory.
func solveSwapTabu(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, matrix bool, cfg SwapConfig) (solver.Result, error) {
	iters, tenure, per := cfg.Tabu, cfg.Tenure, cfg.Per
	start := time.Now()
	r, err := device.NewRunIn(ctx)
	if err != nil {
		return solver.Result{}, err
	}
	defer r.Close()
	p.Algorithm, p.Backend = AlgoSwapClimb, solver.BackendGPU
	n := in.N
	m := swapMoves(n)
	if m >= 1<<31 {
		return solver.Result{}, fmt.Errorf("%w: %d cities is too many for the swap tabu search's move indices", device.ErrUnsupported, n)
	}
	t := p.Start
	if len(t) != n {
		t = construct.Random(n, rand.New(rand.NewPCG(p.Seed, 0x7ab)))
	}
	tenure = solver.TabuTenure(n, tenure)
	var b *swapBatch
	defer r.Do(func() error {
		if b != nil {
			return b.free()
		}
		return nil
	})
	err = r.Do(func() (err error) {
		if b, err = newSwapBatch(r, in, 1, matrix); err != nil {
			return err
		}
		if err := b.setUpTabu(t, solver.TourLength(in, t), tenure, per); err != nil {
			return err
		}
		return b.tuneTabuLaunch(cfg.Threads, per)
	})
	if err != nil {
		return solver.Result{}, err
	}
	l := device.NewRunLoop(ctx, in, p, snaps, start, 0)
	l.Settings = solver.Settings{Threads: b.block, Blocks: 1, Tenure: tenure, Per: b.tb.per}
	tb := &tabuRun{l: l, r: r, b: b, iters: int64(iters), m: m, state: make([]int64, 4), best: make([]int32, n)}
	l.Progress = func() float64 { return float64(tb.state[0]) / float64(iters) }
	// iterations per host round trip: up to 64, fewer on large neighbourhoods
	tb.chunk = min(max(int64(2e9)/m, 1), 64)
	if err := l.Run(tb.step, tb.view); err != nil {
		return solver.Result{}, err
	}
	if err := r.Do(func() error { return device.DtoH(tb.best, b.tb.best) }); err != nil {
		return solver.Result{}, err
	}
	l.OfferLen(device.Convert[int](tb.best), tb.state[2])
	return l.Finish(e, r.Dev.Label)
}

// setUpTabu sets up the tabu state for start tour t of length l0.
func (b *swapBatch) setUpTabu(t []int, l0 int64, tenure, per int) error {
	n, m := len(t), swapMoves(len(t))
	b.tb = &swapTabuState{tenure: tenure, per: max(per, 1)}
	ring := make([]int32, tenure)
	for i := range ring {
		ring[i] = -1
	}
	tb := b.tb
	err := b.bufs.AllocAll(device.Buf(&tb.tabu, m*4), device.Buf(&tb.flag, m), device.Buf(&tb.ring, int64(tenure)*4), device.Buf(&tb.state, 4*8), device.Buf(&tb.best, int64(n)*4))
	if err == nil {
		err = device.InOrder(func() error { return device.HtoD(tb.tabu, make([]int32, m)) }, func() error { return device.HtoD(tb.flag, make([]byte, m)) },
			func() error { return device.HtoD(tb.ring, ring) }, func() error { return device.HtoD(tb.state, []int64{0, l0, l0, 0}) },
			func() error { return device.HtoD(tb.best, device.Convert[int32](t)) })
	}
	if err != nil {
		return err
	}
	return b.upload(0, t)
}

// tuneTabuLaunch picks the block size and, unless asked, the moves per thread (context thread).
func (b *swapBatch) tuneTabuLaunch(threads, per int) error {
	key := swapTuneKey{b.n, 1, fmt.Sprintf("%s/tabu/%d", b.dist.Suffix, per)}
	switch {
	case threads > 0:
		b.block = min(max(SwapLaunchCandidates[0], threads/32*32), 1024)
	case per > 0:
		if blk, ok := swapTuned.Load(key); ok {
			b.block = blk.(int)
			return nil
		}
		if _, err := b.tune(SwapLaunchCandidates); err != nil {
			return err
		}
		swapTuned.Store(key, b.block)
	default:
		if c, ok := swapTuned.Load(key); ok {
			b.block, b.tb.per = c.([2]int)[0], c.([2]int)[1]
			return nil
		}
		if err := b.tuneTabu(SwapTabuPerCandidates); err != nil {
			return err
		}
		swapTuned.Store(key, [2]int{b.block, b.tb.per})
	}
	return nil
}

// tabuRun is one swap tabu search, the host reading the state every chunk iterations.
type tabuRun struct {
	l     *device.RunLoop
	r     *device.Run
	b     *swapBatch
	iters int64
	chunk int64
	m     int64
	state []int64
	best  []int32
}

// step queues up to chunk iterations and reads the state back.
func (t *tabuRun) step() (done bool, err error) {
	k := min(t.chunk, t.iters-t.state[0])
	err = t.r.Do(func() error {
		for range k {
			if err := t.b.tabuEval(); err != nil {
				return err
			}
			if err := t.b.tabuApply(); err != nil {
				return err
			}
		}
		if err := t.r.Sync("swap tabu search"); err != nil {
			return err
		}
		return device.DtoH(t.state, t.b.tb.state)
	})
	if err != nil {
		return false, err
	}
	t.l.Steps, t.l.Moves = t.state[0], t.state[0]*t.m
	p := t.l.P
	return t.state[0] >= t.iters || t.state[3] != 0 || (p.Target > 0 && t.state[2] <= p.Target), nil
}

// view downloads the best tour for a snapshot, with the device's lengths.
func (t *tabuRun) view(s *solver.Snapshot) error {
	if err := t.r.Do(func() error { return device.DtoH(t.best, t.b.tb.best) }); err != nil {
		return err
	}
	s.Best, s.BestLength, s.Length = device.Convert[int](t.best), t.state[2], t.state[1]
	return nil
}
