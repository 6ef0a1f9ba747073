//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

func init() {
	registerKernels("oropt_windows", "oropt_commit")
}

// orK is OR_K of kernels/oropt.cu: neighbours per city in a window.
const orK = 8

// orBlockShared is the dynamic shared memory a block of windows may take:
// 1 to 4 warps (windows) per block, as many as fit.
const orBlockShared = 200 << 10

// orWarps returns the windows (warps) per block for windows of L cities.
func orWarps(L int) int { return max(1, min(4, orBlockShared/orWindowBytes(L))) }

// orStartSFCMinN is the size from which or-ils starts from the
// space-filling curve instead of the greedy tour (greedy needs neighbour
// lists over the whole instance first, about a second per million cities
// on 16 cores, and its long closing edges cross windows).
const orStartSFCMinN = 200000

// orWindowBytes mirrors or_win_bytes in oropt.cu.
func orWindowBytes(L int) int {
	b := 16*L + 2*L*4 + 2*L*orK + L
	return (b + 15) &^ 15
}

// orRun is the device state of one or-ils run.
type orRun struct {
	run              *run
	n, L, W, R, wpb  int
	metric           int
	bufs             buffers
	xy, tour         cu.DevicePtr
	ord, gain        cu.DevicePtr
	evals, total     cu.DevicePtr
	shared, cshared  int
	hostEval, hostTo []uint64
	// done marks the end of a round; waiting on it blocks the run's
	// thread instead of spinning, so the host core stays free for the
	// CPU search that runs beside the windows
	done cu.Event
}

// orGeometry returns the windows and replicas of a run of n cities with
// windows of at most L cities on d.
func orGeometry(d *device, n, L, replicas int) (W, R int, err error) {
	fn, ok := d.fn("oropt_windows")
	if !ok {
		return 0, 0, fmt.Errorf("gpu: kernel oropt_windows is not in the fatbin (rebuild it: scripts/build-gpu.sh fatbin)")
	}
	W = (n + L - 1) / L
	if replicas > 0 {
		return W, replicas, nil
	}
	wpb := orWarps(L)
	shared := wpb * orWindowBytes(L)
	blocks, err := fn.MaxActiveBlocksPerMultiProcessor(32*wpb, int64(shared))
	if err != nil {
		return 0, 0, err
	}
	slots := max(1, blocks) * wpb * d.info.Multiprocs
	return W, min(16, max(1, slots/W)), nil
}

// newOrRun allocates the buffers and uploads the coordinates and tour t
// (the run's thread).
func newOrRun(ru *run, in *solver.Instance, t []int32, L, replicas int) (*orRun, error) {
	metric, err := metricCode(in)
	if err != nil {
		return nil, err
	}
	if !orSpanOK(in) {
		return nil, fmt.Errorf("%w: or-ils needs coordinates within a span of %.0e (%s spans %.3g)", ErrUnsupported, orMaxSpan, in.Name, coordSpan(in))
	}
	d := ru.d
	r := &orRun{run: ru, n: in.N, L: L, metric: metric, wpb: orWarps(L)}
	r.shared = r.wpb * orWindowBytes(L)
	r.cshared = r.wpb * L * 4
	for _, k := range []struct {
		name  string
		bytes int
	}{{"oropt_windows", r.shared}, {"oropt_commit", r.cshared}} {
		fn, ok := d.fn(k.name)
		if !ok {
			return nil, fmt.Errorf("gpu: kernel %s is not in the fatbin (rebuild it: scripts/build-gpu.sh fatbin)", k.name)
		}
		if k.bytes > 48<<10 {
			if err := setMaxDynamicShared(fn, k.bytes); err != nil {
				return nil, err
			}
		}
	}
	if r.W, r.R, err = orGeometry(d, in.N, L, replicas); err != nil {
		return nil, err
	}
	n := int64(in.N)
	alloc := func(p *cu.DevicePtr, bytes int64) {
		if err == nil {
			*p, err = r.bufs.alloc(bytes)
		}
	}
	alloc(&r.xy, 16*n)
	alloc(&r.tour, 4*n)
	alloc(&r.ord, 2*int64(r.W)*int64(r.R)*int64(L))
	alloc(&r.gain, 8*int64(r.W)*int64(r.R))
	alloc(&r.evals, 8)
	alloc(&r.total, 8)
	if err != nil {
		r.bufs.freeAll()
		return nil, err
	}
	xy := make([]float64, 2*in.N)
	for i := 0; i < in.N; i++ {
		xy[2*i], xy[2*i+1] = in.X[i], in.Y[i]
	}
	r.hostEval, r.hostTo = make([]uint64, 1), make([]uint64, 1)
	if r.done, err = cu.MakeEvent(cu.BlockingSyncEvent | cu.DisableTiming); err != nil {
		r.bufs.freeAll()
		return nil, fmt.Errorf("creating an event: %w", err)
	}
	if err = htod(r.xy, xy); err == nil {
		err = htod(r.tour, t)
	}
	if err == nil {
		err = htod(r.evals, r.hostEval)
	}
	if err == nil {
		err = htod(r.total, r.hostTo)
	}
	if err != nil {
		r.free()
		return nil, err
	}
	return r, nil
}

