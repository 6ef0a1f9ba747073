//go:build cuda

package climb

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/benchgpu"
	"github.com/tsplab/tsplab/solver"
)

func init() {
	device.RegisterKernels("twoopt_climb_r4", "twoopt_climb_r8", "twoopt_climb_r4_t128", "twoopt_climb_r6_t128")
}

// The fused climber's launch geometry and counters (must match climb.cu).
const (
	// climbThreads is the climber block's size unless the kernel's name ends in _tT.
	climbThreads = 256
	ctrIssued    = 0
	ctrClimbs    = 1
	ctrSweeps    = 2
	ctrApplied   = 3
	ctrLenSum    = 4
	// climbCounters is the length of the counter array.
	climbCounters = 5
	// climbSlice is one launch's kernel time; stops and better tours are seen between launches.
	climbSlice = 200 * time.Millisecond
	// climbMaxN: the kernel packs positions in 16 bits.
	climbMaxN = 65535
)

// climbSharedBytes is the fused climber's dynamic shared memory: coordinates, edge lengths, ids and candidates.
func climbSharedBytes(n, threads int) int {
	b := (n+2)*8 + (n+1)*4 + n*4
	b = (b + 7) &^ 7
	return b + threads*8
}

// climbKernelThreads is the block size of climber kernel name.
func climbKernelThreads(name string) int {
	if strings.HasSuffix(name, "_t128") {
		return 128
	}
	return climbThreads
}

// climbKernelFor names the climber variant for n cities, as BenchmarkClimbVariants ranked them (docs/DECISIONS.md#climb-variants).
func climbKernelFor(n int) string {
	switch {
	case n < 1500:
		return "twoopt_climb_r4_t128"
	case n < 3000:
		return "twoopt_climb_r6_t128"
	}
	return "twoopt_climb_r8"
}

// climbPlan is a fused climber launch for one instance.
type climbPlan struct {
	kernel  string
	threads int
	shared  int
	perSM   int
	slots   int
}

// planClimb sizes the fused climber for n cities, or says why the tour does not fit.
func planClimb(r *device.Run, n int, kernel string) (climbPlan, error) {
	th := climbKernelThreads(kernel)
	pl := climbPlan{kernel: kernel, threads: th, shared: climbSharedBytes(n, th)}
	fn, ok := r.Dev.Fn(kernel)
	if !ok {
		return pl, fmt.Errorf("gpu: kernel %s is not in the fatbin (rebuild it: scripts/build-gpu.sh fatbin)", kernel)
	}
	// the kernel's static shared memory counts against the same limit
	static, err := fn.Attribute(cu.SharedSizeBytes)
	if err != nil {
		return pl, err
	}
	if n > climbMaxN || pl.shared+static > r.Dev.Limits.SharedOptin {
		return pl, fmt.Errorf("%d cities need %d bytes of shared memory per climber, the device allows %d", n, pl.shared+static, r.Dev.Limits.SharedOptin)
	}
	if pl.shared > r.Dev.Limits.SharedStatic {
		if err := device.SetMaxDynamicShared(fn, pl.shared); err != nil {
			return pl, err
		}
	}
	per, err := fn.MaxActiveBlocksPerMultiProcessor(th, int64(pl.shared))
	if err != nil {
		return pl, err
	}
	if per <= 0 {
		return pl, fmt.Errorf("no climber block of %d threads and %d bytes of shared memory fits an SM", th, pl.shared)
	}
	pl.perSM = per
	pl.slots = per * r.Dev.Info.Multiprocs
	return pl, nil
}

// climbState is the fused climber's device memory.
type climbState struct {
	r                                         *device.Run
	n, B                                      int
	bufs                                      device.Buffers
	xy, cur, resume, best, bestLen, ctr, dbgP cu.DevicePtr
	// start is climbStartRandom or climbStartNN.
	start int
}

// Start tours of the fused climber (CLIMB_START_* in climb.cu).
const (
	climbStartRandom = 0
	climbStartNN     = 1
)

