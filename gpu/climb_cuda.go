//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
)

func init() {
	registerKernels("twoopt_climb_r4", "twoopt_climb_r8", "twoopt_climb_r4_t128", "twoopt_climb_r6_t128")
}

// Launch geometry and counters of the fused climber (must match
// kernels/climb.cu).
const (
	// climbThreads is the climber block's size, unless the kernel's name
	// ends in _tT (T threads).
	climbThreads = 256
	ctrIssued    = 0
	ctrClimbs    = 1
	ctrSweeps    = 2
	ctrApplied   = 3
	ctrLenSum    = 4
	// climbCounters is the length of the counter array.
	climbCounters = 5
	// climbSlice is one launch's kernel time (stops and better tours are seen
	// between launches).
	climbSlice = 200 * time.Millisecond
	// climbMaxN: the kernel packs positions in 16 bits.
	climbMaxN = 65535
)

// climbSharedBytes is the fused climber's dynamic shared memory: the tour's
// coordinates (n+2: the first again and a far point) and edge lengths
// (n+1), its city ids, a candidate per thread.
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

// climbKernelFor names the climber variant for n cities (R rows per thread,
// block size): more rows save square roots but take registers and waste
// more of a pass near the diagonal; the sizes are where
// BenchmarkClimbVariants ranked them (docs/DECISIONS.md#climb-variants).
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

