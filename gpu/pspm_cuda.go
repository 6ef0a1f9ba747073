//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"maps"
	"math"
	"strconv"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

var metricSuffix = map[int]string{metricEuc2D: "euc", metricCeil2D: "ceil", metricAtt: "att"}

func init() {
	for _, m := range []string{"euc", "ceil", "att"} {
		for _, v := range []string{"_u16_w3", "_u16_w1", "_u16_w0", "_u32_w0", "_u16_b3", "_u16_b1", "_u16_b0", "_u32_b0"} {
			registerKernels("pspm_anneal_" + m + v)
		}
		// Optional: without it the neighbour lists stay in global memory.
		registerOptionalKernels("pspm_anneal_" + m + "_u16_w7")
		// Optional: a fatbin built before them still loads; 33 to 64
		// moves per search then run a search per block, with draw uniform
		// (the neighbour draw is refused).
		for _, v := range []string{"_u16_t32x27", "_u16_t32x23", "_u16_t32x21", "_u16_t32x20"} {
			registerOptionalKernels("pspm_anneal_" + m + v)
		}
		// Optional: a fatbin built before them still loads; only the
		// "first" move selection then fails.
		for _, v := range []string{"_u16_wf3", "_u16_wf1", "_u16_wf0", "_u32_wf0"} {
			registerOptionalKernels("pspm_anneal_" + m + v)
		}
		// Optional: a fatbin built before them still loads; only the lanes
		// option below 32 then fails.
		for _, t := range pspmTeamKernels {
			for _, v := range []string{"3", "1", "0"} {
				registerOptionalKernels(fmt.Sprintf("pspm_anneal_%s_u16_t%dx%d%s", m, t[0], t[1], v))
			}
		}
		registerKernels("pspm_init_"+m, "dist_check_"+m)
	}
	registerKernels("pspm_sync")
}

// pspmTeamKernels are the (lanes per search L, moves per lane M) of the
// kernels that put 32/L searches in one warp (PSPM_TEAMS in
// kernels/pspm.cu); a search of one warp (L = 32, M = 1) is the "_w"
// kernel.
var pspmTeamKernels = [][2]int{{16, 1}, {16, 2}, {8, 1}, {8, 2}, {8, 4}}

// pspmPlan is the launch configuration of one PSPM run.
type pspmPlan struct {
	kernel    string
	perBlock  int // searches per CUDA block (32/lanes per warp), 1 in block mode
	perWarp   int // searches per warp (32/lanes; 1 in block mode)
	lanes     int // threads per search in a warp (0 in block mode)
	blockDim  int
	shared    int // dynamic shared bytes
	useShared int // bit 0 lists, bit 1 coordinates, bit 2 neighbour lists
	idxBytes  int
	perSM     int // resident searches per SM
}

// blockBytes is the device memory one search takes: its current tour and
// archive (next arrays), their costs, and its node records when they do
// not live in shared memory.
func (pl pspmPlan) blockBytes(n int) int64 {
	b := int64(n)*8 + 16
	if pl.useShared&1 == 0 {
		b += int64(n) * int64(8+2*pl.idxBytes)
	}
	return b
}

func align16(x int) int { return (x + 15) &^ 15 }

// pspmSlotBytes is the shared memory of each search's slot: the cities an
// accepted move changes and the batch table of thresholds and bases
// (PSPM_SLOT_BYTES in kernels/pspm.cu), ahead of the coordinates and lists.
const pspmSlotBytes = 32 + 16*32

// pspmMaxPerSM caps the searches per SM of the default wave when a warp
// runs several searches (the "lanes" option below 32): the occupancy API
// would allow up to 32/lanes times more searches than warps, and a
// schedule's run time grows with the searches that share an SM.
const pspmMaxPerSM = 64

// pspmWarpMoves is the most moves per iteration of a search that one warp
// runs (32 lanes, two moves each: the "t32x2" kernels); more take a block.
const pspmWarpMoves = 64

