//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math"
	"time"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
)

var metricSuffix = map[int]string{metricEuc2D: "euc", metricCeil2D: "ceil", metricAtt: "att"}

func init() {
	for _, m := range []string{"euc", "ceil", "att"} {
		for _, v := range []string{"_u16_w3", "_u16_w1", "_u16_w0", "_u32_w0", "_u16_b3", "_u16_b1", "_u16_b0", "_u32_b0"} {
			registerKernels("pspm_anneal_" + m + v)
		}
		registerKernels("pspm_init_"+m, "dist_check_"+m)
	}
	registerKernels("pspm_sync")
}

// pspmPlan is the launch configuration of one PSPM run.
type pspmPlan struct {
	kernel    string
	perBlock  int // searches per CUDA block (a warp each), 1 in block mode
	blockDim  int
	shared    int // dynamic shared bytes
	useShared int // bit 0 lists, bit 1 coordinates
	idxBytes  int
	perSM     int // resident searches per SM
}

func align16(x int) int { return (x + 15) &^ 15 }

// planPSPM picks the index width, the searches per block and what goes in
// shared memory (Lam et al. Eq. 3, generalised by the occupancy API): the
// layout that keeps the most searches resident per SM, preferring shared
// memory, then fewer searches per block, on a tie.
func (r *run) planPSPM(n, tpb, metric int) (pspmPlan, error) {
	pl := pspmPlan{idxBytes: 2}
	idx := "u16"
	if n >= 65535 {
		pl.idxBytes, idx = 4, "u32"
	}
	warpMode := tpb <= 32
	mode := "_b"
	spbs := []int{1}
	if warpMode {
		mode = "_w"
		spbs = []int{1, 2, 4, 8}
	}
	prefix := "pspm_anneal_" + metricSuffix[metric] + "_" + idx + mode
	lists := align16(n * (8 + 2*pl.idxBytes))
	coords := align16(n * 8)
	type option struct {
		name                             string
		spb, blockDim, use, bytes, perSM int
	}
	var opts []option
	for _, spb := range spbs {
		blockDim := 32 * spb
		if !warpMode {
			blockDim = (tpb + 31) / 32 * 32
		}
		for _, variant := range []string{"3", "1", "0"} {
			use := int(variant[0] - '0')
			if pl.idxBytes == 4 && use != 0 {
				continue
			}
			name := prefix + variant
			fn := r.d.fns[name]
			bytes := 0
			if use&2 != 0 {
				bytes += coords
			}
			if use&1 != 0 {
				bytes += spb * lists
			}
			if bytes > 227*1024 {
				continue
			}
			if bytes > 48*1024 {
				if err := setMaxDynamicShared(fn, bytes); err != nil {
					continue
				}
			}
			per, err := fn.MaxActiveBlocksPerMultiProcessor(blockDim, int64(bytes))
			if err != nil || per <= 0 {
				continue
			}
			opts = append(opts, option{name, spb, blockDim, use, bytes, per * spb})
		}
	}
	// The loop is bound by instruction issue more than latency once an SM
	// holds ~32 searches, and shared-memory operands save address
	// arithmetic: take the layout with the most in shared memory that keeps
	// at least 85% of the best residency (measured on an H100, d493:
	// coordinates in shared memory at 32 searches per SM ran 5% more moves/s
	// than coordinates in global memory at 36).
	best := 0
	for _, o := range opts {
		best = max(best, o.perSM)
	}
	for _, use := range []int{3, 1, 0} {
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
		return pl, fmt.Errorf("no launch configuration fits %s with %d threads per search", pl.kernel, tpb)
	}
	if pl.shared > 48*1024 {
		if err := setMaxDynamicShared(r.d.fns[pl.kernel], pl.shared); err != nil {
			return pl, err
		}
	}
	return pl, nil
}