// newClimbState allocates and initialises the state for B slots from start.
func newClimbState(r *device.Run, in *solver.Instance, B int, start []int, dbgThreads int) (*climbState, error) {
	n := in.N
	s := &climbState{r: r, n: n, B: B}
	err := s.bufs.AllocAll(device.Buf(&s.xy, int64(8*n)), device.Buf(&s.cur, int64(B)*int64(n)*4), device.Buf(&s.resume, int64(B)*4),
		device.Buf(&s.best, int64(B)*int64(n)*4), device.Buf(&s.bestLen, int64(B)*8), device.Buf(&s.ctr, 8*climbCounters),
		device.Buf(&s.dbgP, int64(B)*int64(dbgThreads)*8))
	if err != nil {
		return nil, err
	}
	resume, bl := make([]int32, B), make([]int64, B)
	for i := range bl {
		bl[i] = math.MaxInt64
	}
	if len(start) == n {
		resume[0] = 1
		err = device.HtoD(s.cur, device.Convert[int32](start))
	}
	if err == nil {
		err = device.InOrder(func() error { return device.HtoD(s.xy, device.ShiftedCoords(in)) }, func() error { return device.HtoD(s.resume, resume) },
			func() error { return device.HtoD(s.bestLen, bl) }, func() error { return device.HtoD(s.ctr, make([]uint64, climbCounters)) })
	}
	if err != nil {
		s.bufs.FreeAll()
		return nil, err
	}
	return s, nil
}

func (s *climbState) free() error { return s.bufs.FreeAll() }

// climbEps is the least float improvement a move must show, above four distances' rounding.
func climbEps(in *solver.Instance) float64 {
	return max(1e-3, device.CoordSpan(in)*1e-6)
}

// launch queues one launch of the climber (context thread).
func (s *climbState) launch(pl climbPlan, in *solver.Instance, seed uint64, slice time.Duration, maxClimbs, mode int) error {
	metric, err := device.MetricCode(in)
	if err != nil {
		return err
	}
	return s.r.Launch(pl.kernel, s.B, 1, pl.threads, pl.shared, s.r.Stream,
		s.xy, s.n, s.cur, s.resume, s.best, s.bestLen, s.ctr, seed, int64(slice), maxClimbs, metric, climbEps(in), mode, s.start, s.dbgP)
}

// twoOptClimbFused is 2opt-climb on tours that fit a block's shared memory, on run r.
func twoOptClimbFused(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, cfg ClimbConfig, snaps chan solver.Snapshot, r *device.Run, pl climbPlan, start time.Time) (solver.Result, error) {
	return climbFusedOn(ctx, e, in, p, cfg, snaps, []*device.Run{r}, []climbPlan{pl}, start, nil, nil)
}

// twoOptClimbOn is 2opt-climb on the contexts sel, the restarts shared out; tours too large for a block climb on GPU 0 alone.
func twoOptClimbOn(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, sel []device.DevSlot) (solver.Result, error) {
	return twoOptClimbFaulty(ctx, e, in, p, snaps, sel, nil)
}