// teamLayout returns the kernel infix and the moves per lane of a search
// of tpb moves on lanes threads of a warp, or ok = false when no kernel
// has that layout.
func teamLayout(tpb, lanes int) (infix string, m int, ok bool) {
	if lanes == 32 {
		if tpb > 32 {
			return "t32x2", 2, tpb <= pspmWarpMoves
		}
		return "w", 1, true
	}
	m = (tpb + lanes - 1) / lanes
	if m == 3 {
		m = 4
	}
	for _, t := range pspmTeamKernels {
		if t[0] == lanes && t[1] == m {
			return fmt.Sprintf("t%dx%d", lanes, m), m, true
		}
	}
	return "", 0, false
}

// planPSPM picks the index width, the team layout (lanes threads of a
// warp per search; 0 means 32: several searches per warp measured no
// faster at the default wave, docs/PERF.md, section PSPM), the searches
// per block and what goes in shared memory (Lam et al. Eq. 3,
// generalised by the occupancy API): the layout that keeps the most
// searches resident per SM, preferring shared memory, then fewer searches
// per block, on a tie. tb, when set, must fill whole warps. nbrBytes > 0:
// the run draws from neighbour lists of that size, which go in shared
// memory too when that keeps the residency (variant 7).
func (r *run) planPSPM(n, tpb, metric, lanes, tb int, first bool, nbrBytes int) (pspmPlan, error) {
	pl := pspmPlan{idxBytes: 2}
	idx := "u16"
	if n >= 65535 {
		pl.idxBytes, idx = 4, "u32"
	}
	if lanes == 0 {
		lanes = 32
	}
	// A search of up to 64 moves is one warp when a kernel has the
	// two-moves-per-lane layout (select best, 16-bit indices), else a block.
	warpMode := tpb <= 32
	if tpb > 32 && tpb <= pspmWarpMoves && lanes == 32 && !first {
		_, warpMode = r.d.fns["pspm_anneal_"+metricSuffix[metric]+"_"+idx+"_t32x20"]
		if !warpMode && nbrBytes > 0 {
			return pl, fmt.Errorf("pspm: the kernels lack the layout of %d moves per warp that the neighbour draw needs (rebuild the fatbin)", tpb)
		}
	}
	if lanes != 32 {
		if !warpMode {
			return pl, fmt.Errorf("pspm: lanes %d needs at most 32 threads per search (%d asked)", lanes, tpb)
		}
		if pl.idxBytes == 4 {
			return pl, fmt.Errorf("pspm: lanes %d needs fewer than 65535 cities (%d)", lanes, n)
		}
		if tb > 0 && tb%(32/lanes) != 0 {
			return pl, fmt.Errorf("pspm: lanes %d puts %d searches in a warp; %d blocks is not a multiple", lanes, 32/lanes, tb)
		}
	}
	if first && (tpb > 32 || lanes != 32) {
		return pl, fmt.Errorf("pspm: select first needs one search per warp (at most 32 threads per search, lanes 32; %d threads, lanes %d asked)", tpb, lanes)
	}
	mode := "_b"
	spbs := []int{1}
	perWarp := 1
	if warpMode {
		infix, _, ok := teamLayout(tpb, lanes)
		if !ok {
			return pl, fmt.Errorf("pspm: no kernel runs %d moves per search on %d lanes", tpb, lanes)
		}
		if first {
			infix += "f"
		}
		mode = "_" + infix
		perWarp = 32 / lanes
		spbs = []int{perWarp, 2 * perWarp, 4 * perWarp, 8 * perWarp}
		pl.lanes = lanes
	}
	pl.perWarp = perWarp
	prefix := "pspm_anneal_" + metricSuffix[metric] + "_" + idx + mode
	lists := align16(n * (8 + 2*pl.idxBytes))
	coords := align16(n * 8)
	type option struct {
		name                             string
		spb, blockDim, use, bytes, perSM int
	}
	var opts []option
	for _, spb := range spbs {
		blockDim := 32 * spb / perWarp
		if !warpMode {
			blockDim = (tpb + 31) / 32 * 32
		}
		for _, variant := range []string{"7", "3", "1", "0"} {
			use := int(variant[0] - '0')
			if use&4 != 0 && nbrBytes <= 0 {
				continue
			}
			if pl.idxBytes == 4 && use != 0 {
				continue
			}
			name := prefix + variant
			fn, ok := r.d.fns[name]
			if !ok {
				continue
			}
			bytes := pspmSlotBytes * spb
			if use&2 != 0 {
				bytes += coords
			}
			if use&1 != 0 {
				bytes += spb * lists
			}
			if use&4 != 0 {
				bytes += align16(nbrBytes)
			}
			if bytes > r.d.limits.sharedOptin {
				continue
			}
			if bytes > r.d.limits.sharedStatic {
				if err := setMaxDynamicShared(fn, bytes); err != nil {
					continue
				}
			}
			per, err := fn.MaxActiveBlocksPerMultiProcessor(blockDim, int64(bytes))
			if err != nil || per <= 0 {
				continue
			}
			perSM := per * spb
			if perWarp > 1 {
				perSM = min(perSM, max(pspmMaxPerSM, spb))
			}
			opts = append(opts, option{name, spb, blockDim, use, bytes, perSM})
		}
	}
	// The loop is bound by instruction issue more than latency once an SM
	// holds ~32 searches, and shared-memory operands save address
	// arithmetic: take the layout with the most in shared memory that keeps
	// at least 85% of the best residency (measured on an H100, d493:
	// coordinates in shared memory at 32 searches per SM ran 5% more moves/s
	// than coordinates in global memory at 36).
	// With several searches per warp, lists in global memory ran at a
	// third of the shared-memory rate (H100, d493): shared memory whenever
	// it fits.
	topUse := -1
	for _, use := range []int{7, 3, 1, 0} {
		for _, o := range opts {
			if o.use == use && topUse < 0 {
				topUse = use
			}
		}
	}
	best := 0
	for _, o := range opts {
		if perWarp == 1 || o.use == topUse {
			best = max(best, o.perSM)
		}
	}
	for _, use := range []int{7, 3, 1, 0} {
		for _, o := range opts {
			if o.use == use && 100*o.perSM >= 85*best && (pl.kernel == "" || o.perSM > pl.perSM) {
				pl.kernel = o.name
				pl.perBlock, pl.blockDim, pl.useShared, pl.shared, pl.perSM = o.spb, o.blockDim, o.use, o.bytes, o.perSM
			}
		}
		if pl.kernel != "" {
			break
		}
	}
	if best <= 0 {
		return pl, fmt.Errorf("no launch configuration fits %s with %d threads per search", prefix, tpb)
	}
	if pl.shared > r.d.limits.sharedStatic {
		if err := setMaxDynamicShared(r.d.fns[pl.kernel], pl.shared); err != nil {
			return pl, err
		}
	}
	return pl, nil
}

