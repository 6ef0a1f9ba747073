//go:build cuda

package pspm

import (
	"context"
	"fmt"
	"math"
	"strings"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cooling"
)

// pspmReduceThreads is pspm_sync's block size (PSPM_REDUCE_THREADS).
const pspmReduceThreads = 1024

// pspmLaunchIters is the most iterations a search a launch when the searches fill a wave.
const pspmLaunchIters = 1 << 18

// pspmRun is one share of a PSPM run: its searches on one context.
type pspmRun struct {
	r           *device.Run
	in          *solver.Instance
	p           solver.Anneal
	cfg         pspmConfig
	n, tb, tpb  int
	metric      int
	draw        pspmDraw
	pl          pspmPlan
	launchIters int64

	xy, cur, curCost, arch, archCost    cu.DevicePtr
	gbest, gbestCost, gbestBlock, start cu.DevicePtr
	scratch, nbr                        cu.DevicePtr
	host                                device.Pinned

	iter     int64 // iterations run per search
	fromBest bool  // the next launch starts from the global best
	handed   bool  // the last exchange handed this share a better global best
	bestTour []int // the last global best read back
	bestLen  int64
	greedy   []int // the start of a fitted schedule (nil: none)
}

// solvePSPM runs PSPM (SSPM: one block; PSSM: one thread per block) on Lam et al.'s or a fitted schedule over the contexts sel.
func solvePSPM(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, shape pspmShape, sel []device.DevSlot, hooks pspmHooks) (solver.Result, error) {
	start := time.Now()
	fit := cooling.FitsToLimit(ctx, p)
	s, err := newPSPMRun(e.Name(), shape, in, p)
	if err != nil {
		return solver.Result{}, err
	}
	if fit && s.draw.lists != nil && len(p.Start) != in.N {
		// a fitted schedule restarts from the greedy tour
		_, t, ok := device.StartTour(ctx, solver.DeadlineOf(ctx, start), in, p, 8, solver.NewSink(nil, 0, start))
		if ok {
			s.greedy = t
		}
	}
	runs, notes, err := device.OpenRuns(sel)
	if err != nil {
		return solver.Result{}, err
	}
	defer device.CloseRuns(runs)
	g := &pspmGroup{greedy: s.greedy, bestLen: -1, notes: notes, sel: sel, seed: p.Seed, hooks: hooks}
	sink := solver.NewSink(snaps, 0, start)
	sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	all, first := g.setUpShares(s, runs, p.Seed)
	defer freeHosts(all)
	if len(g.shares) == 0 {
		return solver.Result{}, first
	}
	deadline := g.plan(p, solver.DeadlineOf(ctx, start), fit)
	sink.SendPhase(solver.PhaseSearch, 0)
	stopped, err := g.anneal(ctx, sink, deadline)
	if err != nil {
		return solver.Result{}, err
	}
	if g.bestTour == nil {
		return solver.Result{}, fmt.Errorf("pspm: stopped before the first synchronisation")
	}
	return g.finish(e, sink, start, stopped)
}

// setUpShares sets up a copy of s on each run with its share of the searches, leaving out (with a note) one that fails.
func (g *pspmGroup) setUpShares(s *pspmRun, runs []*device.Run, seed uint64) (all []*pspmRun, first error) {
	for i, r := range runs {
		c := *s
		c.r = r
		c.p.Seed = device.ShareSeed(seed, i)
		var err error
		if c.tpb > r.Dev.Limits.MaxThreads {
			err = fmt.Errorf("pspm: %d threads per block; the most is %d", c.tpb, r.Dev.Limits.MaxThreads)
		} else {
			err = r.Do(c.setUp)
		}
		share := &c
		all = append(all, share)
		if err != nil {
			if first == nil {
				first = err
			}
			g.notes = append(g.notes, fmt.Sprintf("%s left out: %v", r.Dev.Label, err))
			continue
		}
		g.shares = append(g.shares, share)
	}
	return all, first
}

// freeHosts frees the shares' pinned host memory, the last first.
func freeHosts(all []*pspmRun) {
	for i := len(all) - 1; i >= 0; i-- {
		share := all[i]
		share.r.Do(func() error { return share.host.Free() })
	}
}

// plan sets the group's schedule from its first share and the iterations of a launch to the deadline (zero: none).
func (g *pspmGroup) plan(p solver.Params, deadline time.Time, fit bool) time.Time {
	lead := g.shares[0]
	g.sched = newPSPMSchedule(lead.p, lead.n, lead.draw, fit, deadline)
	if g.greedy != nil && !p.Given("t0") {
		g.sched.coolFrom = lead.draw.from
	}
	g.launchIters = lead.launchIters
	for _, sh := range g.shares[1:] {
		g.launchIters = min(g.launchIters, sh.launchIters)
	}
	return deadline
}