func (r *orRun) free() {
	if r.done != (cu.Event{}) {
		cu.DestroyEvent(&r.done)
	}
	r.bufs.freeAll()
}

// round queues one round: every window searched from offset off with
// kicks kicks, then the best replica of each committed. It waits for both
// and returns the total gain so far and the moves evaluated so far.
func (r *orRun) round(off int64, kicks int, seed uint64, maxSeg int) (gain, evals uint64, err error) {
	d := r.run
	span, w := int64(r.n), r.W
	g := (w*r.R + r.wpb - 1) / r.wpb
	// the kernel's sequential 3-opt moves (three = 1) measured no
	// stronger than 2-opt and Or-opt alone (docs/PERF.md, "Lever 2")
	three := 0
	if err := d.launch("oropt_windows", g, 1, 32*r.wpb, r.shared, d.stream,
		r.xy, r.tour, r.n, off, span, w, r.L, r.R, kicks, seed, maxSeg, r.metric, three, r.ord, r.gain, r.evals); err != nil {
		return 0, 0, err
	}
	if err := d.launch("oropt_commit", (w+r.wpb-1)/r.wpb, 1, 32*r.wpb, r.cshared, d.stream,
		r.tour, r.n, off, span, w, r.L, r.R, r.ord, r.gain, r.total); err != nil {
		return 0, 0, err
	}
	if err := r.done.Record(d.stream); err != nil {
		return 0, 0, fmt.Errorf("or-ils round on %s: %w", d.d.label, err)
	}
	if err := r.done.Synchronize(); err != nil {
		return 0, 0, fmt.Errorf("or-ils round on %s failed: %w", d.d.label, err)
	}
	if err := dtoh(r.hostTo, r.total); err != nil {
		return 0, 0, err
	}
	if err := dtoh(r.hostEval, r.evals); err != nil {
		return 0, 0, err
	}
	return r.hostTo[0], r.hostEval[0], nil
}

// orOptions are or-ils's settings, from Params.Extra.
type orOptions struct {
	window, kicks, replicas, maxSeg int
	start                           string
	global                          time.Duration // between global 2-opt passes on the CPU (0: none)
}

func parseOrOptions(p solver.Params, n int) (orOptions, error) {
	// Windows of 1,024 cities: ahead of 512, 256 and 128 on pla85900
	// (docs/PERF.md, "GPU or-ils and the ttq suite").
	o := orOptions{window: 1024, maxSeg: 30, global: time.Second}
	if n >= orStartSFCMinN {
		o.global = 2 * time.Second
	}
	// The types and ranges are solver's option table's: the same parser
	// and messages as every other engine.
	opts := solver.OptionsFor(AlgoOrILS, solver.BackendGPU)
	set := func(key string) bool { return p.Extra[key] != "" }
	geti := func(key string, v *int) error {
		if !set(key) {
			return nil
		}
		x, err := opts.Int(p, key)
		if err == nil {
			*v = x
		}
		return err
	}
	for _, f := range []struct {
		key string
		v   *int
	}{{OptWindow, &o.window}, {OptWindowKicks, &o.kicks}, {OptReplicas, &o.replicas}, {"segment", &o.maxSeg}} {
		if err := geti(f.key, f.v); err != nil {
			return o, err
		}
	}
	if !set(OptWindowKicks) {
		o.kicks = o.window
	}
	if set(OptWindowSegment) {
		// GPU auto's name for the windows' kick segment ("segment" is
		// the CPU auto engine's there)
		x, err := solver.OptionsFor(AlgoAuto, solver.BackendGPU).Int(p, OptWindowSegment)
		if err != nil {
			return o, err
		}
		o.maxSeg = x
	}
	if set(OptGlobal) {
		sec, err := opts.Float(p, OptGlobal)
		if err != nil {
			return o, err
		}
		o.global = time.Duration(sec * float64(time.Second))
	}
	o.start = "greedy"
	if n >= orStartSFCMinN {
		o.start = "sfc"
	}
	if set(OptStart) {
		var err error
		if o.start, err = opts.Choice(p, OptStart); err != nil {
			return o, err
		}
	}
	return o, nil
}