// pspmReduceThreads is the block size of pspm_sync and pspm_init
// (PSPM_REDUCE_THREADS in kernels/pspm.cu): their tree reductions need a
// power of two, and their shared arrays hold this many values.
const pspmReduceThreads = 1024

// pspmLaunchIters is the most iterations per search one annealing launch
// runs when the searches fill one wave of the GPU (about 0.2 s on an H100
// at d493): a stop or the time limit is seen within about a launch. More
// searches than a wave get proportionally fewer iterations per launch.
const pspmLaunchIters = 1 << 18

// pspmRun is one PSPM run on the device: the schedule, the launch plan,
// the device state of tb searches and the double-buffered pinned copies of
// the global best.
type pspmRun struct {
	r                         *run
	in                        *solver.Instance
	p                         solver.Params
	n, tb, tpb, metric, steps int
	lanes                     int  // the "lanes" option (0: auto)
	first                     bool // the "select" option is "first"
	draw                      pspmDraw
	itersPerStep, launchIters int64
	pl                        pspmPlan

	xy, cur, curCost, arch, archCost    cu.DevicePtr
	gbest, gbestCost, gbestBlock, start cu.DevicePtr
	scratch, nbr                        cu.DevicePtr
	host                                [2]pinned
	evDone                              [2]cu.Event
	evSync                              cu.Event

	iter     int64 // iterations queued per search
	chunks   int   // synchronisations queued
	pending  int   // host buffer whose copy is queued and not yet read, or -1
	bestTour []int // the last global best read back (nil once sent)
	bestLen  int64
}