// pspmGroup is one PSPM run over one or more contexts: a share of the searches on each, one schedule, and the global best
// exchanged through the host at the schedule's synchronisations.
type pspmGroup struct {
	shares      []*pspmRun // the shares still running
	sel         []device.DevSlot
	seed        uint64 // the run's seed (the first share's)
	sched       *pspmSchedule
	launchIters int64
	greedy      []int
	iter        int64 // iterations run per search
	fromBest    bool  // the last segment ended with a synchronisation
	bestTour    []int // the global best
	bestLen     int64
	unsent      bool          // bestTour is newer than the last snapshot
	notes       []string      // contexts left out, shares ended by a failure
	lostMoves   int64         // moves of the shares that failed
	runs        []*device.Run // every share's run, failed ones too
	hooks       pspmHooks
}

// pspmHooks are what a test does to a run and sees of it.
type pspmHooks struct {
	// shareFault, when set, runs before share i's next device call; an error fails the share
	shareFault func(i int, iter int64, r *device.Run) error
	// exchange, when set, sees every exchange with each share's best length before it
	exchange func(g *pspmGroup, before []int64)
}

// each runs f on every share on its run's thread; a failed share ends there, noted,
// the others go on (all failed: the first error).
func (g *pspmGroup) each(f func(s *pspmRun) error) error {
	errs := device.OnEach(len(g.shares), func(i int) error {
		s := g.shares[i]
		return s.r.Do(func() error {
			if g.hooks.shareFault != nil {
				if err := g.hooks.shareFault(i, g.iter, s.r); err != nil {
					return err
				}
			}
			return f(s)
		})
	})
	live := g.shares[:0:0]
	var first error
	for i, err := range errs {
		s := g.shares[i]
		if err == nil {
			live = append(live, s)
			continue
		}
		if !strings.Contains(err.Error(), s.r.Dev.Label) {
			err = fmt.Errorf("pspm on %s failed: %w", s.r.Dev.Label, err)
		}
		if first == nil {
			first = err
		}
		g.notes = append(g.notes, fmt.Sprintf("%s; its searches ended there and the run went on", err))
		g.lostMoves += s.moves()
	}
	if len(live) == 0 {
		return first
	}
	g.shares = live
	return nil
}

// anneal runs the schedule's launches until it ends, is stopped or reaches the target.
func (g *pspmGroup) anneal(ctx context.Context, sink *solver.Sink, deadline time.Time) (stopped bool, err error) {
	for _, s := range g.shares {
		g.runs = append(g.runs, s.r)
	}
	stop := func() bool { return ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) }
	begin := time.Now()
	lastSent := begin
	for {
		seg, ok := g.sched.next(g.iter, time.Since(begin), g.launchIters)
		if !ok {
			break
		}
		if err := g.each(func(s *pspmRun) error { return s.launch(seg) }); err != nil {
			return false, err
		}
		g.iter += seg.iters
		g.fromBest = false
		if g.sched.done(seg, g.iter, time.Since(begin)) && g.greedy != nil {
			if err := g.each((*pspmRun).restart); err != nil {
				return false, err
			}
		}
		due := sink.Due() && time.Since(lastSent) >= time.Second
		if seg.sync || due {
			if err := g.sync(seg.sync); err != nil {
				return false, err
			}
		}
		if g.send(sink) {
			lastSent = time.Now()
		}
		if g.shares[0].p.Target > 0 && g.bestLen >= 0 && g.bestLen <= g.shares[0].p.Target {
			return true, nil
		}
		if stop() {
			stopped = !g.sched.ended()
			break
		}
	}
	if !g.fromBest {
		// the searches moved on since the last synchronisation
		if err := g.sync(false); err != nil {
			return stopped, err
		}
	}
	return stopped, nil
}

// sync gathers every share's best, keeps the global best and, with exchange, hands it to the worse shares and starts
// the next segment from it (islands: from each island's best).
func (g *pspmGroup) sync(exchange bool) error {
	if err := g.each((*pspmRun).syncBest); err != nil {
		return err
	}
	for _, s := range g.shares {
		if g.bestLen < 0 || s.bestLen < g.bestLen {
			g.bestTour, g.bestLen, g.unsent = s.bestTour, s.bestLen, true
		}
	}
	if exchange && len(g.shares) > 1 {
		var before []int64
		if g.hooks.exchange != nil {
			for _, s := range g.shares {
				before = append(before, s.bestLen)
			}
			defer func() { g.hooks.exchange(g, before) }()
		}
		next := device.TourToNext(g.bestTour)
		best, bestLen := g.bestTour, g.bestLen
		err := g.each(func(s *pspmRun) error {
			s.handed = false
			if s.bestLen <= bestLen {
				return nil
			}
			if err := device.HtoD(s.gbest, next); err != nil {
				return err
			}
			if err := device.HtoD(s.gbestCost, []int64{bestLen}); err != nil {
				return err
			}
			s.bestTour, s.bestLen, s.handed = best, bestLen, true
			return nil
		})
		if err != nil {
			return err
		}
	}
	if exchange && g.shares[0].cfg.Island > 0 {
		if err := g.each((*pspmRun).exchangeIslands); err != nil {
			return err
		}
	}
	for _, s := range g.shares {
		s.fromBest = exchange && s.cfg.Island <= 0
	}
	g.fromBest = exchange
	return nil
}