// twoOptClimbFaulty is twoOptClimbOn with a test's fault run before share i's launches.
func twoOptClimbFaulty(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, sel []device.DevSlot, fault func(i int) error) (solver.Result, error) {
	if len(sel) <= 1 && (len(sel) == 0 || sel[0] == device.DevSlot{}) {
		return twoOptClimb(ctx, e, in, p, snaps)
	}
	start := time.Now()
	if len(in.FixedEdges) > 0 || in.N > climbMaxN {
		if sel[0] != (device.DevSlot{}) {
			return solver.Result{}, fmt.Errorf("%w: %s's tours do not fit a climber block, and the batch climber runs on GPU 0 alone", device.ErrUnsupported, in.Name)
		}
		res, err := twoOptClimb(ctx, e, in, p, snaps)
		g := res.Account.GPUPart() // the batch climber, on GPU 0 alone
		g.Contexts, g.Selected = 1, len(sel)
		return res, err
	}
	cfg, err := ClimbSpec.Parse(in, p)
	if err != nil {
		return solver.Result{}, err
	}
	if _, err := device.MetricCode(in); err != nil {
		return solver.Result{}, err
	}
	if cfg.Restarts > 0 && len(sel) > cfg.Restarts {
		sel = sel[:cfg.Restarts] // a context for every climb at most
	}
	runs, notes, err := device.OpenRuns(sel)
	if err != nil {
		return solver.Result{}, err
	}
	defer device.CloseRuns(runs)
	var use []*device.Run
	var plans []climbPlan
	for _, r := range runs {
		var pl climbPlan
		if err := r.Do(func() (err error) { pl, err = planClimb(r, in.N, climbKernelFor(in.N)); return err }); err != nil {
			notes = append(notes, fmt.Sprintf("%s left out: %v", r.Dev.Label, err))
			continue
		}
		use, plans = append(use, r), append(plans, pl)
	}
	if len(use) == 0 {
		if sel[0] != (device.DevSlot{}) {
			return solver.Result{}, fmt.Errorf("%w: %s's tours do not fit a climber block on the GPUs selected, and the batch climber runs on GPU 0 alone", device.ErrUnsupported, in.Name)
		}
		device.CloseRuns(runs)
		res, err := twoOptClimb(ctx, e, in, p, snaps)
		g := res.Account.GPUPart() // the batch climber, on GPU 0 alone
		g.Contexts, g.Selected = 1, len(sel)
		return res, err
	}
	return climbFusedOn(ctx, e, in, p, cfg, snaps, use, plans, start, notes, fault)
}

// climbFusedOn is 2opt-climb with the fused climber on runs; between launches the host takes the shortest tour;
// a failed run ends its share.
func climbFusedOn(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, cfg ClimbConfig, snaps chan solver.Snapshot, runs []*device.Run, plans []climbPlan, start time.Time, notes []string, fault func(i int) error) (solver.Result, error) {
	settings := fusedSettings(cfg, runs, plans[0].slots)
	blocks := settings.Blocks
	l := device.NewRunLoop(ctx, in, p, snaps, start, 0) // no deadline: the restarts end the run
	l.Settings = settings
	l.Sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	f := &fusedClimb{climbers: climbers{l: l, r: runs[0], name: AlgoTwoOptClimb}, restarts: cfg.Restarts, notes: notes, fault: fault}
	used, firstErr := f.openShares(in, p, cfg, runs, plans, blocks)
	defer f.freeShares()
	if len(f.shares) == 0 {
		return solver.Result{}, firstErr
	}
	if err := l.Run(f.step, nil); err != nil {
		return solver.Result{}, err
	}
	// Stopped early: by ctx, or by the time limit before all restarts were done
	l.Stopped = l.Expired()
	if err := f.end(); err != nil {
		return solver.Result{}, err
	}
	f.polish(ctx)
	res, err := l.Finish(e, device.DevicesLabel(used))
	if len(used) > 1 {
		g := res.Account.GPUPart()
		g.Contexts, g.PerContext = len(used), blocks
	}
	for _, n := range f.notes {
		res.Account.Warn(n)
	}
	return res, err
}

// fusedSettings are the fused climber's climbers a context and contexts.
func fusedSettings(cfg ClimbConfig, runs []*device.Run, slots int) solver.Settings {
	s := solver.Settings{Blocks: min(max(cfg.Blocks, 0), slots)}
	if s.Blocks == 0 {
		s.Blocks = slots
	}
	if len(runs) > 1 {
		sel := make([]device.DevSlot, len(runs))
		for i, r := range runs {
			sel[i] = r.At()
		}
		s.GPUs = device.GpusText(sel)
	}
	return s
}