// solvePSPM runs PSPM with tb blocks (0: from occupancy and memory) of tpb
// threads: Lam et al.'s schedule, a device-side synchronisation every K
// temperature steps, snapshots from the synchronisations' copies.
func solvePSPM(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, tb, tpb int) (solver.Result, error) {
	start := time.Now()
	metric, err := metricCode(in)
	if err != nil {
		return solver.Result{}, err
	}
	// Move deltas travel as delta*32 + lane in an int32 key.
	if span := coordSpan(in); span > 4e6 {
		return solver.Result{}, fmt.Errorf("%w: pspm needs coordinates within a span of 4e6 (%s spans %.3g)", ErrUnsupported, in.Name, span)
	}
	if err := defaultSchedule(&p); err != nil {
		return solver.Result{}, err
	}
	if tpb <= 0 {
		tpb = 32
	}
	r, err := newRun()
	if err != nil {
		return solver.Result{}, err
	}
	defer r.close()
	if tpb > r.d.limits.maxThreads {
		return solver.Result{}, fmt.Errorf("pspm: %d threads per block; the most is %d", tpb, r.d.limits.maxThreads)
	}
	opts := solver.OptionsFor(AlgoPSPM, solver.BackendGPU)
	lanes := 0 // auto
	lanesText, err := opts.Choice(p, "lanes")
	if err != nil {
		return solver.Result{}, fmt.Errorf("pspm: %w", err)
	}
	if lanesText != "auto" {
		lanes, _ = strconv.Atoi(lanesText) // a choice of the table: 8, 16 or 32
	}
	sel, err := opts.Choice(p, "select")
	if err != nil {
		return solver.Result{}, fmt.Errorf("pspm: %w", err)
	}
	first := sel == "first"
	steps := scheduleSteps(p)
	draw, err := pspmDrawOf(in, p, tpb, lanes, first, steps)
	if err != nil {
		return solver.Result{}, err
	}
	s := &pspmRun{r: r, in: in, p: p, n: in.N, tb: tb, tpb: tpb, lanes: lanes, first: first, draw: draw, metric: metric, pending: -1, bestLen: -1,
		steps: steps, itersPerStep: int64(in.N) * int64(p.Sweeps)}
	defer r.do(func() error { return s.free() })
	sink := solver.NewSink(snaps, 0, start)
	sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	if err := r.do(s.setUp); err != nil {
		return solver.Result{}, err
	}
	p.Blocks, p.Threads = s.tb, tpb
	sink.SendPhase(solver.PhaseSearch, 0)
	var deadline time.Time
	if p.TimeLimit > 0 {
		deadline = start.Add(p.TimeLimit)
	}
	stop := func() bool { return ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) }
	lastSent := start
	send := func() {
		if s.bestTour == nil || !sink.Due() {
			return
		}
		lastSent = time.Now()
		step := s.step()
		T := p.T0 * math.Pow(p.Alpha, float64(step))
		sink.Send(solver.Snapshot{Phase: solver.PhaseSearch, PhaseProgress: float64(step) / float64(s.steps),
			Best: s.bestTour, BestLength: s.bestLen, Length: s.bestLen, Temperature: T, Step: int64(step),
			Progress: float64(step) / float64(s.steps), Moves: s.moves()})
		s.bestTour = nil
	}
	stopped := false
	total := int64(s.steps) * s.itersPerStep
	for s.iter < total {
		// At most one synchronisation in flight: the previous one's copy
		// (queued after its kernels) is done before the next is queued.
		if s.pending >= 0 {
			if err := r.do(func() error { return s.evDone[s.pending].Synchronize() }); err != nil {
				return solver.Result{}, fmt.Errorf("pspm on %s failed: %w", r.d.label, err)
			}
		}
		if s.chunks > 0 && stop() {
			stopped = true
			break
		}
		if err := r.do(func() error {
			return s.queueChunk(stop, func() bool { return sink.Due() && time.Since(lastSent) >= time.Second }, send)
		}); err != nil {
			return solver.Result{}, err
		}
		send()
		if p.Target > 0 && s.bestLen >= 0 && s.bestLen <= p.Target {
			break
		}
	}
	if s.pending >= 0 {
		if err := r.do(func() error { return s.readBack(s.pending) }); err != nil {
			return solver.Result{}, err
		}
	}
	if s.bestTour == nil {
		return solver.Result{}, fmt.Errorf("pspm: stopped before the first synchronisation")
	}
	best, bestLen := s.bestTour, s.bestLen
	if s.draw.from > 0 && s.draw.lists != nil && s.p.Extra["nnfrom"] == "" {
		// Report the temperature the default chose, in full, so that the
		// run's parameters rerun as they are; a draw that never reached it
		// (uniform throughout) reports none.
		p.Extra = maps.Clone(p.Extra)
		if p.Extra == nil {
			p.Extra = map[string]string{}
		}
		p.Extra["nnfrom"] = strconv.FormatFloat(s.draw.from, 'g', -1, 64)
	}
	sink.Send(solver.Snapshot{Best: best, BestLength: bestLen, Length: bestLen, Step: int64(s.step()), Progress: float64(s.step()) / float64(s.steps), Moves: s.moves()})
	return solver.Finish(in, e, p, solver.Outcome{Tour: best, Moves: s.moves(), Steps: int64(s.step()), Start: start, Stopped: stopped, Device: r.d.label})
}

