//go:build cuda

package climb

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/benchgpu"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

func init() {
	device.RegisterKernels("twoopt_eval", "twoopt_eval_range", "twoopt_eval_debug", "twoopt_apply")
}

// Launch geometry of twoopt_eval (must match twoopt.cu).
const (
	evalThreads = 128
	evalTile    = 1024
)

// tileBest mirrors TileBest in twoopt.cu.
type tileBest struct {
	Delta float32
	I, J  int32
	_     int32
}

// evalGrid returns T (tiles per side) and the tiles per tour.
func evalGrid(n int) (T, tiles int) {
	T = (n + evalTile - 1) / evalTile
	return T, T * (T + 1) / 2
}

// movesPerPass is the size of the 2-opt neighbourhood of n cities.
func movesPerPass(n int) int64 { return int64(n) * int64(n-3) / 2 }

// twoOptBatch is B tours in twoopt.cu's layout with the tiles' best moves.
type twoOptBatch struct {
	r      *device.Run
	n, B   int
	T      int
	tiles  int
	bufs   device.Buffers
	pts    cu.DevicePtr // B*n float4
	city   cu.DevicePtr // B*n int32
	best   cu.DevicePtr // B*tiles tileBest
	flags  cu.DevicePtr // B int32
	hostTB []tileBest
}

// newBatch allocates a batch (context thread).
func newBatch(r *device.Run, n, B int) (*twoOptBatch, error) {
	b := &twoOptBatch{r: r, n: n, B: B}
	b.T, b.tiles = evalGrid(n)
	b.hostTB = make([]tileBest, B*b.tiles)
	if err := b.bufs.AllocAll(device.Buf(&b.pts, int64(B)*int64(n)*16), device.Buf(&b.city, int64(B)*int64(n)*4),
		device.Buf(&b.best, int64(B)*int64(b.tiles)*16), device.Buf(&b.flags, int64(B)*4)); err != nil {
		return nil, err
	}
	return b, nil
}

func (b *twoOptBatch) free() error { return b.bufs.FreeAll() }

// upload sets tour k of the batch (context thread).
func (b *twoOptBatch) upload(k int, xy []float32, scale float64, t []int) error {
	pts := make([]float32, 4*b.n)
	device.TourPoints(xy, scale, t, pts)
	if err := device.HtoD(b.pts+cu.DevicePtr(16*k*b.n), pts); err != nil {
		return err
	}
	return device.HtoD(b.city+cu.DevicePtr(4*k*b.n), device.Convert[int32](t))
}

// evalChunkTiles is the most tiles one evaluation launch covers (about 3e10 moves).
const evalChunkTiles = 1 << 15

// eval queues one evaluation of every move of every tour.
func (b *twoOptBatch) eval() error {
	_, err := b.evalPass(nil)
	return err
}

// evalPass evaluates every move of every tour in launches of at most evalChunkTiles tiles; complete is false when stop said yes.
func (b *twoOptBatch) evalPass(stop func() bool) (complete bool, err error) {
	if b.tiles <= evalChunkTiles {
		return true, b.r.Launch("twoopt_eval", b.tiles, b.B, evalThreads, 0, b.r.Stream, b.pts, b.n, b.T, b.best)
	}
	for t0 := 0; t0 < b.tiles; t0 += evalChunkTiles {
		if t0 > 0 {
			if err := b.r.Sync("2-opt evaluation"); err != nil {
				return false, err
			}
			if stop != nil && stop() {
				return false, nil
			}
		}
		cnt := min(evalChunkTiles, b.tiles-t0)
		if err := b.r.Launch("twoopt_eval_range", cnt, b.B, evalThreads, 0, b.r.Stream, b.pts, b.n, b.T, b.best, t0); err != nil {
			return false, err
		}
	}
	return true, nil
}

// applyBest queues the climbers' apply step.
func (b *twoOptBatch) applyBest(eps float64) error {
	return b.r.Launch("twoopt_apply", b.B, 1, b.r.Block("twoopt_apply", 256), 0, b.r.Stream, b.pts, b.city, b.n, b.best, b.tiles, b.flags, eps)
}

// fetchBest waits for the stream and copies the tiles' best moves back.
func (b *twoOptBatch) fetchBest() error {
	if err := b.r.Sync("2-opt evaluation"); err != nil {
		return err
	}
	return device.DtoH(b.hostTB, b.best)
}

