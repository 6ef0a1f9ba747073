//go:build cuda

package ils

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

func init() {
	device.RegisterKernels("oropt_windows", "oropt_commit")
}

// orK is OR_K of oropt.cu: neighbours per city in a window.
const orK = 8

// orBlockShared is the shared memory a block of 1 to 4 windows may take.
const orBlockShared = 200 << 10

// orWarps returns the windows (warps) per block for windows of L cities.
func orWarps(L int) int { return max(1, min(4, orBlockShared/orWindowBytes(L))) }

// orWindowBytes mirrors or_win_bytes in oropt.cu.
func orWindowBytes(L int) int {
	b := 16*L + 2*L*4 + 2*L*orK + L
	return (b + 15) &^ 15
}

// orRun is the device state of one or-ils run.
type orRun struct {
	run              *device.Run
	n, L, W, R, wpb  int
	metric           int
	bufs             device.Buffers
	xy, tour         cu.DevicePtr
	ord, gain        cu.DevicePtr
	evals, total     cu.DevicePtr
	shared, cshared  int
	hostEval, hostTo []uint64
	// done marks a round's end, waited on to leave the host core to the CPU search
	done cu.Event
}

// orGeometry returns the windows and replicas (0: as fill d) for n cities in windows of L.
func orGeometry(d *device.Device, n, L, replicas int) (W, R int, err error) {
	fn, ok := d.Fn("oropt_windows")
	if !ok {
		return 0, 0, fmt.Errorf("gpu: kernel oropt_windows is not in the fatbin (rebuild it: scripts/build-gpu.sh fatbin)")
	}
	W = (n + L - 1) / L
	if replicas > 0 {
		return W, replicas, nil
	}
	slots, err := orSlots(d, fn, L)
	if err != nil {
		return 0, 0, err
	}
	return W, min(16, max(1, slots/W)), nil
}

// orSlots is how many windows of L cities d runs at once (one wave of fn).
func orSlots(d *device.Device, fn cu.Function, L int) (int, error) {
	wpb := orWarps(L)
	blocks, err := fn.MaxActiveBlocksPerMultiProcessor(32*wpb, int64(wpb*orWindowBytes(L)))
	if err != nil {
		return 0, err
	}
	return max(1, blocks) * wpb * d.Info.Multiprocs, nil
}

// newOrRun allocates the run and uploads the coordinates and tour t.
func newOrRun(ru *device.Run, in *solver.Instance, t []int32, L, replicas int) (*orRun, error) {
	metric, err := device.MetricCode(in)
	if err != nil {
		return nil, err
	}
	if !OrSpanOK(in) {
		return nil, fmt.Errorf("%w: or-ils needs coordinates within a span of %.0e (%s spans %.3g)", device.ErrUnsupported, OrMaxSpan, in.Name, device.CoordSpan(in))
	}
	d := ru.Dev
	r := &orRun{run: ru, n: in.N, L: L, metric: metric, wpb: orWarps(L)}
	r.shared = r.wpb * orWindowBytes(L)
	r.cshared = r.wpb * L * 4
	for _, k := range []struct {
		name  string
		bytes int
	}{{"oropt_windows", r.shared}, {"oropt_commit", r.cshared}} {
		fn, ok := d.Fn(k.name)
		if !ok {
			return nil, fmt.Errorf("gpu: kernel %s is not in the fatbin (rebuild it: scripts/build-gpu.sh fatbin)", k.name)
		}
		if k.bytes > 48<<10 {
			if err := device.SetMaxDynamicShared(fn, k.bytes); err != nil {
				return nil, err
			}
		}
	}
	if r.W, r.R, err = orGeometry(d, in.N, L, replicas); err != nil {
		return nil, err
	}
	n, WR := int64(in.N), int64(r.W)*int64(r.R)
	if err := r.bufs.AllocAll(device.Buf(&r.xy, 16*n), device.Buf(&r.tour, 4*n), device.Buf(&r.ord, 2*WR*int64(L)),
		device.Buf(&r.gain, 8*WR), device.Buf(&r.evals, 8), device.Buf(&r.total, 8)); err != nil {
		return nil, err
	}
	xy := make([]float64, 2*in.N)
	for i := 0; i < in.N; i++ {
		xy[2*i], xy[2*i+1] = in.X[i], in.Y[i]
	}
	r.hostEval, r.hostTo = make([]uint64, 1), make([]uint64, 1)
	if r.done, err = cu.MakeEvent(cu.BlockingSyncEvent | cu.DisableTiming); err != nil {
		r.bufs.FreeAll()
		return nil, fmt.Errorf("creating an event: %w", err)
	}
	if err := device.InOrder(func() error { return device.HtoD(r.xy, xy) }, func() error { return device.HtoD(r.tour, t) },
		func() error { return device.HtoD(r.evals, r.hostEval) }, func() error { return device.HtoD(r.total, r.hostTo) }); err != nil {
		r.free()
		return nil, err
	}
	return r, nil
}