// step is the temperature step the queued iterations have reached.
func (s *pspmRun) step() int { return int(s.iter / s.itersPerStep) }

// moves is the number of moves evaluated: every thread of every search one
// per iteration.
func (s *pspmRun) moves() int64 { return s.iter * int64(s.tb) * int64(s.tpb) }

// setUp plans the launch, sizes the searches to the device memory,
// allocates the state and queues pspm_init (the run's thread).
func (s *pspmRun) setUp() error {
	r, n := s.r, s.n
	var err error
	if s.pl, err = r.planPSPM(n, s.tpb, s.metric, s.lanes, s.tb, s.first, 2*len(s.draw.lists)); err != nil {
		return err
	}
	free, _, err := cu.MemInfo()
	if err != nil {
		return err
	}
	fixed := int64(n)*16 + 64 // coordinates, global best, start tour
	maxTB := (usableMemory(free) - fixed) / s.pl.blockBytes(n)
	maxTB = min(maxTB, int64(math.MaxInt32)/int64(s.pl.perBlock))
	maxTB -= maxTB % int64(s.pl.perWarp) // whole warps
	if maxTB < 1 {
		return fmt.Errorf("pspm: one search of %d cities needs %d MiB of GPU memory; %d MiB are free", n, s.pl.blockBytes(n)>>20, free>>20)
	}
	switch {
	case s.tb <= 0:
		s.tb = int(min(int64(s.pl.perSM*r.d.info.Multiprocs), maxTB)) // a full wave
	case int64(s.tb) > maxTB:
		return fmt.Errorf("pspm: %d blocks of %d cities need %d MiB of GPU memory; %d MiB are free, enough for %d blocks",
			s.tb, n, int64(s.tb)*s.pl.blockBytes(n)>>20, free>>20, maxTB)
	}
	// Iterations per launch: whole temperature steps while a step is short,
	// else parts of one; fewer when more searches than a wave share it.
	wave := int64(s.pl.perSM * r.d.info.Multiprocs)
	budget := max(1, min(pspmLaunchIters, pspmLaunchIters*wave/int64(s.tb)))
	if s.pl.perSM > 32 {
		budget = max(1, budget*32/int64(s.pl.perSM)) // more searches share an SM: each runs slower
	}
	if s.pl.useShared&1 == 0 {
		// Lists in global memory: an iteration costs about ten times
		// more (n = 5000 on an H100: a 2^18-iteration launch took over 2
		// s), so a stop would wait seconds for the launch in flight.
		budget = max(1, budget/8)
	}
	if s.itersPerStep <= budget {
		s.launchIters = s.itersPerStep * int64(max(1, min(s.p.K, int(budget/s.itersPerStep))))
	} else {
		s.launchIters = budget
	}
	alloc := func(dst *cu.DevicePtr, bytes int64) {
		if err == nil {
			*dst, err = r.bufs.alloc(bytes)
		}
	}
	tb := int64(s.tb)
	alloc(&s.xy, int64(8*n))
	alloc(&s.cur, tb*int64(n)*4)
	alloc(&s.curCost, tb*8)
	alloc(&s.arch, tb*int64(n)*4)
	alloc(&s.archCost, tb*8)
	alloc(&s.gbest, int64(n)*4)
	alloc(&s.gbestCost, 8)
	alloc(&s.gbestBlock, 8)
	if s.pl.useShared&1 == 0 {
		// A node per city and search (kernels/pspm.cu PspmNode: e, rem, next, prev).
		alloc(&s.scratch, tb*int64(n)*int64(8+2*s.pl.idxBytes))
	}
	if len(s.p.Start) == n {
		alloc(&s.start, int64(4*n))
	}
	if len(s.draw.lists) > 0 {
		alloc(&s.nbr, int64(2*len(s.draw.lists)))
	}
	if err != nil {
		return err
	}
	if s.nbr != 0 {
		if err := cu.MemcpyHtoD(s.nbr, unsafe.Pointer(&s.draw.lists[0]), int64(2*len(s.draw.lists))); err != nil {
			return err
		}
	}
	if err := htod(s.xy, shiftedCoords(s.in)); err != nil {
		return err
	}
	if s.start != 0 {
		if err := htod(s.start, tourToNext(s.p.Start)); err != nil {
			return err
		}
	}
	for i := range s.host {
		if s.host[i], err = allocPinned(4*n + 8); err != nil {
			return err
		}
		if s.evDone[i], err = cu.MakeEvent(cu.DisableTiming); err != nil {
			return err
		}
	}
	if s.evSync, err = cu.MakeEvent(cu.DisableTiming); err != nil {
		return err
	}
	return r.launch("pspm_init_"+metricSuffix[s.metric], s.tb, 1, pspmReduceThreads/4, 0, r.stream,
		s.xy, n, s.start, s.cur, s.curCost, s.arch, s.archCost, s.p.Seed)
}

