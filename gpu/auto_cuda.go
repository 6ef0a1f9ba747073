//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/gpu/ascent"
	"github.com/tsplab/tsplab/gpu/blockils"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/solver"
	cpuils "github.com/tsplab/tsplab/solver/cpu/ils"
	"github.com/tsplab/tsplab/solver/strategy"
)

// solveAuto is the GPU auto engine: CPU auto with its ascent on the GPU, plus the GPU roles strategy.Decide
// gives it: windows beside the partition search, early or-ils, a start descent and the population's pool;
// CPU auto alone on an instance the kernels cannot take (device.Impl.AnyInstance).
func solveAuto(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid) (solver.Result, error) {
	start := time.Now()
	cfg, st, cpu, err := planAuto(in, p, solver.LeftOf(ctx, start))
	if err != nil {
		return solver.Result{}, err
	}
	t, gstart, warn := autoLSStart(ctx, in, p.Seed, st, start, solver.NewSink(snaps, 0, start))
	if t != nil {
		p.Start, cpu.Start = t, t
	}
	cpuAid, pooled, gpus, closeAll := autoAid(ctx, in, p.Seed, cfg, st, aid)
	defer closeAll()
	// account adds the GPU's start and windows to a CPU run's account
	account := func(a *solver.Account) {
		if gstart != nil {
			a.GPUPart().Start = gstart
		}
		if a.Windows != nil && cpuAid.Paths != nil {
			a.Windows.OnGPU = true
			if gpus > 1 {
				a.GPUPart().Contexts = gpus
			}
		}
		a.Warn(warn)
	}
	if st.GPU.Early {
		r, err := solveEarly(ctx, e, cpuAid, in, p, cpu, cfg, st, snaps, start)
		account(&r.Account)
		return r, err
	}
	r, err := cpuils.Auto().Run(ctx, in, cpu, snaps, cpuAid, cfg.cpu, st)
	if err != nil {
		return solver.Result{}, err
	}
	acc := r.Account
	account(&acc)
	if cpuAlone(st, pooled.Load()) {
		acc.GPUPart().Alone = true
	}
	res, err := solver.Finish(in, e, p, solver.Outcome{Tour: r.Tour, Moves: r.Moves, Steps: r.Steps, Start: start, Stopped: r.Stopped, Device: r.Device, Account: acc})
	res.Stats = r.Stats
	return res, err
}

// autoAid is GPU auto's aid to CPU auto: the ascent's device, the block search on a population's tours (pooled:
// taken) and or-ils's windows beside the partition search on every selected context (gpus, closed by closeAll).
func autoAid(ctx context.Context, in *solver.Instance, seed uint64, cfg autoConfig, st strategy.Strategy, aid solver.Aid) (cpuAid solver.Aid, pooled *atomic.Bool, gpus int, closeAll func()) {
	pooled, gpus, closeAll = new(atomic.Bool), 1, func() {}
	cpuAid = solver.Aid{Device: ascent.BoundDevice, Ascents: aid.Ascents}
	if !st.GPU.Ascent {
		cpuAid.Device = nil // an instance the kernels cannot take
	}
	if st.GPU.Pool {
		cpuAid.Pool = func(in *solver.Instance, seed uint64) (solver.TourPool, error) {
			tp, err := blockils.OpenTourPool(in, seed)
			pooled.Store(err == nil)
			return tp, err
		}
	}
	if st.GPU.Windows {
		var sp splitPaths
		var pws []*ils.PathWindows
		for i, at := range device.SelectedIn(ctx) {
			pws = append(pws, ils.NewPathWindows(at, in, cfg.windows, seed+uint64(i)))
			sp = append(sp, pws[i])
		}
		gpus, closeAll = len(sp), func() {
			for i := len(pws) - 1; i >= 0; i-- {
				pws[i].Close()
			}
		}
		cpuAid.Paths, cpuAid.PathShare = sp, cfg.beside
	}
	return cpuAid, pooled, gpus, closeAll
}

// autoLSStart returns the start tour, a 2opt-or optimum found on the GPU, when the strategy starts there
// (strategy.StartGPUDescent), with the descent's account; no tour otherwise or on failure (warned).
func autoLSStart(ctx context.Context, in *solver.Instance, seed uint64, st strategy.Strategy, start time.Time, sink *solver.Sink) ([]int, *solver.GPUStart, string) {
	if st.Start != strategy.StartGPUDescent {
		return nil, nil, ""
	}
	sink.SendPhase(solver.PhaseStart, solver.UnknownProgress)
	t, gs, err := ils.GlsDescent(ctx, in, nil, autoLSGreedy, seed, start.Add(st.GPU.StartDescent), strategy.GPUStartStall)
	if err != nil {
		return nil, nil, fmt.Sprintf("the GPU's descent of the start tour failed: %v", err)
	}
	l := solver.TourLength(in, t)
	sink.Send(solver.Snapshot{Tour: t, Length: l, Best: t, BestLength: l, Phase: solver.PhaseStart, PhaseProgress: 1})
	gst := &solver.GPUStart{Construction: ils.GlsStartName(false, gs.Rounds, gs.Frags), Passes: gs.Passes, Seconds: (gs.Setup + gs.Search).Seconds()}
	if gs.Passes == 0 {
		gst.Seconds = gs.Setup.Seconds()
	}
	return t, gst, ""
}

// solveEarly runs or-ils while the CPU auto engine builds its lists and start tour, stopped at its first tour;
// the better tour wins.
func solveEarly(ctx context.Context, e solver.Engine, aid solver.Aid, in *solver.Instance, p, cpu solver.Params, cfg autoConfig, plan strategy.Strategy, snaps chan solver.Snapshot, start time.Time) (solver.Result, error) {
	type orSide struct {
		ph  ils.OrPhase
		err error
	}
	orDone := make(chan orSide, 1)
	// the engine gets what is left of the run's time, its snapshots shifted to the run's clock
	spent := time.Since(start)
	orSnaps, engSnaps, merged := mergeSnapshots(snaps, spent)
	octx, stopOr := context.WithCancel(ctx)
	defer stopOr()
	first := make(chan struct{})
	go func() {
		select {
		case <-first:
		case <-octx.Done():
		}
		stopOr()
	}()
	go func() {
		ph, err := ils.OrILS(octx, in, p, cfg.early, orSnaps, start)
		orDone <- orSide{ph, err}
	}()
	aid.FirstTour = first
	r, err := cpuils.Auto().Run(ctx, in, cpu, engSnaps, aid, cfg.cpu, plan)
	stopOr()
	o := <-orDone
	merged()
	if err != nil {
		return solver.Result{}, err
	}
	acc := r.Account
	best, moves := r.Tour, r.Moves
	st := r.Stats
	if o.err != nil {
		acc.Warn(fmt.Sprintf("or-ils before the first tour stopped: %v", o.err))
	} else if o.ph.Tour != nil {
		acc.GPUPart().EarlyTours = true
		moves += o.ph.Moves
		st.EarlyLength = o.ph.Length
		if o.ph.Length < r.Length {
			best = o.ph.Tour
			st.EarlyKept = true
		}
	}
	res, err := solver.Finish(in, e, p, solver.Outcome{Tour: best, Moves: moves, Steps: r.Steps, Start: start, Stopped: r.Stopped || ctx.Err() != nil, Device: r.Device, Account: acc})
	res.Stats = st
	return res, err
}