func (r *orRun) free() {
	if r.done != (cu.Event{}) {
		cu.DestroyEvent(&r.done)
	}
	r.bufs.FreeAll()
}

// round runs the windows of span positions from off with kicks kicks, committing each one's best replica.
func (r *orRun) round(off, span int64, kicks int, seed uint64, maxSeg int) (gain, evals uint64, err error) {
	d := r.run
	w := r.W
	g := (w*r.R + r.wpb - 1) / r.wpb
	if err := d.Launch("oropt_windows", g, 1, 32*r.wpb, r.shared, d.Stream,
		r.xy, r.tour, r.n, off, span, w, r.L, r.R, kicks, seed, maxSeg, r.metric, r.ord, r.gain, r.evals); err != nil {
		return 0, 0, err
	}
	if err := d.Launch("oropt_commit", (w+r.wpb-1)/r.wpb, 1, 32*r.wpb, r.cshared, d.Stream,
		r.tour, r.n, off, span, w, r.L, r.R, r.ord, r.gain, r.total); err != nil {
		return 0, 0, err
	}
	if err := r.done.Record(d.Stream); err != nil {
		return 0, 0, fmt.Errorf("or-ils round on %s: %w", d.Dev.Label, err)
	}
	if err := r.done.Synchronize(); err != nil {
		return 0, 0, fmt.Errorf("or-ils round on %s failed: %w", d.Dev.Label, err)
	}
	if err := device.DtoH(r.hostTo, r.total); err != nil {
		return 0, 0, err
	}
	if err := device.DtoH(r.hostEval, r.evals); err != nil {
		return 0, 0, err
	}
	return r.hostTo[0], r.hostEval[0], nil
}

// ParseOrOptions reads or-ils's settings from its Params on n cities.
func ParseOrOptions(p solver.Params, n int) (OrConfig, error) {
	return OrSpec.Parse(&solver.Instance{N: n}, p)
}

// GlobalEvery is the time between global passes (0: none).
func (c OrConfig) GlobalEvery() time.Duration { return time.Duration(c.Global * float64(time.Second)) }

// solveOrILS is the or-ils engine: rounds of oropt.cu's windowed ILS at random offsets, committing only gains.
func solveOrILS(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	o, err := ParseOrOptions(p, in.N)
	if err != nil {
		return solver.Result{}, err
	}
	ph, err := OrILS(ctx, in, p, o, snaps, start)
	if err != nil {
		return solver.Result{}, err
	}
	return solver.Finish(in, e, p, solver.Outcome{Tour: ph.Tour, Moves: ph.Moves, Steps: ph.Steps, Start: start, Stopped: ph.Stopped, Device: ph.Device})
}

// OrPhase is an or-ils run's best tour, its exact length and counters.
type OrPhase struct {
	Tour         []int
	Length       int64
	Moves, Steps int64
	Stopped      bool // the time limit or ctx ended it
	Device       string
}