// queueChunk queues the launches up to the next synchronisation (every K
// temperature steps), the synchronisation, and the asynchronous copy of
// the global best into pinned memory on the copy stream; it reads the
// previous synchronisation's copy while the new chunk runs (the run's
// thread). Between launches it waits for the stream, so stop is seen
// within about one launch, and it takes an extra global best for a
// snapshot when one is due (gbest is read by the searches only at a
// chunk's first launch, right after a synchronisation rewrote it).
func (s *pspmRun) queueChunk(stop, due func() bool, send func()) error {
	r := s.r
	k := int64(s.p.K)
	total := int64(s.steps) * s.itersPerStep
	syncAt := min(total, (s.iter/s.itersPerStep/k+1)*k*s.itersPerStep)
	fromBest := int64(0)
	if s.chunks > 0 {
		fromBest = 1
	}
	grid := (s.tb + s.pl.perBlock - 1) / s.pl.perBlock
	for s.iter < syncAt {
		end := min(syncAt, s.iter+s.launchIters)
		if err := r.launch(s.pl.kernel, grid, 1, s.pl.blockDim, s.pl.shared, r.stream,
			s.xy, s.n, s.cur, s.curCost, s.arch, s.archCost, s.gbest, s.gbestCost, fromBest, s.iter, end, s.itersPerStep,
			s.p.T0, s.p.Alpha, s.tpb, s.p.Seed, s.scratch, s.tb, s.nbr, s.draw.k, s.draw.fromStep, int64(s.draw.mix)); err != nil {
			return err
		}
		fromBest = 0
		s.iter = end
		if s.iter < syncAt {
			if err := r.sync("pspm"); err != nil {
				return err
			}
			if stop() {
				break
			}
			if due() {
				if err := s.peek(); err != nil {
					return err
				}
				send()
			}
		}
	}
	// The copy of the previous synchronisation must finish before gbest changes.
	if s.pending >= 0 {
		if err := r.stream.Wait(s.evDone[s.pending], 0); err != nil {
			return err
		}
	}
	slot := s.chunks % 2
	if err := s.queueSync(slot); err != nil {
		return err
	}
	// Read the previous synchronisation's copy while this chunk runs.
	if s.pending >= 0 {
		if err := s.readBack(s.pending); err != nil {
			return err
		}
	}
	s.pending = slot
	s.chunks++
	return nil
}

