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
	registerKernels("twoopt_climb_r4", "twoopt_climb_r8", "twoopt_climb_r4_t128")
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
// coordinates and edge lengths (n+1 each), its city ids, a candidate per
// thread.
func climbSharedBytes(n, threads int) int {
	b := (n+1)*8 + (n+1)*4 + n*4
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
	case n < 5000:
		return "twoopt_climb_r4"
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

// twoOptClimbFused is 2opt-climb on tours that fit a block's shared memory:
// resident climber slots run climb after climb; between launches the host
// takes the best slot's tour when it is new.
func twoOptClimbFused(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, cfg climbConfig, snaps chan solver.Snapshot, r *run, pl climbPlan, start time.Time) (solver.Result, error) {
	restarts := cfg.Restarts
	if p.TimeLimit <= 0 && restarts == 0 {
		p.TimeLimit = solver.DefaultTimeLimit
	}
	blocks := min(max(cfg.Blocks, 0), pl.slots)
	if blocks == 0 {
		blocks = pl.slots
	}
	p = p.WithExtra("blocks", strconv.Itoa(blocks))
	l := newRunLoop(ctx, in, p, snaps, start, 0)
	if l.deadline.IsZero() { // the restarts end the run
		l.deadline = start.Add(solver.MaxTimeLimit)
	}
	l.sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	f := &fusedClimb{climbers: climbers{l: l, r: r, name: AlgoTwoOptClimb}, pl: pl, restarts: restarts, devBest: math.MaxInt64}
	if err := r.do(func() (err error) { f.s, err = r.newClimbState(in, blocks, p.Start, 0); return err }); err != nil {
		return solver.Result{}, err
	}
	defer r.do(f.s.free)
	f.s.start = climbStartRandom
	if cfg.NearStarts {
		f.s.start = climbStartNN
	}
	f.lens, f.ctr, f.tour = make([]int64, blocks), make([]uint64, climbCounters), make([]int32, in.N)
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
	return l.finish(e, r.d.label)
}

// fusedClimb is one run of the fused climber and the host's copies of its
// state.
type fusedClimb struct {
	climbers
	pl       climbPlan
	s        *climbState
	restarts int
	devBest  int64 // the shortest slot best taken so far
	lens     []int64
	ctr      []uint64
	tour     []int32
}

// step runs one launch (up to the deadline) and takes the best slot's
// tour when it is the shortest yet.
func (f *fusedClimb) step() (done bool, err error) {
	l, r, n := f.l, f.r, f.l.in.N
	slice := min(climbSlice, time.Until(l.deadline))
	k := -1
	err = r.do(func() error {
		if err := f.s.launch(f.pl, l.in, l.p.Seed, slice, f.restarts, 0); err != nil {
			return err
		}
		if err := r.sync("2-opt climb"); err != nil {
			return err
		}
		if err := dtoh(f.lens, f.s.bestLen); err != nil {
			return err
		}
		if err := dtoh(f.ctr, f.s.ctr); err != nil {
			return err
		}
		for i, v := range f.lens {
			if v < f.devBest && (k < 0 || v < f.lens[k]) {
				k = i
			}
		}
		if k < 0 {
			return nil
		}
		f.devBest = f.lens[k]
		return dtoh(f.tour, f.s.best+cu.DevicePtr(4*k*n))
	})
	if err != nil {
		return false, err
	}
	f.climbs, l.steps, l.moves = int64(f.ctr[ctrClimbs]), int64(f.ctr[ctrClimbs]), int64(f.ctr[ctrSweeps])*movesPerPass(n)
	if k >= 0 {
		t := climberTour(f.tour, 1, 0)
		if err := solver.ValidateTour(t, n); err != nil {
			return false, fmt.Errorf("2opt-climb: the climber returned an invalid tour: %w", err)
		}
		if l.offer(t) {
			f.bestDone = true
		}
	}
	return f.restarts > 0 && f.climbs >= int64(f.restarts), nil
}

// end offers the climbs the last launch left unfinished.
func (f *fusedClimb) end() error {
	B, n := len(f.lens), f.l.in.N
	resume, cur := make([]int32, B), make([]int32, B*n)
	err := f.r.do(func() error {
		if err := dtoh(resume, f.s.resume); err != nil {
			return err
		}
		return dtoh(cur, f.s.cur)
	})
	if err != nil {
		return err
	}
	f.offerUnfinished(cur, B, func(k int) bool { return resume[k] != 0 })
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
