//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
)

// pspmReduceThreads is pspm_sync's block size (PSPM_REDUCE_THREADS).
const pspmReduceThreads = 1024

// pspmLaunchIters is the most iterations per search of one launch when the
// searches fill one wave, so that a stop is seen within a short launch.
const pspmLaunchIters = 1 << 18

// pspmRun is one PSPM run on the device.
type pspmRun struct {
	r           *run
	in          *solver.Instance
	p           solver.Anneal
	cfg         pspmConfig
	n, tb, tpb  int
	metric      int
	draw        pspmDraw
	pl          pspmPlan
	sched       *pspmSchedule
	launchIters int64

	xy, cur, curCost, arch, archCost    cu.DevicePtr
	gbest, gbestCost, gbestBlock, start cu.DevicePtr
	scratch, nbr                        cu.DevicePtr
	host                                pinned

	iter     int64 // iterations run per search
	fromBest bool  // the next launch starts from the global best
	bestTour []int // the last global best read back
	bestLen  int64
	unsent   bool  // bestTour is newer than the last snapshot
	greedy   []int // the start of a fitted schedule (nil: none)
}

// solvePSPM runs PSPM (SSPM: one block; PSSM: one thread per block) on
// Lam et al.'s schedule or one fitted to the time limit (pspmSchedule).
func solvePSPM(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, shape pspmShape) (solver.Result, error) {
	start := time.Now()
	fit := solver.FitsToLimit(p)
	s, err := newPSPMRun(e.Name(), shape, in, p)
	if err != nil {
		return solver.Result{}, err
	}
	if fit && p.TimeLimit > 0 && s.draw.lists != nil && len(p.Start) != in.N {
		// a fitted schedule restarts from the greedy tour
		_, t, ok := startTour(ctx, start.Add(p.TimeLimit), in, p, 8, solver.NewSink(nil, 0, start))
		if ok {
			s.greedy = t
		}
	}
	r, err := newRun()
	if err != nil {
		return solver.Result{}, err
	}
	defer r.close()
	s.r = r
	if s.tpb > r.d.limits.maxThreads {
		return solver.Result{}, fmt.Errorf("pspm: %d threads per block; the most is %d", s.tpb, r.d.limits.maxThreads)
	}
	defer r.do(func() error { return s.host.free() })
	sink := solver.NewSink(snaps, 0, start)
	sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	if err := r.do(s.setUp); err != nil {
		return solver.Result{}, err
	}
	var deadline time.Time
	if s.p.TimeLimit > 0 {
		deadline = start.Add(s.p.TimeLimit)
	}
	s.sched = newPSPMSchedule(s.p, s.n, s.draw, fit, deadline)
	if s.greedy != nil && !p.Given("t0") {
		s.sched.coolFrom = s.draw.from
	}
	sink.SendPhase(solver.PhaseSearch, 0)
	stopped, err := s.anneal(ctx, sink, deadline)
	if err != nil {
		return solver.Result{}, err
	}
	if s.bestTour == nil {
		return solver.Result{}, fmt.Errorf("pspm: stopped before the first synchronisation")
	}
	return s.finish(e, sink, start, stopped)
}

// pspmShape is what sets the GPU annealers apart: one search of parallel
// moves (sspm), or parallel searches of one move each (pssm); neither:
// pspm.
type pspmShape struct{ oneSearch, oneMove bool }

// newPSPMRun reads engine's options (of shape) and checks what the
// kernels need.
func newPSPMRun(engine string, shape pspmShape, in *solver.Instance, q solver.Params) (*pspmRun, error) {
	metric, err := metricCode(in)
	if err != nil {
		return nil, err
	}
	cfg, err := pspmSpecs[engine].Parse(in, q)
	if err != nil {
		return nil, err
	}
	// Move deltas travel as delta*32 + lane in an int32 key.
	if span := coordSpan(in); span > 4e6 {
		return nil, fmt.Errorf("%w: pspm needs coordinates within a span of 4e6 (%s spans %.3g)", ErrUnsupported, in.Name, span)
	}
	p, err := solver.AnnealOf(in, q)
	if err != nil {
		return nil, err
	}
	tb, tpb := p.Blocks, p.Threads
	if shape.oneSearch {
		tb = 1
	}
	if shape.oneMove {
		tpb = 1
	}
	if tpb <= 0 {
		tpb = 32
	}
	draw, err := pspmDrawOf(in, cfg, p, solver.ScheduleSteps(p))
	if err != nil {
		return nil, err
	}
	return &pspmRun{in: in, p: p, cfg: cfg, n: in.N, tb: tb, tpb: tpb, metric: metric, draw: draw, bestLen: -1}, nil
}