// queueSync queues pspm_sync and the copy of its result into host buffer
// slot, recording evDone[slot] when the copy is done.
func (s *pspmRun) queueSync(slot int) error {
	r := s.r
	if err := r.launch("pspm_sync", 1, 1, pspmReduceThreads, 0, r.stream, s.archCost, s.tb, s.arch, s.n, s.gbest, s.gbestCost, s.gbestBlock); err != nil {
		return err
	}
	if err := s.evSync.Record(r.stream); err != nil {
		return err
	}
	if err := r.copy.Wait(s.evSync, 0); err != nil {
		return err
	}
	if err := cu.MemcpyDtoHAsync(s.host[slot].p, s.gbest, int64(4*s.n), r.copy); err != nil {
		return err
	}
	if err := cu.MemcpyDtoHAsync(unsafe.Add(s.host[slot].p, 4*s.n), s.gbestCost, 8, r.copy); err != nil {
		return err
	}
	return s.evDone[slot].Record(r.copy)
}

// peek reads the best of the searches' archives between two launches of
// a long chunk (the stream is idle), so a snapshot comes at least every
// second however long the chunks are. It supersedes the pending copy.
func (s *pspmRun) peek() error {
	slot := 0
	if s.pending >= 0 {
		// gbest may change only once the pending copy is done
		if err := s.evDone[s.pending].Synchronize(); err != nil {
			return err
		}
		slot = 1 - s.pending
	}
	if err := s.queueSync(slot); err != nil {
		return err
	}
	s.pending = -1
	return s.readBack(slot)
}

// readBack waits for the copy into host buffer slot and takes its tour.
func (s *pspmRun) readBack(slot int) error {
	if err := s.evDone[slot].Synchronize(); err != nil {
		return fmt.Errorf("pspm on %s failed: %w", s.r.d.label, err)
	}
	next := s.host[slot].int32s(s.n)
	t, err := nextToTour(append([]int32(nil), next...))
	if err != nil {
		return fmt.Errorf("pspm: the device returned a broken tour: %v", err)
	}
	s.bestTour = t
	s.bestLen = *(*int64)(unsafe.Add(s.host[slot].p, 4*s.n))
	return nil
}

// free releases the pinned buffers and events (the device buffers go with
// the run).
func (s *pspmRun) free() error {
	var first error
	for i := range s.host {
		if err := s.host[i].free(); err != nil && first == nil {
			first = err
		}
		if s.evDone[i] != (cu.Event{}) {
			cu.DestroyEvent(&s.evDone[i])
		}
	}
	if s.evSync != (cu.Event{}) {
		cu.DestroyEvent(&s.evSync)
	}
	return first
}

// pspmDraw is how a run draws its moves (the "draw" option): uniform over
// the cities, or, from temperature step fromStep on, beside one of c's k
// nearest cities on the lanes not set in mix (lists: n*k of them, padded
// to an even count, in the kernel's 16-bit form; nil when the run never
// draws from them).
type pspmDraw struct {
	lists    []uint16
	k        int
	fromStep int64
	mix      uint32  // lanes that keep the uniform draw in the neighbour phase
	from     float64 // the temperature the neighbour phase starts below (0: from the start)
}

// pspmNNFromScale times the mean distance from a city to its k-th nearest
// is draw auto's default nnfrom. Measured on the H100 over Lam et al.'s
// eight instances with the largest errors (tsp225 … d493), seeds 1 and 2,
// whole schedule: mean error 1.48 % with the uniform draw, 0.88 % with the
// mix from 1x, 0.75 % from 3x, 0.96 % from 10x (docs/PERF.md).
const pspmNNFromScale = 3

// pspmMixLanes are the lanes that keep the uniform draw in the neighbour
// phase of draw auto and mixed: every other lane, so half of a team's
// moves are Lam et al.'s and half go beside a near city.
const pspmMixLanes = 0xaaaaaaaa