// exchangeIslands queues pspm_exchange: each search starts from its island's best, the first island from a better global one.
func (s *pspmRun) exchangeIslands() error {
	handed := int64(0)
	if s.handed {
		handed = 1
	}
	return s.r.Launch("pspm_exchange", s.tb, 1, 256, 0, s.r.Stream, s.archCost, s.arch, s.cur, s.curCost, s.tb, s.n,
		s.cfg.Island, s.gbest, s.gbestCost, handed)
}

// send hands the global best to the sink when due, reporting whether.
func (g *pspmGroup) send(sink *solver.Sink) bool {
	if !g.unsent || !sink.Due() {
		return false
	}
	prog := g.sched.progress()
	sink.Send(solver.Snapshot{Phase: solver.PhaseSearch, PhaseProgress: prog, Best: g.bestTour, BestLength: g.bestLen,
		Length: g.bestLen, Temperature: g.sched.temperature(), Step: g.sched.steps(), Progress: prog, Moves: g.moves()})
	g.unsent = false
	return true
}

// moves is the moves evaluated by every share.
func (g *pspmGroup) moves() int64 {
	m := g.lostMoves
	for _, s := range g.shares {
		m += s.moves()
	}
	return m
}

// finish reports the run with the draw's temperature and contexts where chosen.
func (g *pspmGroup) finish(e solver.Engine, sink *solver.Sink, start time.Time, stopped bool) (solver.Result, error) {
	s := g.shares[0]
	p := s.p
	p.Seed = g.seed
	p.Blocks, p.Threads = s.tb, s.tpb
	set := p.Settings(e)
	if s.draw.from > 0 && s.draw.lists != nil && s.cfg.NNFrom == nil {
		set.NNFrom = s.draw.from
	}
	if len(g.sel) > 1 {
		set.GPUs = device.GpusText(g.sel)
	}
	label := device.DevicesLabel(g.runs)
	best := g.bestTour
	sink.Send(solver.Snapshot{Best: best, BestLength: g.bestLen, Length: g.bestLen, Step: g.sched.steps(), Progress: g.sched.progress(), Moves: g.moves()})
	res, err := solver.Finish(s.in, e, p.Params, solver.Outcome{Tour: best, Moves: g.moves(), Steps: g.sched.steps(), Start: start, Stopped: stopped, Device: label, Settings: set})
	res.Schedule = g.sched.report()
	if len(g.runs) > 1 {
		// the best is exchanged every synchronisation
		gp := res.Account.GPUPart()
		gp.Contexts, gp.PerContext = len(g.runs), s.tb
	}
	for _, n := range g.notes {
		res.Account.Warn(n)
	}
	return res, err
}

// pspmShape sets the GPU annealers apart: one search of parallel moves (sspm), searches of one move (pssm), or pspm.
type pspmShape struct{ oneSearch, oneMove bool }