// openShares gives each run its share of climbers and restarts, leaving out (with a note) one that fails.
func (f *fusedClimb) openShares(in *solver.Instance, p solver.Params, cfg ClimbConfig, runs []*device.Run, plans []climbPlan, blocks int) (used []*device.Run, firstErr error) {
	restarts := cfg.Restarts
	for i, r := range runs {
		sh := &climbShare{r: r, pl: plans[i], devBest: math.MaxInt64, seed: device.ShareSeed(p.Seed, i)}
		sh.restarts = restarts / len(runs)
		if i < restarts%len(runs) {
			sh.restarts++
		}
		B := min(blocks, plans[i].slots)
		var first []int
		if i == 0 {
			first = p.Start
		}
		if err := r.Do(func() (err error) { sh.s, err = newClimbState(r, in, B, first, 0); return err }); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			f.notes = append(f.notes, fmt.Sprintf("%s left out: %v", r.Dev.Label, err))
			continue
		}
		sh.s.start = climbStartRandom
		if cfg.NearStarts {
			sh.s.start = climbStartNN
		}
		sh.lens, sh.ctr, sh.tour = make([]int64, B), make([]uint64, climbCounters), make([]int32, in.N)
		f.shares = append(f.shares, sh)
		f.opened = append(f.opened, sh)
		used = append(used, r)
	}
	return used, firstErr
}

// freeShares frees every opened share's device state, last first.
func (f *fusedClimb) freeShares() {
	for i := len(f.opened) - 1; i >= 0; i-- {
		sh := f.opened[i]
		sh.r.Do(sh.s.free)
	}
}

// fusedClimb is one fused climber run over the contexts with the host's copies.
type fusedClimb struct {
	climbers
	fault    func(i int) error // a test's (nil: none), before share i's next launch
	shares   []*climbShare
	opened   []*climbShare // every share set up, freed when the run ends
	restarts int
	notes    []string // contexts left out or failed
	lost     [2]int64 // climbs and sweeps of the shares that failed
}

// climbShare is the fused climber on one context.
type climbShare struct {
	r        *device.Run
	pl       climbPlan
	s        *climbState
	seed     uint64
	restarts int   // this share's climbs (0: until the time limit)
	devBest  int64 // the shortest slot best taken so far
	k        int   // the slot whose tour the last launch took (-1: none)
	lens     []int64
	ctr      []uint64
	tour     []int32
}

// launch runs one launch on the share's context and takes the best slot's tour when shorter.
func (sh *climbShare) launch(in *solver.Instance, slice time.Duration) error {
	r, n := sh.r, in.N
	sh.k = -1
	if err := sh.s.launch(sh.pl, in, sh.seed, slice, sh.restarts, 0); err != nil {
		return err
	}
	if err := r.Sync("2-opt climb"); err != nil {
		return err
	}
	if err := device.DtoH(sh.lens, sh.s.bestLen); err != nil {
		return err
	}
	if err := device.DtoH(sh.ctr, sh.s.ctr); err != nil {
		return err
	}
	for i, v := range sh.lens {
		if v < sh.devBest && (sh.k < 0 || v < sh.lens[sh.k]) {
			sh.k = i
		}
	}
	if sh.k < 0 {
		return nil
	}
	sh.devBest = sh.lens[sh.k]
	return device.DtoH(sh.tour, sh.s.best+cu.DevicePtr(4*sh.k*n))
}

// climbSliceFor is the next launch's time, cut to the deadline (zero: none).
func climbSliceFor(deadline time.Time) time.Duration {
	if deadline.IsZero() {
		return climbSlice
	}
	return min(climbSlice, time.Until(deadline))
}