// pspmDrawOf reads the draw, nnk and nnfrom options. The neighbour draw
// needs one search per warp (lanes 32, at most 64 moves), the best-move
// selection and fewer than 65,535 cities (16-bit lists); "nn" or "mixed"
// asked outside that is refused, "auto" there draws uniformly. auto is
// uniform down to nnfrom, then mixed; nn and mixed start at nnfrom when it
// is given, else at once. nnfrom's default is pspmNNFromScale times the
// mean distance from a city to its k-th nearest: around there a move that
// puts c beside a near city passes the Metropolis test often, while a
// uniform move, whose delta is of the order of the tour's edges, seldom
// does.
func pspmDrawOf(in *solver.Instance, p solver.Params, tpb, lanes int, first bool, steps int) (pspmDraw, error) {
	d := pspmDraw{fromStep: int64(steps)}
	opts := solver.OptionsFor(AlgoPSPM, solver.BackendGPU)
	mode, err := opts.Choice(p, "draw")
	if err != nil {
		return d, fmt.Errorf("pspm: %w", err)
	}
	switch mode {
	case "auto", "mixed":
		d.mix = pspmMixLanes
	case "uniform":
		return d, nil
	}
	k, err := opts.Int(p, "nnk")
	if err != nil {
		return d, fmt.Errorf("pspm: %w", err)
	}
	from := -1.0 // unset: the default below
	if p.Extra["nnfrom"] != "" {
		if from, err = opts.Float(p, "nnfrom"); err != nil {
			return d, fmt.Errorf("pspm: %w", err)
		}
	}
	if why := pspmNNUnfit(in.N, k, tpb, lanes, first); why != "" {
		if mode == "nn" || mode == "mixed" {
			return d, fmt.Errorf("pspm: draw %s %s", mode, why)
		}
		return d, nil
	}
	nb := neighbor.Nearest(in, k)
	if nb.K != k {
		return d, nil
	}
	d.k = k
	d.lists = make([]uint16, (in.N*k+1)&^1)
	for i, v := range nb.List {
		d.lists[i] = uint16(v)
	}
	if from < 0 {
		if mode == "nn" || mode == "mixed" {
			d.fromStep = 0
			return d, nil
		}
		from = 0
		for i := 0; i < in.N; i++ {
			from += float64(in.Dist(i, int(nb.List[i*k+k-1])))
		}
		from *= pspmNNFromScale / float64(in.N)
	}
	d.from = from
	d.fromStep = pspmStepBelow(p, from, steps)
	if d.fromStep >= int64(steps) {
		d.lists, d.k, d.mix = nil, 0, 0
	}
	return d, nil
}

// pspmDefaultNbrBytes is the size of the neighbour lists a run with the
// default draw (auto, 8 nearest) takes, or 0 when it draws uniformly.
func pspmDefaultNbrBytes(n, tpb int) int {
	if pspmNNUnfit(n, 8, tpb, 0, false) != "" {
		return 0
	}
	return 2 * ((n*8 + 1) &^ 1)
}

// pspmNNUnfit says why the neighbour draw cannot run, or "".
func pspmNNUnfit(n, k, tpb, lanes int, first bool) string {
	switch {
	case tpb > pspmWarpMoves || (lanes != 0 && lanes != 32):
		return fmt.Sprintf("needs one search per warp (at most %d threads, lanes 32)", pspmWarpMoves)
	case first:
		return "needs select best"
	case n >= 65535:
		return fmt.Sprintf("needs fewer than 65,535 cities (%d)", n)
	case k >= n:
		return fmt.Sprintf("needs more than nnk = %d cities (%d)", k, n)
	}
	return ""
}

// pspmStepBelow is the first temperature step of p's schedule whose
// temperature T0*alpha^step is at most t (steps when none is).
func pspmStepBelow(p solver.Params, t float64, steps int) int64 {
	for st := 0; st < steps; st++ {
		if p.T0*math.Pow(p.Alpha, float64(st)) <= t {
			return int64(st)
		}
	}
	return int64(steps)
}