// newPSPMRun reads engine's options (of shape) and checks what the kernels need.
func newPSPMRun(engine string, shape pspmShape, in *solver.Instance, q solver.Params) (*pspmRun, error) {
	metric, err := device.MetricCode(in)
	if err != nil {
		return nil, err
	}
	cfg, err := PspmSpecs[engine].Parse(in, q)
	if err != nil {
		return nil, err
	}
	// Move deltas travel as delta*32 + lane in an int32 key.
	if span := device.CoordSpan(in); span > 4e6 {
		return nil, fmt.Errorf("%w: pspm needs coordinates within a span of 4e6 (%s spans %.3g)", device.ErrUnsupported, in.Name, span)
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

// launch runs one segment of the schedule and waits for it.
func (s *pspmRun) launch(seg pspmSegment) error {
	r := s.r
	grid := (s.tb + s.pl.perBlock - 1) / s.pl.perBlock
	fromBest := int64(0)
	if s.fromBest {
		fromBest = 1
	}
	end := s.iter + seg.iters
	if err := r.Launch(s.pl.layout.kernel(s.segLen() > 1), grid, 1, s.pl.blockDim, s.pl.shared, r.Stream,
		s.xy, s.n, s.cur, s.curCost, s.arch, s.archCost, s.gbest, s.gbestCost, fromBest, s.iter, end, seg.ips, seg.origin,
		seg.t0, seg.alpha, s.tpb, s.p.Seed, s.scratch, s.tb, s.nbr, s.draw.k, seg.nnStep, int64(s.draw.mix), s.segLen()); err != nil {
		return err
	}
	s.iter = end
	s.fromBest = false
	return r.Sync("pspm")
}

// segLen is the kernel's longest segment: the seg option (1 without one), at most n - 3.
func (s *pspmRun) segLen() int64 {
	return int64(max(1, min(s.cfg.Seg, s.n-3)))
}

// restart starts every search again from the greedy tour (a fitted start).
func (s *pspmRun) restart() error {
	if err := device.HtoD(s.start, device.TourToNext(s.greedy)); err != nil {
		return err
	}
	s.fromBest = false
	return s.initSearches(s.start)
}

// initSearches queues pspm_init from the tour at from, or random tours.
func (s *pspmRun) initSearches(from cu.DevicePtr) error {
	return s.r.Launch("pspm_init_"+device.MetricSuffix[s.metric], s.tb, 1, pspmReduceThreads/4, 0, s.r.Stream,
		s.xy, s.n, from, s.cur, s.curCost, s.arch, s.archCost, s.p.Seed)
}

// syncBest runs pspm_sync and reads the global best back.
func (s *pspmRun) syncBest() error {
	r := s.r
	if err := r.Launch("pspm_sync", 1, 1, pspmReduceThreads, 0, r.Stream, s.archCost, s.tb, s.arch, s.n, s.gbest, s.gbestCost, s.gbestBlock); err != nil {
		return err
	}
	if err := cu.MemcpyDtoHAsync(s.host.P, s.gbest, int64(4*s.n), r.Stream); err != nil {
		return err
	}
	if err := cu.MemcpyDtoHAsync(unsafe.Add(s.host.P, 4*s.n), s.gbestCost, 8, r.Stream); err != nil {
		return err
	}
	if err := r.Sync("pspm"); err != nil {
		return fmt.Errorf("pspm on %s failed: %w", r.Dev.Label, err)
	}
	t, err := device.NextToTour(append([]int32(nil), s.host.Int32s(s.n)...))
	if err != nil {
		return fmt.Errorf("pspm: the device returned a broken tour: %v", err)
	}
	s.bestTour = t
	s.bestLen = *(*int64)(unsafe.Add(s.host.P, 4*s.n))
	return nil
}

// moves is the number of moves evaluated: tpb per team per iteration.
func (s *pspmRun) moves() int64 {
	return s.iter * int64(s.tb) * int64(s.tpb) * int64(max(1, s.pl.teams))
}

// setUp plans the launch, sizes the searches, allocates and queues pspm_init.
func (s *pspmRun) setUp() error {
	r, n := s.r, s.n
	var err error
	def := s.tb
	if s.tb > 0 {
		s.pl, err = planPSPM(r, n, s.tpb, s.metric, s.tb, 2*len(s.draw.lists))
	} else {
		s.pl, def, err = planDefault(r, n, s.tpb, s.metric, 2*len(s.draw.lists))
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
	if s.host, err = device.AllocPinned(4*n + 8); err != nil {
		return err
	}
	// the start tour when given (a fitted schedule's greedy one waits for restart)
	var from cu.DevicePtr
	if len(s.p.Start) == n {
		from = s.start
	}
	return s.initSearches(from)
}

// searches returns the searches asked, checked against memory, or the default.
func (s *pspmRun) searches(def int) (int, error) {
	free, _, err := cu.MemInfo()
	if err != nil {
		return 0, err
	}
	fixed := int64(s.n)*16 + 64 // coordinates, global best, start tour
	maxTB := (device.UsableMemory(free) - fixed) / s.pl.blockBytes(s.n)
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

// launchBudget is a launch's iterations per search: whole steps of Lam's schedule
// while short, fewer past a wave or in global memory.
func (s *pspmRun) launchBudget() int64 {
	wave := int64(s.pl.perSM * s.r.Dev.Info.Multiprocs)
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
			*dst, err = r.Bufs.Alloc(bytes)
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
		get(&s.scratch, tb*n*s.pl.recordBytes()) // a record per city and search (pspm.cu PspmNode)
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
	if err := device.HtoD(s.xy, device.ShiftedCoords(s.in)); err != nil {
		return err
	}
	if len(s.p.Start) == s.n {
		return device.HtoD(s.start, device.TourToNext(s.p.Start))
	}
	return nil
}