// solveOrILS is the or-ils engine. Each round cuts the tour into windows
// of consecutive positions at a random offset and runs the windowed
// iterated local search of kernels/oropt.cu in all of them at once; the
// tour on the device only ever gets shorter (a window commits its best
// replica when that gained), so the current tour is the best one.
func solveOrILS(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	if p.TimeLimit <= 0 {
		p.TimeLimit = solver.DefaultTimeLimit
	}
	ph, err := orILS(ctx, in, p, snaps, start)
	if err != nil {
		return solver.Result{}, err
	}
	return solver.Finish(in, e, p, solver.Outcome{Tour: ph.tour, Moves: ph.moves, Steps: ph.steps, Start: start, Stopped: ph.stopped, Device: ph.device})
}

// orPhase is what an or-ils run hands back: its best tour (exact length)
// and counters, and whether it stopped at the limit.
type orPhase struct {
	tour         []int
	length       int64
	moves, steps int64
	stopped      bool // the time limit or ctx ended it
	device       string
}

// orILS runs the windowed search until the deadline of p (from start),
// ctx or the target.
func orILS(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, start time.Time) (orPhase, error) {
	var ph orPhase
	ru, err := newRun()
	if err != nil {
		return ph, err
	}
	defer ru.close()
	deadline := start.Add(p.TimeLimit)
	o, err := parseOrOptions(p, in.N)
	if err != nil {
		return ph, err
	}
	interval := solver.DefaultSnapshotInterval
	if in.N > 200000 {
		interval = 250 * time.Millisecond // a snapshot copies the whole tour
	}
	sink := solver.NewSink(snaps, interval, start)
	var cur []int
	var nb *neighbor.Lists
	// the set-up phases hold the time limit too: a greedy start that
	// cannot finish in time falls back to the space-filling curve
	cctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	switch {
	case len(p.Start) == in.N:
		if err := solver.ValidateTour(p.Start, in.N); err != nil {
			return ph, fmt.Errorf("start tour: %v", err)
		}
		cur = append([]int(nil), p.Start...)
	case o.start == "greedy":
		sink.SendPhase(solver.PhaseNeighbours, solver.UnknownProgress)
		if nb, err = neighbor.NearestContext(cctx, in, 10); err == nil {
			sink.SendPhase(solver.PhaseStart, solver.UnknownProgress)
			cur, err = construct.GreedyContext(cctx, in, nb)
		}
		if err != nil {
			nb, cur = nil, nil
		}
	}
	if cur == nil {
		sink.SendPhase(solver.PhaseStart, solver.UnknownProgress)
		cur = construct.SpaceFillingCurve(in)
	}
	nbReady := make(chan *neighbor.Lists, 1)
	if o.global > 0 {
		go func(nb *neighbor.Lists) {
			if nb == nil {
				nb, _ = neighbor.NearestContext(cctx, in, 10) // nil when the run ended first
			}
			nbReady <- nb
		}(nb)
	}
	lastGlobal := time.Now()
	length := solver.TourLength(in, cur)
	sink.Send(solver.Snapshot{Tour: cur, Length: length, Best: cur, BestLength: length, Phase: solver.PhaseSearch,
		PhaseProgress: float64(time.Since(start)) / float64(p.TimeLimit), Progress: float64(time.Since(start)) / float64(p.TimeLimit)})
	t32 := make([]int32, in.N)
	for i, c := range cur {
		t32[i] = int32(c)
	}
	L := min(o.window, in.N)
	var r *orRun
	if err := ru.do(func() (err error) { r, err = newOrRun(ru, in, t32, L, o.replicas); return err }); err != nil {
		return ph, err
	}
	globals := 0
	lastGlobalDur := time.Duration(0)
	defer ru.do(func() error { r.free(); return nil })

	rng := rand.New(rand.NewPCG(p.Seed, 0x0e11))
	length0 := length
	var globalDelta int64
	var evals, globalEvals uint64
	var kicksDone, rounds int64
	var clock orClock
	stopped := false
	download := func() error {
		return ru.do(func() error { return dtoh(t32, r.tour) })
	}
	toInts := func() []int {
		out := make([]int, in.N)
		for i, c := range t32 {
			out[i] = int(c)
		}
		return out
	}
	for {
		if ctx.Err() != nil || !time.Now().Before(deadline) {
			stopped = true
			break
		}
		if p.Target > 0 && length <= p.Target {
			break
		}
		kicks := clock.kicks(o.kicks, time.Until(deadline))
		off := rng.Int64N(int64(in.N))
		seed := p.Seed*0x9E3779B97F4A7C15 + uint64(rounds)
		t0 := time.Now()
		var gain uint64
		err := ru.do(func() (err error) {
			gain, evals, err = r.round(off, kicks, seed, o.maxSeg)
			return err
		})
		if err != nil {
			return ph, err
		}
		clock.timed(time.Since(t0), kicks)
		rounds++
		kicksDone += int64(kicks) * int64(r.W) * int64(r.R)
		length = length0 - int64(gain) + globalDelta
		// a pass stops early at the limit, having wasted its set-up: start
		// one only when the last one (or, before the first, about 5 µs a
		// city) fits twice in the time left
		est := max(lastGlobalDur, time.Duration(in.N)*5*time.Microsecond)
		if o.global > 0 && time.Since(lastGlobal) >= o.global && time.Until(deadline) > 2*est {
			if nb == nil {
				select {
				case nb = <-nbReady:
				default:
				}
			}
			if nb != nil {
				// moves between windows: 2-opt then Or-opt descents over
				// the whole tour with global candidate lists, on the CPU
				if err := download(); err != nil {
					return ph, err
				}
				g0 := time.Now()
				// the pass takes seconds on a million cities: phase
				// snapshots keep front ends informed meanwhile
				stopTick, ticked := make(chan struct{}), make(chan struct{})
				go func() {
					defer close(ticked)
					tk := time.NewTicker(500 * time.Millisecond)
					defer tk.Stop()
					for {
						select {
						case <-stopTick:
							return
						case <-tk.C:
							sink.SendPhase(solver.PhaseSearch, float64(time.Since(start))/float64(p.TimeLimit))
						}
					}
				}()
				a := tour.NewArray(toInts())
				// the pass ends with the run: a valid tour and the exact
				// delta of the moves made so far
				end := func() bool { return ctx.Err() != nil || !time.Now().Before(deadline) }
				dl, ev := tour.TwoOptUntil(in, a, nb, end)
				dl2, ev2 := globalOrOpt(in, a, nb, end)
				close(stopTick)
				<-ticked
				dl, ev = dl+dl2, ev+ev2
				globals++
				globalDelta += dl
				length += dl
				globalEvals += uint64(ev)
				for i, c := range a.Tour {
					t32[i] = int32(c)
				}
				if err := ru.do(func() error { return htod(r.tour, t32) }); err != nil {
					return ph, err
				}
				lastGlobal = time.Now()
				lastGlobalDur = lastGlobal.Sub(g0)
			}
		}
		if sink.Due() {
			if err := download(); err != nil {
				return ph, err
			}
			t := toInts()
			f := float64(time.Since(start)) / float64(p.TimeLimit)
			sink.Send(solver.Snapshot{Tour: t, Length: length, Best: t, BestLength: length, Step: kicksDone,
				Moves: int64(evals + globalEvals), Progress: f, Phase: solver.PhaseSearch, PhaseProgress: f})
		}
	}
	if err := download(); err != nil {
		return ph, err
	}
	best := toInts()
	progress := 1.0
	sink.Send(solver.Snapshot{Tour: best, Length: length, Best: best, BestLength: length, Step: kicksDone,
		Moves: int64(evals + globalEvals), Progress: progress, Phase: solver.PhaseSearch, PhaseProgress: progress})
	ph.tour, ph.length, ph.moves, ph.steps, ph.stopped = best, length, int64(evals+globalEvals), kicksDone, stopped
	ph.device = fmt.Sprintf("%s, %d windows of ≤%d cities × %d replicas: %d rounds, %.3g kicks in all (%.3g a second per window replica)",
		ru.d.label, r.W, r.L, r.R, rounds, float64(kicksDone), float64(kicksDone)/float64(r.W*r.R)/max(time.Since(start).Seconds(), 1e-9))
	return ph, nil
}