// anneal runs the schedule's launches until it ends, is stopped (stopped:
// cut short) or reaches the target.
func (s *pspmRun) anneal(ctx context.Context, sink *solver.Sink, deadline time.Time) (stopped bool, err error) {
	r := s.r
	stop := func() bool { return ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) }
	begin := time.Now()
	lastSent := begin
	for {
		seg, ok := s.sched.next(s.iter, time.Since(begin), s.launchIters)
		if !ok {
			break
		}
		if err := r.do(func() error { return s.launch(seg) }); err != nil {
			return false, fmt.Errorf("pspm on %s failed: %w", r.d.label, err)
		}
		if s.sched.done(seg, s.iter, time.Since(begin)) && s.greedy != nil {
			if err := r.do(s.restart); err != nil {
				return false, err
			}
		}
		due := sink.Due() && time.Since(lastSent) >= time.Second
		if seg.sync || due {
			if err := r.do(s.syncBest); err != nil {
				return false, err
			}
			s.fromBest = seg.sync
		}
		if s.send(sink) {
			lastSent = time.Now()
		}
		if s.p.Target > 0 && s.bestLen >= 0 && s.bestLen <= s.p.Target {
			return true, nil
		}
		if stop() {
			stopped = !s.sched.ended()
			break
		}
	}
	if !s.fromBest {
		// the searches moved on since the last synchronisation
		if err := r.do(s.syncBest); err != nil {
			return stopped, err
		}
	}
	return stopped, nil
}

// launch runs one segment of the schedule and waits for it.
func (s *pspmRun) launch(seg pspmSegment) error {
	r := s.r
	grid := (s.tb + s.pl.perBlock - 1) / s.pl.perBlock
	fromBest := int64(0)
	if s.fromBest {
		fromBest = 1
	}
	end := s.iter + seg.iters
	if err := r.launch(s.pl.layout.kernel(s.segLen() > 1), grid, 1, s.pl.blockDim, s.pl.shared, r.stream,
		s.xy, s.n, s.cur, s.curCost, s.arch, s.archCost, s.gbest, s.gbestCost, fromBest, s.iter, end, seg.ips, seg.origin,
		seg.t0, seg.alpha, s.tpb, s.p.Seed, s.scratch, s.tb, s.nbr, s.draw.k, seg.nnStep, int64(s.draw.mix), s.segLen()); err != nil {
		return err
	}
	s.iter = end
	s.fromBest = false
	return r.sync("pspm")
}

// segLen is the longest segment of the kernel's moves: the seg option
// (1 where the engine has none), at most n - 3 so that a segment always
// has a place to go.
func (s *pspmRun) segLen() int64 {
	return int64(max(1, min(s.cfg.Seg, s.n-3)))
}

// restart starts every search again from the greedy tour (a fitted
// schedule's start).
func (s *pspmRun) restart() error {
	if err := htod(s.start, tourToNext(s.greedy)); err != nil {
		return err
	}
	s.fromBest = false
	return s.initSearches(s.start)
}

// initSearches queues pspm_init: every search from the tour at from, or
// from a random tour when from is 0.
func (s *pspmRun) initSearches(from cu.DevicePtr) error {
	return s.r.launch("pspm_init_"+metricSuffix[s.metric], s.tb, 1, pspmReduceThreads/4, 0, s.r.stream,
		s.xy, s.n, from, s.cur, s.curCost, s.arch, s.archCost, s.p.Seed)
}