// planClimb sizes the fused climber for n cities, or says why the tour
// does not fit a block's shared memory.
func (r *run) planClimb(n int, kernel string) (climbPlan, error) {
	th := climbKernelThreads(kernel)
	pl := climbPlan{kernel: kernel, threads: th, shared: climbSharedBytes(n, th)}
	fn, ok := r.d.fn(kernel)
	if !ok {
		return pl, fmt.Errorf("gpu: kernel %s is not in the fatbin (rebuild it: scripts/build-gpu.sh fatbin)", kernel)
	}
	// the kernel's static shared memory counts against the same limit
	static, err := fn.Attribute(cu.SharedSizeBytes)
	if err != nil {
		return pl, err
	}
	if n > climbMaxN || pl.shared+static > r.d.limits.sharedOptin {
		return pl, fmt.Errorf("%d cities need %d bytes of shared memory per climber, the device allows %d", n, pl.shared+static, r.d.limits.sharedOptin)
	}
	if pl.shared > r.d.limits.sharedStatic {
		if err := setMaxDynamicShared(fn, pl.shared); err != nil {
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
	pl.slots = per * r.d.info.Multiprocs
	return pl, nil
}

// climbState is the fused climber's device memory: coordinates, per slot the
// saved climb, its resume flag, the best tour and length, the counters.
type climbState struct {
	r                                         *run
	n, B                                      int
	bufs                                      buffers
	xy, cur, resume, best, bestLen, ctr, dbgP cu.DevicePtr
	// start is climbStartRandom or climbStartNN.
	start int
}

// Start tours of the fused climber (CLIMB_START_* in kernels/climb.cu).
const (
	climbStartRandom = 0
	climbStartNN     = 1
)

// newClimbState allocates and initialises the state for B slots (context
// thread). start, when it has n cities, is slot 0's first climb.
func (r *run) newClimbState(in *solver.Instance, B int, start []int, dbgThreads int) (*climbState, error) {
	n := in.N
	s := &climbState{r: r, n: n, B: B}
	err := s.bufs.allocAll(devBuf{&s.xy, int64(8 * n)}, devBuf{&s.cur, int64(B) * int64(n) * 4}, devBuf{&s.resume, int64(B) * 4},
		devBuf{&s.best, int64(B) * int64(n) * 4}, devBuf{&s.bestLen, int64(B) * 8}, devBuf{&s.ctr, 8 * climbCounters},
		devBuf{&s.dbgP, int64(B) * int64(dbgThreads) * 8})
	if err != nil {
		return nil, err
	}
	resume, bl := make([]int32, B), make([]int64, B)
	for i := range bl {
		bl[i] = math.MaxInt64
	}
	if len(start) == n {
		resume[0] = 1
		err = htod(s.cur, convert[int32](start))
	}
	if err == nil {
		err = inOrder(func() error { return htod(s.xy, shiftedCoords(in)) }, func() error { return htod(s.resume, resume) },
			func() error { return htod(s.bestLen, bl) }, func() error { return htod(s.ctr, make([]uint64, climbCounters)) })
	}
	if err != nil {
		s.bufs.freeAll()
		return nil, err
	}
	return s, nil
}

func (s *climbState) free() error { return s.bufs.freeAll() }

// climbEps is the least improvement a move must show in float: above the
// rounding of four distances, so a climber cannot undo and redo a move.
func climbEps(in *solver.Instance) float64 {
	return max(1e-3, coordSpan(in)*1e-6)
}

// launch queues one launch of the climber (context thread).
func (s *climbState) launch(pl climbPlan, in *solver.Instance, seed uint64, slice time.Duration, maxClimbs, mode int) error {
	metric, err := metricCode(in)
	if err != nil {
		return err
	}
	return s.r.launch(pl.kernel, s.B, 1, pl.threads, pl.shared, s.r.stream,
		s.xy, s.n, s.cur, s.resume, s.best, s.bestLen, s.ctr, seed, int64(slice), maxClimbs, metric, climbEps(in), mode, s.start, s.dbgP)
}

// twoOptClimbFused is 2opt-climb on tours that fit a block's shared memory,
// on the one run r.
func twoOptClimbFused(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, cfg climbConfig, snaps chan solver.Snapshot, r *run, pl climbPlan, start time.Time) (solver.Result, error) {
	return climbFusedOn(ctx, e, in, p, cfg, snaps, []*run{r}, []climbPlan{pl}, start, nil)
}

// twoOptClimbOn is 2opt-climb on the contexts sel: the fused climber's
// slots on every one of them, the climbs in all (restarts) shared out, the
// host taking the best tour of all between launches as it does on one.
// Tours too large for a block's shared memory climb on GPU 0 alone.
func twoOptClimbOn(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, sel []devSlot) (solver.Result, error) {
	if len(sel) <= 1 && (len(sel) == 0 || sel[0] == devSlot{}) {
		return twoOptClimb(ctx, e, in, p, snaps)
	}
	start := time.Now()
	if len(in.FixedEdges) > 0 || in.N > climbMaxN {
		if sel[0] != (devSlot{}) {
			return solver.Result{}, fmt.Errorf("%w: %s's tours do not fit a climber block, and the batch climber runs on GPU 0 alone", ErrUnsupported, in.Name)
		}
		res, err := twoOptClimb(ctx, e, in, p, snaps)
		res.Note = joinNote(res.Note, "the batch climber ran on GPU 0 alone")
		return res, err
	}
	cfg, err := climbSpec.Parse(in, p)
	if err != nil {
		return solver.Result{}, err
	}
	if _, err := metricCode(in); err != nil {
		return solver.Result{}, err
	}
	if cfg.Restarts > 0 && len(sel) > cfg.Restarts {
		sel = sel[:cfg.Restarts] // a context for every climb at most
	}
	runs, notes, err := openRuns(sel)
	if err != nil {
		return solver.Result{}, err
	}
	defer closeRuns(runs)
	var use []*run
	var plans []climbPlan
	for _, r := range runs {
		var pl climbPlan
		if err := r.do(func() (err error) { pl, err = r.planClimb(in.N, climbKernelFor(in.N)); return err }); err != nil {
			notes = append(notes, fmt.Sprintf("%s left out: %v", r.d.label, err))
			continue
		}
		use, plans = append(use, r), append(plans, pl)
	}
	if len(use) == 0 {
		if sel[0] != (devSlot{}) {
			return solver.Result{}, fmt.Errorf("%w: %s's tours do not fit a climber block on the GPUs selected, and the batch climber runs on GPU 0 alone", ErrUnsupported, in.Name)
		}
		closeRuns(runs)
		res, err := twoOptClimb(ctx, e, in, p, snaps)
		res.Note = joinNote(res.Note, "the batch climber ran on GPU 0 alone")
		return res, err
	}
	return climbFusedOn(ctx, e, in, p, cfg, snaps, use, plans, start, notes)
}

// climbFusedOn is 2opt-climb with the fused climber on runs (plans: each
// one's launch): resident climber slots run climb after climb; between
// launches the host takes the best slot's tour of every run when it is the
// shortest yet. A run that fails ends its share and the others go on.
func climbFusedOn(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, cfg climbConfig, snaps chan solver.Snapshot, runs []*run, plans []climbPlan, start time.Time, notes []string) (solver.Result, error) {
	restarts := cfg.Restarts
	if p.TimeLimit <= 0 && restarts == 0 {
		p.TimeLimit = solver.DefaultTimeLimit
	}
	blocks := min(max(cfg.Blocks, 0), plans[0].slots)
	if blocks == 0 {
		blocks = plans[0].slots
	}
	p = p.WithExtra("blocks", strconv.Itoa(blocks))
	if len(runs) > 1 {
		sel := make([]devSlot, len(runs))
		for i, r := range runs {
			sel[i] = devSlot{r.d.ordinal, r.d.slot}
		}
		p = p.WithExtra(OptGPUs, gpusText(sel))
	}
	l := newRunLoop(ctx, in, p, snaps, start, 0)
	if l.deadline.IsZero() { // the restarts end the run
		l.deadline = start.Add(solver.MaxTimeLimit)
	}
	l.sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	f := &fusedClimb{climbers: climbers{l: l, r: runs[0], name: AlgoTwoOptClimb}, restarts: restarts, notes: notes}
	var used []*run
	var firstErr error
	for i, r := range runs {
		sh := &climbShare{r: r, pl: plans[i], devBest: math.MaxInt64, seed: shareSeed(p.Seed, i)}
		sh.restarts = restarts / len(runs)
		if i < restarts%len(runs) {
			sh.restarts++
		}
		B := min(blocks, plans[i].slots)
		var first []int
		if i == 0 {
			first = p.Start
		}
		if err := r.do(func() (err error) { sh.s, err = r.newClimbState(in, B, first, 0); return err }); err != nil {
			if firstErr == nil {
				firstErr = err
			}
			f.notes = append(f.notes, fmt.Sprintf("%s left out: %v", r.d.label, err))
			continue
		}
		defer r.do(sh.s.free)
		sh.s.start = climbStartRandom
		if cfg.NearStarts {
			sh.s.start = climbStartNN
		}
		sh.lens, sh.ctr, sh.tour = make([]int64, B), make([]uint64, climbCounters), make([]int32, in.N)
		f.shares = append(f.shares, sh)
		used = append(used, r)
	}
	if len(f.shares) == 0 {
		return solver.Result{}, firstErr
	}
	if err := l.run(f.step, nil); err != nil {
		return solver.Result{}, err
	}
	// Stopped early: by ctx, or by the time limit before the restarts
	// were all done (a run without a restarts budget ends by time).
	l.stopped = ctx.Err() != nil || !time.Now().Before(l.deadline)
	if err := f.end(); err != nil {
		return solver.Result{}, err
	}
	f.polish(ctx)
	res, err := l.finish(e, devicesLabel(used))
	if len(used) > 1 {
		res.Note = joinNote(res.Note, fmt.Sprintf("%d climbers on each of %d GPU contexts", blocks, len(used)))
	}
	for _, n := range f.notes {
		res.Note = joinNote(res.Note, n)
	}
	return res, err
}

// fusedClimb is one run of the fused climber over one or more contexts
// and the host's copies of their state.
type fusedClimb struct {
	climbers
	shares   []*climbShare
	restarts int
	notes    []string // contexts left out or failed
	lost     [2]int64 // climbs and sweeps of the shares that failed
}

// climbShare is the fused climber on one context.
type climbShare struct {
	r        *run
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

// climbShareFault, when set (tests), fails share i's next launch.
var climbShareFault func(i int) error

// launch runs one launch on the share's context (up to slice) and takes
// the best slot's tour when it is its shortest yet (context thread).
func (sh *climbShare) launch(in *solver.Instance, slice time.Duration) error {
	r, n := sh.r, in.N
	sh.k = -1
	if err := sh.s.launch(sh.pl, in, sh.seed, slice, sh.restarts, 0); err != nil {
		return err
	}
	if err := r.sync("2-opt climb"); err != nil {
		return err
	}
	if err := dtoh(sh.lens, sh.s.bestLen); err != nil {
		return err
	}
	if err := dtoh(sh.ctr, sh.s.ctr); err != nil {
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
	return dtoh(sh.tour, sh.s.best+cu.DevicePtr(4*sh.k*n))
}

// step runs one launch on every share side by side (up to the deadline)
// and takes the best slot tours when they are the shortest yet.
func (f *fusedClimb) step() (done bool, err error) {
	l, n := f.l, f.l.in.N
	slice := min(climbSlice, time.Until(l.deadline))
	errs := onEach(len(f.shares), func(i int) error {
		if climbShareFault != nil {
			if err := climbShareFault(i); err != nil {
				return err
			}
		}
		sh := f.shares[i]
		return sh.r.do(func() error { return sh.launch(l.in, slice) })
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
		f.notes = append(f.notes, fmt.Sprintf("2opt-climb on %s failed: %v; its climbers ended there and the run went on", sh.r.d.label, err))
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
	f.climbs, l.steps, l.moves = climbs, climbs, sweeps*movesPerPass(n)
	for _, sh := range f.shares {
		if sh.k < 0 {
			continue
		}
		t := climberTour(sh.tour, 1, 0)
		if err := solver.ValidateTour(t, n); err != nil {
			return false, fmt.Errorf("2opt-climb: the climber on %s returned an invalid tour: %w", sh.r.d.label, err)
		}
		if l.offer(t) {
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
	n := f.l.in.N
	for _, sh := range f.shares {
		B := len(sh.lens)
		resume, cur := make([]int32, B), make([]int32, B*n)
		err := sh.r.do(func() error {
			if err := dtoh(resume, sh.s.resume); err != nil {
				return err
			}
			return dtoh(cur, sh.s.cur)
		})
		if err != nil {
			if len(f.shares) > 1 {
				f.notes = append(f.notes, fmt.Sprintf("the unfinished climbs on %s were lost: %v", sh.r.d.label, err))
				continue
			}
			return err
		}
		f.offerUnfinished(cur, B, func(k int) bool { return resume[k] != 0 })
	}
	return nil
}

// ClimbRate times the fused 2opt-climb kernel alone, as O'Neil and
// Burtscher time theirs: every slot climbs from random tours, and one
// launch of window after a warm-up is timed with device events. It returns
// climbs and moves per second of kernel time and passes per climb; an error
// when the tour does not fit a block's shared memory.
func ClimbRate(in *solver.Instance, warm, window time.Duration, seed uint64) (KernelRate, error) {
	r, err := newRunFor(in)
	if err != nil {
		return KernelRate{}, err
	}
	defer r.close()
	var climbsPerSec, movesPerSec, passesPerClimb float64
	err = r.do(func() error {
		pl, err := r.planClimb(in.N, climbKernelFor(in.N))
		if err != nil {
			return err
		}
		s, err := r.newClimbState(in, pl.slots, nil, 0)
		if err != nil {
			return err
		}
		defer s.free()
		c0, c1 := make([]uint64, climbCounters), make([]uint64, climbCounters)
		if err := s.launch(pl, in, seed, warm, 0, 0); err != nil {
			return err
		}
		if err := r.sync("2-opt climb"); err != nil {
			return err
		}
		if err := dtoh(c0, s.ctr); err != nil {
			return err
		}
		ms, err := r.timed("2-opt climb", func() error { return s.launch(pl, in, seed+1, window, 0, 0) })
		if err != nil {
			return err
		}
		if err := dtoh(c1, s.ctr); err != nil {
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
	return KernelRate{MovesPerSec: movesPerSec, ClimbsPerSec: climbsPerSec, PassesPerClimb: passesPerClimb, Device: r.d.label}, err
}