// step runs one launch on every share side by side and takes the best slots' tours.
func (f *fusedClimb) step() (done bool, err error) {
	l, n := f.l, f.l.In.N
	slice := climbSliceFor(l.Deadline)
	errs := device.OnEach(len(f.shares), func(i int) error {
		if f.fault != nil {
			if err := f.fault(i); err != nil {
				return err
			}
		}
		sh := f.shares[i]
		return sh.r.Do(func() error { return sh.launch(l.In, slice) })
	})
	live := f.shares[:0:0]
	var first error
	for i, err := range errs {
		sh := f.shares[i]
		if err == nil {
			live = append(live, sh)
			continue
		}
		if first == nil {
			first = err
		}
		f.lost[0] += int64(sh.ctr[ctrClimbs])
		f.lost[1] += int64(sh.ctr[ctrSweeps])
		f.notes = append(f.notes, fmt.Sprintf("2opt-climb on %s failed: %v; its climbers ended there and the run went on", sh.r.Dev.Label, err))
	}
	if len(live) == 0 {
		return false, first
	}
	f.shares = live
	climbs, sweeps := f.lost[0], f.lost[1]
	for _, sh := range f.shares {
		climbs += int64(sh.ctr[ctrClimbs])
		sweeps += int64(sh.ctr[ctrSweeps])
	}
	f.climbs, l.Steps, l.Moves = climbs, climbs, sweeps*movesPerPass(n)
	for _, sh := range f.shares {
		if sh.k < 0 {
			continue
		}
		t := climberTour(sh.tour, 1, 0)
		if err := solver.ValidateTour(t, n); err != nil {
			return false, fmt.Errorf("2opt-climb: the climber on %s returned an invalid tour: %w", sh.r.Dev.Label, err)
		}
		if l.Offer(t) {
			f.bestDone = true
		}
	}
	if f.restarts == 0 {
		return false, nil
	}
	// every share has climbed its part (a failed share's part is lost)
	for _, sh := range f.shares {
		if int64(sh.ctr[ctrClimbs]) < int64(sh.restarts) {
			return false, nil
		}
	}
	return true, nil
}

// end offers the climbs the last launch left unfinished.
func (f *fusedClimb) end() error {
	n := f.l.In.N
	for _, sh := range f.shares {
		B := len(sh.lens)
		resume, cur := make([]int32, B), make([]int32, B*n)
		err := sh.r.Do(func() error {
			if err := device.DtoH(resume, sh.s.resume); err != nil {
				return err
			}
			return device.DtoH(cur, sh.s.cur)
		})
		if err != nil {
			if len(f.shares) > 1 {
				f.notes = append(f.notes, fmt.Sprintf("the unfinished climbs on %s were lost: %v", sh.r.Dev.Label, err))
				continue
			}
			return err
		}
		f.offerUnfinished(cur, B, func(k int) bool { return resume[k] != 0 })
	}
	return nil
}

// ClimbRate times the fused 2opt-climb kernel alone over random tours, as O'Neil and Burtscher do: climbs and moves per
// second of kernel time and passes per climb.
func ClimbRate(in *solver.Instance, warm, window time.Duration, seed uint64) (benchgpu.KernelRate, error) {
	r, err := device.NewRunFor(in)
	if err != nil {
		return benchgpu.KernelRate{}, err
	}
	defer r.Close()
	var climbsPerSec, movesPerSec, passesPerClimb float64
	err = r.Do(func() error {
		pl, err := planClimb(r, in.N, climbKernelFor(in.N))
		if err != nil {
			return err
		}
		s, err := newClimbState(r, in, pl.slots, nil, 0)
		if err != nil {
			return err
		}
		defer s.free()
		c0, c1 := make([]uint64, climbCounters), make([]uint64, climbCounters)
		if err := s.launch(pl, in, seed, warm, 0, 0); err != nil {
			return err
		}
		if err := r.Sync("2-opt climb"); err != nil {
			return err
		}
		if err := device.DtoH(c0, s.ctr); err != nil {
			return err
		}
		ms, err := r.Timed("2-opt climb", func() error { return s.launch(pl, in, seed+1, window, 0, 0) })
		if err != nil {
			return err
		}
		if err := device.DtoH(c1, s.ctr); err != nil {
			return err
		}
		sec := ms / 1000
		climbs, passes := float64(c1[ctrClimbs]-c0[ctrClimbs]), float64(c1[ctrSweeps]-c0[ctrSweeps])
		climbsPerSec, movesPerSec = climbs/sec, passes*float64(movesPerPass(in.N))/sec
		if climbs > 0 {
			passesPerClimb = passes / climbs
		}
		return nil
	})
	return benchgpu.KernelRate{MovesPerSec: movesPerSec, ClimbsPerSec: climbsPerSec, PassesPerClimb: passesPerClimb, Device: r.Dev.Label}, err
}