// syncBest runs pspm_sync (the best archive into the global best) and
// reads the global best back.
func (s *pspmRun) syncBest() error {
	r := s.r
	if err := r.launch("pspm_sync", 1, 1, pspmReduceThreads, 0, r.stream, s.archCost, s.tb, s.arch, s.n, s.gbest, s.gbestCost, s.gbestBlock); err != nil {
		return err
	}
	if err := cu.MemcpyDtoHAsync(s.host.p, s.gbest, int64(4*s.n), r.stream); err != nil {
		return err
	}
	if err := cu.MemcpyDtoHAsync(unsafe.Add(s.host.p, 4*s.n), s.gbestCost, 8, r.stream); err != nil {
		return err
	}
	if err := r.sync("pspm"); err != nil {
		return fmt.Errorf("pspm on %s failed: %w", r.d.label, err)
	}
	t, err := nextToTour(append([]int32(nil), s.host.int32s(s.n)...))
	if err != nil {
		return fmt.Errorf("pspm: the device returned a broken tour: %v", err)
	}
	s.bestTour, s.unsent = t, true
	s.bestLen = *(*int64)(unsafe.Add(s.host.p, 4*s.n))
	return nil
}

// send hands the last global best to the sink when due, reporting whether.
func (s *pspmRun) send(sink *solver.Sink) bool {
	if !s.unsent || !sink.Due() {
		return false
	}
	prog := s.sched.progress()
	sink.Send(solver.Snapshot{Phase: solver.PhaseSearch, PhaseProgress: prog, Best: s.bestTour, BestLength: s.bestLen,
		Length: s.bestLen, Temperature: s.sched.temperature(), Step: s.sched.steps(), Progress: prog, Moves: s.moves()})
	s.unsent = false
	return true
}

// finish reports the run, with the draw's temperature when the default
// chose it.
func (s *pspmRun) finish(e solver.Engine, sink *solver.Sink, start time.Time, stopped bool) (solver.Result, error) {
	p := s.p
	p.Blocks, p.Threads = s.tb, s.tpb
	if s.draw.from > 0 && s.draw.lists != nil && s.cfg.NNFrom == nil {
		// in full, so that the reported parameters rerun as they are
		p.Params = p.WithExtra("nnfrom", strconv.FormatFloat(s.draw.from, 'g', -1, 64))
	}
	best := s.bestTour
	sink.Send(solver.Snapshot{Best: best, BestLength: s.bestLen, Length: s.bestLen, Step: s.sched.steps(), Progress: s.sched.progress(), Moves: s.moves()})
	res, err := solver.Finish(s.in, e, p.Report(e), solver.Outcome{Tour: best, Moves: s.moves(), Steps: s.sched.steps(), Start: start, Stopped: stopped, Device: s.r.d.label})
	res.Schedule = s.sched.report()
	return res, err
}

// moves is the number of moves evaluated: tpb per team per iteration.
func (s *pspmRun) moves() int64 {
	return s.iter * int64(s.tb) * int64(s.tpb) * int64(max(1, s.pl.teams))
}

// setUp plans the launch, sizes the searches, allocates the state and
// queues pspm_init (the run's thread).
func (s *pspmRun) setUp() error {
	r, n := s.r, s.n
	var err error
	def := s.tb
	if s.tb > 0 {
		s.pl, err = r.planPSPM(n, s.tpb, s.metric, s.tb, 2*len(s.draw.lists))
	} else {
		s.pl, def, err = r.planDefault(n, s.tpb, s.metric, 2*len(s.draw.lists))
	}
	if err != nil {
		return err
	}
	if !s.pl.layout.nn() {
		s.draw = pspmDraw{fromStep: s.draw.fromStep}
	}
	if s.tb, err = s.searches(def); err != nil {
		return err
	}
	s.launchIters = s.launchBudget()
	if err := s.alloc(); err != nil {
		return err
	}
	if err := s.upload(); err != nil {
		return err
	}
	if s.host, err = allocPinned(4*n + 8); err != nil {
		return err
	}
	// the start tour when given (a fitted schedule's greedy one waits for restart)
	var from cu.DevicePtr
	if len(s.p.Start) == n {
		from = s.start
	}
	return s.initSearches(from)
}