// OrILS runs or-ils with settings o until p's deadline, ctx or the target.
func OrILS(ctx context.Context, in *solver.Instance, p solver.Params, o OrConfig, snaps chan solver.Snapshot, start time.Time) (OrPhase, error) {
	var ph OrPhase
	ru, err := device.NewRun()
	if err != nil {
		return ph, err
	}
	defer ru.Close()
	interval := solver.DefaultSnapshotInterval
	if in.N > 200000 {
		interval = 250 * time.Millisecond // a snapshot copies the whole tour
	}
	l := device.NewRunLoop(ctx, in, p, snaps, start, interval)
	// a greedy start that misses the deadline falls back to the curve
	cctx, cancel := context.WithDeadline(ctx, l.Deadline)
	defer cancel()
	cur, nb, err := orStart(cctx, l, o)
	if err != nil {
		return ph, err
	}
	w := &orWalk{l: l, ru: ru, o: o, nb: nb, nbReady: make(chan *neighbor.Lists, 1), lastGlobal: time.Now(),
		rng: rand.New(rand.NewPCG(p.Seed, 0x0e11)), t32: make([]int32, in.N)}
	if o.Global > 0 {
		go func(nb *neighbor.Lists) {
			if nb == nil {
				nb, _ = neighbor.NearestContext(cctx, in, 10) // nil when the run ended first
			}
			w.nbReady <- nb
		}(nb)
	}
	w.length0 = solver.TourLength(in, cur)
	l.BestLen = w.length0
	f := l.Frac()
	l.Sink.Send(solver.Snapshot{Tour: cur, Length: w.length0, Best: cur, BestLength: w.length0, Phase: solver.PhaseSearch, PhaseProgress: f, Progress: f})
	copy(w.t32, device.Convert[int32](cur))
	if err := ru.Do(func() (err error) { w.r, err = newOrRun(ru, in, w.t32, min(o.Window, in.N), 0); return err }); err != nil {
		return ph, err
	}
	defer ru.Do(func() error { w.r.free(); return nil })
	if !l.Reached() {
		if err := l.Run(w.step, w.view); err != nil {
			return ph, err
		}
	}
	if err := w.download(); err != nil {
		return ph, err
	}
	best := w.tour()
	l.Sink.Send(solver.Snapshot{Tour: best, Length: l.BestLen, Best: best, BestLength: l.BestLen, Step: l.Steps,
		Moves: l.Moves, Progress: 1, Phase: solver.PhaseSearch, PhaseProgress: 1})
	ph.Tour, ph.Length, ph.Moves, ph.Steps, ph.Stopped = best, l.BestLen, l.Moves, l.Steps, l.Stopped
	ph.Device = fmt.Sprintf("%s, %d windows of ≤%d cities × %d replicas: %d rounds, %.3g kicks in all (%.3g a second per window replica)",
		ru.Dev.Label, w.r.W, w.r.L, w.r.R, w.rounds, float64(l.Steps), float64(l.Steps)/float64(w.r.W*w.r.R)/max(time.Since(start).Seconds(), 1e-9))
	return ph, nil
}

// orStart is or-ils's start: Params.Start, the greedy tour, or the curve when asked or late.
func orStart(ctx context.Context, l *device.RunLoop, o OrConfig) (cur []int, nb *neighbor.Lists, err error) {
	in := l.In
	switch {
	case len(l.P.Start) == in.N:
		if err := solver.ValidateTour(l.P.Start, in.N); err != nil {
			return nil, nil, fmt.Errorf("start tour: %v", err)
		}
		return slices.Clone(l.P.Start), nil, nil
	case o.Greedy:
		l.Sink.SendPhase(solver.PhaseNeighbours, solver.UnknownProgress)
		if nb, err = neighbor.NearestContext(ctx, in, 10); err == nil {
			l.Sink.SendPhase(solver.PhaseStart, solver.UnknownProgress)
			if cur, err = construct.GreedyContext(ctx, in, nb); err == nil {
				return cur, nb, nil
			}
		}
	}
	l.Sink.SendPhase(solver.PhaseStart, solver.UnknownProgress)
	return construct.SpaceFillingCurve(in), nil, nil
}