// evalBatch is the tours EvalRate evaluates a launch: 16 blocks a multiprocessor.
func evalBatch(n, sms int) int {
	_, tiles := evalGrid(n)
	return max(1, (16*sms+tiles-1)/tiles)
}

// EvalBatch is evalBatch for n cities on this machine's GPU.
func EvalBatch(n int) (int, error) {
	d, err := device.GetDevice()
	if err != nil {
		return 0, err
	}
	return evalBatch(n, d.Info.Multiprocs), nil
}

// EvalRate measures the 2-opt evaluation kernel's moves per second over random tours of n cities with device events.
func EvalRate(n, passes int, seed uint64) (benchgpu.KernelRate, error) {
	r, err := device.NewRun()
	if err != nil {
		return benchgpu.KernelRate{}, err
	}
	defer r.Close()
	if n < 5 {
		return benchgpu.KernelRate{}, fmt.Errorf("EvalRate: n = %d, need at least 5", n)
	}
	var movesPerSec float64
	rng := rand.New(rand.NewPCG(seed, 0x2077))
	B := evalBatch(n, r.Dev.Info.Multiprocs)
	if passes <= 0 {
		passes = int(min(max(3e10/(float64(B)*float64(movesPerPass(n))), 3), 1000))
	}
	xy := make([]float32, 2*n)
	for i := range xy {
		xy[i] = float32(rng.Float64() * 100000)
	}
	err = r.Do(func() error {
		b, err := newBatch(r, n, B)
		if err != nil {
			return err
		}
		defer b.free()
		for k := 0; k < B; k++ {
			if err := b.upload(k, xy, 1, construct.Random(n, rng)); err != nil {
				return err
			}
		}
		for w := 0; w < 3; w++ {
			if err := b.eval(); err != nil {
				return err
			}
		}
		ms, err := r.Timed("2-opt evaluation", func() error {
			for p := 0; p < passes; p++ {
				if err := b.eval(); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			return err
		}
		movesPerSec = float64(movesPerPass(n)) * float64(B) * float64(passes) / (ms / 1000)
		return nil
	})
	return benchgpu.KernelRate{MovesPerSec: movesPerSec, Device: r.Dev.Label}, err
}

// twoOptLocalSearch runs GPU passes on tour t, each applying the disjoint best moves after an exact re-check (Rocki & Suda),
// until converged, ctx or the deadline; it returns the moves evaluated and passes run.
func twoOptLocalSearch(ctx context.Context, b *twoOptBatch, in *solver.Instance, xy []float32, scale float64, t []int, deadline time.Time, pass func()) (moves, passes int64, converged bool, err error) {
	cands := make([]device.TwoOptMove, 0, min(b.tiles, 1<<20))
	stop := func() bool { return ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) }
	for {
		if stop() {
			return moves, passes, false, nil
		}
		complete := false
		err = b.r.Do(func() error {
			if err := b.upload(0, xy, scale, t); err != nil {
				return err
			}
			var err error
			if complete, err = b.evalPass(stop); err != nil || !complete {
				return err
			}
			return b.fetchBest()
		})
		if err != nil {
			return moves, passes, false, err
		}
		if !complete {
			return moves, passes, false, nil
		}
		passes++
		moves += movesPerPass(b.n)
		cands = cands[:0]
		for _, tb := range b.hostTB[:b.tiles] {
			if tb.I >= 0 && tb.Delta < 0 {
				cands = append(cands, device.TwoOptMove{I: int(tb.I), J: int(tb.J)})
			}
		}
		sel := device.SelectMoves(in, t, cands)
		if len(sel) == 0 {
			return moves, passes, true, nil
		}
		device.ApplyMoves(t, sel)
		if pass != nil {
			pass()
		}
	}
}

// TwoOptILS is the 2opt-ils engine: Rocki & Suda's GPU 2-opt inside iterated local search with local double-bridge kicks.
func TwoOptILS(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	r, err := device.NewRunForIn(ctx, in)
	if err != nil {
		return solver.Result{}, err
	}
	defer r.Close()
	l := device.NewRunLoop(ctx, in, p, snaps, start, 0)
	l.Plateau = true
	nb, cur, ok := device.StartTour(ctx, l.Deadline, in, p, 10, l.Sink)
	if !ok {
		return device.FinishEarly(in, e, p, start, l.Sink, r.Dev.Label)
	}
	l.Sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	var b *twoOptBatch
	if err := r.Do(func() (err error) { b, err = newBatch(r, in.N, 1); return err }); err != nil {
		return solver.Result{}, err
	}
	defer r.Do(b.free)
	d := &twoOptDescent{l: l, b: b, nb: nb, xy: device.ShiftedCoords(in), scale: device.RawScale(in)}
	converged, err := d.descend(cur)
	if err != nil {
		return solver.Result{}, err
	}
	l.Offer(cur)
	l.Stopped = !converged
	if converged && !l.Reached() {
		rng := rand.New(rand.NewPCG(p.Seed, 0x1f5))
		err := l.Run(func() (bool, error) {
			l.Kick(cur, rng)
			if _, err := d.descend(cur); err != nil {
				return false, err
			}
			l.Steps++
			l.Offer(cur)
			return false, nil
		}, l.TourView(cur))
		if err != nil {
			return solver.Result{}, err
		}
	}
	return l.Finish(e, r.Dev.Label)
}

// twoOptDescent is 2opt-ils's local search: GPU passes, then the exact polish.
type twoOptDescent struct {
	l     *device.RunLoop
	b     *twoOptBatch
	nb    *neighbor.Lists
	xy    []float32
	scale float64
}

// descend improves cur in place and reports whether it reached a local minimum (only then is it polished).
func (d *twoOptDescent) descend(cur []int) (converged bool, err error) {
	l := d.l
	mv, _, converged, err := twoOptLocalSearch(l.Ctx, d.b, l.In, d.xy, d.scale, cur, l.Deadline, func() {
		if l.Sink.Due() {
			n := solver.TourLength(l.In, cur)
			s := solver.Snapshot{Phase: solver.PhaseDescent, PhaseProgress: solver.UnknownProgress,
				Tour: slices.Clone(cur), Length: n, Best: slices.Clone(cur), BestLength: n, Moves: l.Moves}
			if l.BestLen >= 0 && l.BestLen <= n {
				// a kick's descent: the best is the tour it started from
				s.Best, s.BestLength = slices.Clone(l.Best), l.BestLen
			}
			l.Sink.Send(s)
		}
	})
	l.Moves += mv
	if err == nil && converged {
		device.Polish2Opt(l.In, cur, d.nb)
	}
	return converged, err
}

// The batch climber's start tours: randomized nearest-neighbour tours with these settings, up to this many cities.
const (
	climbHostNNNeighbors = 8
	climbNNSecond        = 0.03
	climbHostNNMaxN      = 200000
)

// twoOptClimb is the 2opt-climb engine: O'Neil & Burtscher's random-restart climbing, fused where the tour fits a block,
// else a climber per tour (batchClimb); the best climb is polished with exact 2-opt.
func twoOptClimb(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	r, err := device.NewRunFor(in)
	if err != nil {
		return solver.Result{}, err
	}
	defer r.Close()
	if len(in.FixedEdges) > 0 {
		return solver.Result{}, fmt.Errorf("%s has %d fixed edges (FIXED_EDGES_SECTION) and 2opt-climb does not keep them (its climbs start from new tours): use auto", in.Name, len(in.FixedEdges))
	}
	cfg, err := ClimbSpec.Parse(in, p)
	if err != nil {
		return solver.Result{}, err
	}
	var pl climbPlan
	if err := r.Do(func() (err error) { pl, err = planClimb(r, in.N, climbKernelFor(in.N)); return err }); err == nil {
		return twoOptClimbFused(ctx, e, in, p, cfg, snaps, r, pl, start)
	}
	l := device.NewRunLoop(ctx, in, p, snaps, start, 0)
	c := &batchClimb{climbers: climbers{l: l, r: r, name: AlgoTwoOptClimb}, restarts: cfg.Restarts, nearStarts: cfg.NearStarts, B: cfg.Blocks}
	defer r.Do(func() error {
		if c.b != nil {
			return c.b.free()
		}
		return nil
	})
	if err := c.setUp(); err != nil {
		return solver.Result{}, err
	}
	if err := l.Run(c.step, nil); err != nil {
		return solver.Result{}, err
	}
	// the climbers' tours as the run left them (all of them are valid)
	if err := r.Do(func() error { return device.DtoH(c.city, c.b.city) }); err != nil {
		return solver.Result{}, err
	}
	c.offerUnfinished(c.city, c.B, func(int) bool { return true })
	c.polish(ctx)
	return l.Finish(e, r.Dev.Label)
}

// batchClimb is 2opt-climb on tours too large for the fused climber.
type batchClimb struct {
	climbers
	b          *twoOptBatch
	B          int
	restarts   int
	nearStarts bool // randomized nearest-neighbour start tours (climbConfig)
	rounds     int  // (evaluate, apply) pairs per host round trip
	xy         []float32
	scale      float64
	rng        *rand.Rand
	lists      *neighbor.Lists // for randomized nearest-neighbour starts; nil: random starts
	flags      []int32
	city       []int32
	// usedStart: climber 0 has climbed from Params.Start (once).
	usedStart bool
}

// setUp sizes the batch (by memory when c.B is 0), allocates and uploads it.
func (c *batchClimb) setUp() error {
	l, r, n := c.l, c.r, c.l.In.N
	_, tiles := evalGrid(n)
	free, err := device.RunFreeMemory(r)
	if err != nil {
		return err
	}
	perClimber := int64(n)*20 + int64(tiles)*16 + 4 // points, cities, tile bests, flag
	maxB := int(min(device.UsableMemory(free)/perClimber, 1<<20))
	B := c.B
	if B <= 0 {
		// enough tiles to give every SM several blocks, within memory
		B = max(1, min((8*r.Dev.Info.Multiprocs+tiles-1)/tiles, maxB))
	} else if B > maxB {
		return fmt.Errorf("2opt-climb: %d climbers of %d cities need %d MiB of GPU memory, %d MiB are free: at most %d", B, n, int64(B)*perClimber>>20, free>>20, maxB)
	}
	c.B = B
	l.Settings.Blocks = B
	c.rng = rand.New(rand.NewPCG(l.P.Seed, 0xc11b))
	l.Sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	c.xy, c.scale = device.ShiftedCoords(l.In), device.RawScale(l.In)
	if err := r.Do(func() (err error) { c.b, err = newBatch(r, n, B); return err }); err != nil {
		return err
	}
	// start tours: randomized nearest-neighbour, or with start=random uniform
	if c.nearStarts && n <= climbHostNNMaxN {
		dctx, cancel := context.WithDeadline(l.Ctx, l.Deadline)
		c.lists, _ = neighbor.NearestContext(dctx, l.In, climbHostNNNeighbors)
		cancel()
	}
	c.flags, c.city = make([]int32, B), make([]int32, B*n)
	// (evaluate, apply) pairs per host round trip: 32, fewer for large passes
	c.rounds = int(min(max(int64(3e10)/(int64(B)*movesPerPass(n)), 1), 32))
	return r.Do(func() error {
		for k := 0; k < B; k++ {
			if k%64 == 0 && l.Expired() {
				return nil
			}
			if err := c.restart(k); err != nil {
				return err
			}
		}
		return nil
	})
}

// restart uploads climber k's next start tour: Params.Start once, else randomized nearest-neighbour, else random.
func (c *batchClimb) restart(k int) error {
	l, n := c.l, c.l.In.N
	var t []int
	if k == 0 && len(l.P.Start) == n && !c.usedStart {
		c.usedStart = true
		t = append([]int(nil), l.P.Start...)
	} else if c.lists != nil {
		dctx, cancel := context.WithDeadline(l.Ctx, l.Deadline)
		t, _ = construct.RandomizedNearestNeighborContext(dctx, l.In, c.rng.IntN(n), c.lists, c.rng, climbNNSecond)
		cancel()
	}
	if t == nil {
		t = construct.Random(n, c.rng)
	}
	return c.b.upload(k, c.xy, c.scale, t)
}

// step queues the rounds, copies the climbers back and restarts the minima.
func (c *batchClimb) step() (done bool, err error) {
	l, b, n := c.l, c.b, c.l.In.N
	err = c.r.Do(func() error {
		complete := true
		for k := 0; k < c.rounds && complete; k++ {
			var err error
			if complete, err = b.evalPass(l.Expired); err != nil {
				return err
			}
			if complete {
				if err := b.applyBest(1e-3); err != nil {
					return err
				}
				l.Moves += int64(c.B) * movesPerPass(n)
			}
		}
		if err := c.r.Sync("2-opt climb"); err != nil {
			return err
		}
		if err := device.DtoH(c.flags, b.flags); err != nil {
			return err
		}
		return device.DtoH(c.city, b.city)
	})
	if err != nil {
		return false, err
	}
	if err := c.harvest(c.flags, c.city, c.restart); err != nil {
		return false, err
	}
	l.Steps = c.climbs
	return c.restarts > 0 && c.climbs >= int64(c.restarts), nil
}