// searches returns the searches asked for, checked against the device
// memory, or the default def within it.
func (s *pspmRun) searches(def int) (int, error) {
	free, _, err := cu.MemInfo()
	if err != nil {
		return 0, err
	}
	fixed := int64(s.n)*16 + 64 // coordinates, global best, start tour
	maxTB := (usableMemory(free) - fixed) / s.pl.blockBytes(s.n)
	maxTB = min(maxTB, int64(math.MaxInt32)/int64(s.pl.perBlock))
	if maxTB < 1 {
		return 0, fmt.Errorf("pspm: one search of %d cities needs %d MiB of GPU memory; %d MiB are free", s.n, s.pl.blockBytes(s.n)>>20, free>>20)
	}
	if s.tb <= 0 {
		// within the blocks option's range
		maxTB = min(maxTB, max(1, int64(solver.MaxTourCells/s.n)))
		return int(min(int64(def), maxTB)), nil
	}
	if int64(s.tb) > maxTB {
		return 0, fmt.Errorf("pspm: %d blocks of %d cities need %d MiB of GPU memory; %d MiB are free, enough for %d blocks",
			s.tb, s.n, int64(s.tb)*s.pl.blockBytes(s.n)>>20, free>>20, maxTB)
	}
	return s.tb, nil
}

// launchBudget is the iterations per search of one launch: whole steps of
// Lam's schedule while a step is short, else parts of one; fewer with more
// searches than a wave, or with the city records in global memory.
func (s *pspmRun) launchBudget() int64 {
	wave := int64(s.pl.perSM * s.r.d.info.Multiprocs)
	budget := max(1, min(pspmLaunchIters, pspmLaunchIters*wave/int64(s.tb)))
	if s.pl.perSM > 32 {
		budget = max(1, budget*32/int64(s.pl.perSM)) // more searches share an SM: each runs slower
	}
	if s.pl.layout.shared&pspmSharedLists == 0 {
		budget = max(1, budget/8)
	}
	ips := int64(s.n) * int64(s.p.Sweeps)
	if ips <= budget {
		return ips * int64(max(1, min(s.p.K, int(budget/ips))))
	}
	return budget
}

// alloc takes the searches' device memory.
func (s *pspmRun) alloc() error {
	r, n, tb := s.r, int64(s.n), int64(s.tb)
	var err error
	get := func(dst *cu.DevicePtr, bytes int64) {
		if err == nil {
			*dst, err = r.bufs.alloc(bytes)
		}
	}
	get(&s.xy, 8*n)
	get(&s.cur, tb*n*4)
	get(&s.curCost, tb*8)
	get(&s.arch, tb*n*4)
	get(&s.archCost, tb*8)
	get(&s.gbest, n*4)
	get(&s.gbestCost, 8)
	get(&s.gbestBlock, 8)
	if s.pl.layout.shared&pspmSharedLists == 0 {
		get(&s.scratch, tb*n*s.pl.recordBytes()) // a record per city and search (kernels/pspm.cu PspmNode)
	}
	if len(s.p.Start) == s.n || s.greedy != nil {
		get(&s.start, 4*n)
	}
	if len(s.draw.lists) > 0 {
		get(&s.nbr, int64(2*len(s.draw.lists)))
	}
	return err
}

// upload copies the coordinates, the start tour and the neighbour lists.
func (s *pspmRun) upload() error {
	if s.nbr != 0 {
		if err := cu.MemcpyHtoD(s.nbr, unsafe.Pointer(&s.draw.lists[0]), int64(2*len(s.draw.lists))); err != nil {
			return err
		}
	}
	if err := htod(s.xy, shiftedCoords(s.in)); err != nil {
		return err
	}
	if len(s.p.Start) == s.n {
		return htod(s.start, tourToNext(s.p.Start))
	}
	return nil
}