// orWalk is the host's side of an or-ils run.
type orWalk struct {
	l  *device.RunLoop
	ru *device.Run
	r  *orRun
	o  OrConfig
	// nb is the global candidate lists, once nbReady has delivered them.
	nb      *neighbor.Lists
	nbReady chan *neighbor.Lists
	rng     *rand.Rand
	t32     []int32 // the tour as last downloaded
	clock   orClock

	length0, globalDelta int64
	evals, globalEvals   uint64
	rounds               int64
	lastGlobal           time.Time
	lastGlobalDur        time.Duration
}

func (w *orWalk) download() error {
	return w.ru.Do(func() error { return device.DtoH(w.t32, w.r.tour) })
}

func (w *orWalk) tour() []int { return device.Convert[int](w.t32) }

// step runs one round of the windows, then a global pass when one is due.
func (w *orWalk) step() (done bool, err error) {
	l, in := w.l, w.l.In
	kicks := w.clock.kicks(w.o.Window, time.Until(l.Deadline))
	off := w.rng.Int64N(int64(in.N))
	seed := l.P.Seed*0x9E3779B97F4A7C15 + uint64(w.rounds)
	t0 := time.Now()
	var gain uint64
	err = w.ru.Do(func() (err error) {
		gain, w.evals, err = w.r.round(off, int64(in.N), kicks, seed, w.o.Segment)
		return err
	})
	if err != nil {
		return false, err
	}
	w.clock.timed(time.Since(t0), kicks)
	w.rounds++
	l.Steps += int64(kicks) * int64(w.r.W) * int64(w.r.R)
	l.BestLen = w.length0 - int64(gain) + w.globalDelta
	l.Moves = int64(w.evals + w.globalEvals)
	// start a pass only when the last (at first 5 µs a city) fits twice in the time left
	est := max(w.lastGlobalDur, time.Duration(in.N)*5*time.Microsecond)
	if w.o.Global > 0 && time.Since(w.lastGlobal) >= w.o.GlobalEvery() && time.Until(l.Deadline) > 2*est {
		if w.nb == nil {
			select {
			case w.nb = <-w.nbReady:
			default:
			}
		}
		if w.nb != nil {
			return false, w.global()
		}
	}
	return false, nil
}

// global makes the moves between windows: CPU 2-opt then Or-opt descents over the whole tour.
func (w *orWalk) global() error {
	l := w.l
	if err := w.download(); err != nil {
		return err
	}
	g0 := time.Now()
	end := func() bool {
		if l.Sink.Due() { // the best length so far: the tour is on its way
			f := l.Frac()
			l.Sink.Send(solver.Snapshot{Phase: solver.PhaseSearch, PhaseProgress: f, Progress: f, BestLength: l.BestLen, Length: l.BestLen, Step: l.Steps, Moves: l.Moves})
		}
		return l.Expired()
	}
	a := tour.NewArray(w.tour())
	dl, ev := tour.TwoOptUntil(l.In, a, w.nb, end)
	dl2, ev2 := tour.OrOptUntil(l.In, a, w.nb, end)
	w.globalDelta += dl + dl2
	l.BestLen += dl + dl2
	w.globalEvals += uint64(ev + ev2)
	l.Moves = int64(w.evals + w.globalEvals)
	copy(w.t32, device.Convert[int32](a.Tour))
	if err := w.ru.Do(func() error { return device.HtoD(w.r.tour, w.t32) }); err != nil {
		return err
	}
	w.lastGlobal = time.Now()
	w.lastGlobalDur = w.lastGlobal.Sub(g0)
	return nil
}

// view downloads the tour, the best too, for a snapshot.
func (w *orWalk) view(s *solver.Snapshot) error {
	if err := w.download(); err != nil {
		return err
	}
	t := w.tour()
	s.Tour, s.Length, s.Best, s.BestLength = t, w.l.BestLen, t, w.l.BestLen
	return nil
}