// solvePSPM runs PSPM with tb blocks (0: from occupancy) of tpb threads.
func solvePSPM(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, tb, tpb int) (solver.Result, error) {
	start := time.Now()
	r, err := newRun()
	if err != nil {
		return solver.Result{}, err
	}
	defer r.close()
	metric, err := metricCode(in)
	if err != nil {
		return solver.Result{}, err
	}
	n := in.N
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
	if tpb > 1024 {
		return solver.Result{}, fmt.Errorf("pspm: %d threads per block; the most is 1024", tpb)
	}
	steps := scheduleSteps(p)
	itersPerStep := int64(n) * int64(p.Sweeps)
	sink := solver.NewSink(snaps, 0, start)
	var deadline time.Time
	if p.TimeLimit > 0 {
		deadline = start.Add(p.TimeLimit)
	}

	var (
		pl                                   pspmPlan
		bufs                                 buffers
		xyD, cur, curCost, arch, archCost    cu.DevicePtr
		gbest, gbestCost, gbestBlock, startD cu.DevicePtr
		scratch                              cu.DevicePtr
		host                                 [2]pinned
		evDone                               [2]cu.Event
		evSync                               cu.Event
	)
	defer r.do(func() error {
		bufs.freeAll()
		for i := range host {
			host[i].free()
		}
		for i := range evDone {
			if evDone[i] != (cu.Event{}) {
				cu.DestroyEvent(&evDone[i])
			}
		}
		if evSync != (cu.Event{}) {
			cu.DestroyEvent(&evSync)
		}
		return nil
	})
	err = r.do(func() error {
		var err error
		if pl, err = r.planPSPM(n, tpb, metric); err != nil {
			return err
		}
		if tb <= 0 {
			tb = pl.perSM * r.d.info.Multiprocs // Blocks default: a full wave
		}
		// Keep the per-block state within a quarter of the device memory.
		if maxTB := int(r.d.info.GlobalMemory / 4 / (int64(n) * 24)); tb > maxTB {
			tb = max(1, maxTB)
		}
		alloc := func(dst *cu.DevicePtr, bytes int64) {
			if err == nil {
				*dst, err = bufs.alloc(bytes)
			}
		}
		alloc(&xyD, int64(8*n))
		alloc(&cur, int64(tb)*int64(n)*4)
		alloc(&curCost, int64(tb)*8)
		alloc(&arch, int64(tb)*int64(n)*4)
		alloc(&archCost, int64(tb)*8)
		alloc(&gbest, int64(n)*4)
		alloc(&gbestCost, 8)
		alloc(&gbestBlock, 8)
		if pl.useShared&1 == 0 {
			// A node per city and search (kernels/pspm.cu PspmNode: e, rem, next, prev).
			alloc(&scratch, int64(tb)*int64(n)*int64(8+2*pl.idxBytes))
		}
		if err != nil {
			return err
		}
		if err := htod(xyD, shiftedCoords(in)); err != nil {
			return err
		}
		if len(p.Start) == n {
			if startD, err = bufs.alloc(int64(4 * n)); err != nil {
				return err
			}
			if err := htod(startD, tourToNext(p.Start)); err != nil {
				return err
			}
		}
		for i := range host {
			if host[i], err = allocPinned(4*n + 8); err != nil {
				return err
			}
			if evDone[i], err = cu.MakeEvent(cu.DisableTiming); err != nil {
				return err
			}
		}
		if evSync, err = cu.MakeEvent(cu.DisableTiming); err != nil {
			return err
		}
		return r.launch("pspm_init_"+metricSuffix[metric], tb, 1, 256, 0, r.stream, xyD, n, startD, cur, curCost, arch, archCost, p.Seed)
	})
	if err != nil {
		return solver.Result{}, err
	}
	p.Blocks, p.Threads = tb, tpb

	// Launches: at most ~2^18 iterations each (a responsive cancel), a
	// device-side sync every K temperature steps, then an asynchronous copy
	// of the global best into pinned memory on the copy stream.
	stepsPerLaunch := max(1, min(p.K, int((1<<18)/itersPerStep)))
	var iter int64
	step := 0
	chunk := 0
	pending := -1 // buffer whose copy is queued and not yet read
	var bestTour []int
	bestLen := int64(-1)
	readBack := func(slot int) error {
		if err := evDone[slot].Synchronize(); err != nil {
			return fmt.Errorf("pspm on %s failed: %w", r.d.label, err)
		}
		next := host[slot].int32s(n)
		t, err := nextToTour(append([]int32(nil), next...))
		if err != nil {
			return fmt.Errorf("pspm: the device returned a broken tour: %v", err)
		}
		bestTour = t
		bestLen = *(*int64)(unsafe.Add(host[slot].p, 4*n))
		return nil
	}
	stopped := false
	for step < steps {
		// At most one chunk in flight: the previous chunk's copy (queued
		// after its kernels) must be done before the next is queued.
		if pending >= 0 {
			if err := r.do(func() error { return evDone[pending].Synchronize() }); err != nil {
				return solver.Result{}, fmt.Errorf("pspm on %s failed: %w", r.d.label, err)
			}
		}
		if chunk > 0 && (ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline))) {
			stopped = true
			break
		}
		syncAt := min(steps, (step/p.K+1)*p.K)
		slot := chunk % 2
		err := r.do(func() error {
			fromBest := int64(0)
			if step > 0 && step%p.K == 0 {
				fromBest = 1
			}
			for step < syncAt {
				s := min(stepsPerLaunch, syncAt-step)
				grid := (tb + pl.perBlock - 1) / pl.perBlock
				if err := r.launch(pl.kernel, grid, 1, pl.blockDim, pl.shared, r.stream,
					xyD, n, cur, curCost, arch, archCost, gbest, gbestCost, fromBest, iter, s, itersPerStep, step,
					p.T0, p.Alpha, tpb, p.Seed, pl.useShared, scratch, tb); err != nil {
					return err
				}
				fromBest = 0
				iter += int64(s) * itersPerStep
				step += s
				// More launches in this chunk: wait for this one before
				// queueing the next, so a stop or the time limit is seen
				// within about one launch (≤ 2^18 iterations) instead of
				// after everything the host managed to queue.
				if step < syncAt {
					if err := r.stream.Synchronize(); err != nil {
						return fmt.Errorf("pspm on %s failed: %w", r.d.label, err)
					}
					if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
						break
					}
				}
			}
			// The copy of the previous sync must finish before gbest changes.
			if pending >= 0 {
				if err := r.stream.Wait(evDone[pending], 0); err != nil {
					return err
				}
			}
			if err := r.launch("pspm_sync", 1, 1, 1024, 0, r.stream, archCost, tb, arch, n, gbest, gbestCost, gbestBlock); err != nil {
				return err
			}
			if err := evSync.Record(r.stream); err != nil {
				return err
			}
			if err := r.copy.Wait(evSync, 0); err != nil {
				return err
			}
			if err := cu.MemcpyDtoHAsync(host[slot].p, gbest, int64(4*n), r.copy); err != nil {
				return err
			}
			if err := cu.MemcpyDtoHAsync(unsafe.Add(host[slot].p, 4*n), gbestCost, 8, r.copy); err != nil {
				return err
			}
			if err := evDone[slot].Record(r.copy); err != nil {
				return err
			}
			// Read the previous sync's copy while this chunk runs.
			if pending >= 0 && sink.Due() {
				if err := readBack(pending); err != nil {
					return err
				}
			}
			pending = slot
			return nil
		})
		if err != nil {
			return solver.Result{}, err
		}
		chunk++
		if bestTour != nil && sink.Due() {
			T := p.T0 * math.Pow(p.Alpha, float64(step))
			sink.Send(solver.Snapshot{Best: bestTour, BestLength: bestLen, Length: bestLen, Temperature: T, Step: int64(step),
				Progress: float64(step) / float64(steps), Moves: iter * int64(tb) * int64(tpb)})
			bestTour = nil
		}
		if p.Target > 0 && bestLen >= 0 && bestLen <= p.Target {
			break
		}
	}
	if pending >= 0 {
		if err := r.do(func() error { return readBack(pending) }); err != nil {
			return solver.Result{}, err
		}
	}
	if bestTour == nil {
		return solver.Result{}, fmt.Errorf("pspm: stopped before the first synchronisation")
	}
	moves := iter * int64(tb) * int64(tpb)
	sink.Send(solver.Snapshot{Best: bestTour, BestLength: bestLen, Length: bestLen, Step: int64(step), Progress: float64(step) / float64(steps), Moves: moves})
	return solver.Finish(in, e, p, bestTour, moves, int64(step), start, stopped, r.d.label)
}
