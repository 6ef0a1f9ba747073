//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

func init() {
	registerKernels("twoopt_eval", "twoopt_eval_range", "twoopt_eval_debug", "twoopt_apply")
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

// twoOptBatch is B tours of n cities in the tour-ordered layout on the
// device, with the per-tile best moves of the last evaluation.
type twoOptBatch struct {
	r      *run
	n, B   int
	T      int
	tiles  int
	bufs   buffers
	pts    cu.DevicePtr // B*n float4
	city   cu.DevicePtr // B*n int32
	best   cu.DevicePtr // B*tiles tileBest
	flags  cu.DevicePtr // B int32
	hostTB []tileBest
}

// newBatch allocates a batch (context thread).
func (r *run) newBatch(n, B int) (*twoOptBatch, error) {
	b := &twoOptBatch{r: r, n: n, B: B}
	b.T, b.tiles = evalGrid(n)
	var err error
	if b.pts, err = b.bufs.alloc(int64(B) * int64(n) * 16); err != nil {
		return nil, err
	}
	if b.city, err = b.bufs.alloc(int64(B) * int64(n) * 4); err != nil {
		b.bufs.freeAll()
		return nil, err
	}
	if b.best, err = b.bufs.alloc(int64(B) * int64(b.tiles) * 16); err != nil {
		b.bufs.freeAll()
		return nil, err
	}
	if b.flags, err = b.bufs.alloc(int64(B) * 4); err != nil {
		b.bufs.freeAll()
		return nil, err
	}
	b.hostTB = make([]tileBest, B*b.tiles)
	return b, nil
}

func (b *twoOptBatch) free() error { return b.bufs.freeAll() }

// upload sets tour k of the batch (context thread).
func (b *twoOptBatch) upload(k int, xy []float32, scale float64, t []int) error {
	pts := make([]float32, 4*b.n)
	tourPoints(xy, scale, t, pts)
	city := make([]int32, b.n)
	for i, c := range t {
		city[i] = int32(c)
	}
	if err := htod(b.pts+cu.DevicePtr(16*k*b.n), pts); err != nil {
		return err
	}
	return htod(b.city+cu.DevicePtr(4*k*b.n), city)
}

// evalChunkTiles is the most tiles one evaluation launch covers (about
// 3e10 moves, well under a second on the GPUs measured): a pass over a
// larger tour (from about 185,000 cities) is split so that a stop or the
// time limit is seen between launches.
const evalChunkTiles = 1 << 15

// eval queues one evaluation of every move of every tour.
func (b *twoOptBatch) eval() error {
	_, err := b.evalPass(nil)
	return err
}

// evalPass queues an evaluation of every move of every tour, in launches
// of at most evalChunkTiles tiles. With several launches it waits for each
// and asks stop between them; complete is false when stop said yes (the
// tiles' results are then partial).
func (b *twoOptBatch) evalPass(stop func() bool) (complete bool, err error) {
	if b.tiles <= evalChunkTiles {
		return true, b.r.launch("twoopt_eval", b.tiles, b.B, evalThreads, 0, b.r.stream, b.pts, b.n, b.T, b.best)
	}
	for t0 := 0; t0 < b.tiles; t0 += evalChunkTiles {
		if t0 > 0 {
			if err := b.r.sync("2-opt evaluation"); err != nil {
				return false, err
			}
			if stop != nil && stop() {
				return false, nil
			}
		}
		cnt := min(evalChunkTiles, b.tiles-t0)
		if err := b.r.launch("twoopt_eval_range", cnt, b.B, evalThreads, 0, b.r.stream, b.pts, b.n, b.T, b.best, t0); err != nil {
			return false, err
		}
	}
	return true, nil
}

// applyBest queues the climbers' apply step.
func (b *twoOptBatch) applyBest(eps float64) error {
	return b.r.launch("twoopt_apply", b.B, 1, b.r.block("twoopt_apply", 256), 0, b.r.stream, b.pts, b.city, b.n, b.best, b.tiles, b.flags, eps)
}

// fetchBest waits for the stream and copies the tiles' best moves back.
func (b *twoOptBatch) fetchBest() error {
	if err := b.r.sync("2-opt evaluation"); err != nil {
		return err
	}
	return dtoh(b.hostTB, b.best)
}

// evalBatch is the number of tours EvalRate evaluates per launch: enough
// tiles to give each of sms multiprocessors 16 blocks.
func evalBatch(n, sms int) int {
	_, tiles := evalGrid(n)
	return max(1, (16*sms+tiles-1)/tiles)
}

// EvalBatch is the number of tours EvalRate evaluates per launch for n
// cities on this machine's GPU, so a caller can size its passes to a
// kernel time.
func EvalBatch(n int) (int, error) {
	d, err := getDevice()
	if err != nil {
		return 0, err
	}
	return evalBatch(n, d.info.Multiprocs), nil
}

// EvalRate measures the 2-opt evaluation kernel alone: moves evaluated per
// second over a batch of random tours of n random cities sized to fill the
// GPU, timed with device events over passes launches after a warm-up
// (passes <= 0: as many as make about 3e10 moves, at least 3 and at most
// 1000). It backs the "gpu" bench suite's first table.
func EvalRate(n, passes int, seed uint64) (movesPerSec float64, device string, err error) {
	r, err := newRun()
	if err != nil {
		return 0, "", err
	}
	defer r.close()
	if n < 5 {
		return 0, "", fmt.Errorf("EvalRate: n = %d, need at least 5", n)
	}
	rng := rand.New(rand.NewPCG(seed, 0x2077))
	B := evalBatch(n, r.d.info.Multiprocs)
	if passes <= 0 {
		passes = int(min(max(3e10/(float64(B)*float64(movesPerPass(n))), 3), 1000))
	}
	xy := make([]float32, 2*n)
	for i := range xy {
		xy[i] = float32(rng.Float64() * 100000)
	}
	err = r.do(func() error {
		b, err := r.newBatch(n, B)
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
		ms, err := r.timed("2-opt evaluation", func() error {
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
	return movesPerSec, r.d.label, err
}

// twoOptLocalSearch runs GPU passes on tour t (batch slot 0) until no
// candidate survives the exact re-check: each pass evaluates the whole
// neighbourhood, takes every tile's best move, and applies the improving,
// pairwise disjoint ones (Rocki & Suda's many moves per pass). It returns
// the number of moves evaluated and passes run, and converged: no
// improving move is left (false when ctx or the deadline stopped it).
//
// pass, when not nil, is called after every applied pass (for snapshots).
func twoOptLocalSearch(ctx context.Context, b *twoOptBatch, in *solver.Instance, xy []float32, scale float64, t []int, deadline time.Time, pass func()) (moves, passes int64, converged bool, err error) {
	cands := make([]twoOptMove, 0, min(b.tiles, 1<<20))
	stop := func() bool { return ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) }
	for {
		if stop() {
			return moves, passes, false, nil
		}
		complete := false
		err = b.r.do(func() error {
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
				cands = append(cands, twoOptMove{I: int(tb.I), J: int(tb.J)})
			}
		}
		sel := selectMoves(in, t, cands)
		if len(sel) == 0 {
			return moves, passes, true, nil
		}
		applyMoves(t, sel)
		if pass != nil {
			pass()
		}
	}
}

// twoOptILS is the 2opt-ils engine: Rocki & Suda's GPU 2-opt inside
// iterated local search. Start: Params.Start or a greedy-edge tour; kick:
// a segment-local double bridge; accept a kicked tour when it is no worse.
func twoOptILS(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, descentOnly bool) (solver.Result, error) {
	start := time.Now()
	r, err := newRunFor(in)
	if err != nil {
		return solver.Result{}, err
	}
	defer r.close()
	if p.TimeLimit <= 0 && !descentOnly {
		p.TimeLimit = solver.DefaultTimeLimit
	}
	var deadline time.Time
	if p.TimeLimit > 0 {
		deadline = start.Add(p.TimeLimit)
	}
	sink := solver.NewSink(snaps, 0, start)
	rng := rand.New(rand.NewPCG(p.Seed, 0x1f5))
	nb, cur, ok := startTour(ctx, deadline, in, p, 10, sink)
	if !ok {
		return finishEarly(in, e, p, start, sink, r.d.label)
	}
	sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	xy, scale := shiftedCoords(in), rawScale(in)
	var b *twoOptBatch
	if err := r.do(func() (err error) { b, err = r.newBatch(in.N, 1); return err }); err != nil {
		return solver.Result{}, err
	}
	defer r.do(b.free)

	// descend runs the GPU local search on cur, then the exact polish that
	// fixes what the float kernels missed near a local minimum; from a tour
	// the deadline cut short the polish would be a whole CPU 2-opt run, so
	// it is left out then.
	var moves, steps int64
	descend := func() (converged bool, err error) {
		mv, _, converged, err := twoOptLocalSearch(ctx, b, in, xy, scale, cur, deadline, func() {
			if sink.Due() {
				l := solver.TourLength(in, cur)
				sink.Send(solver.Snapshot{Phase: solver.PhaseDescent, PhaseProgress: solver.UnknownProgress,
					Tour: slices.Clone(cur), Length: l, Best: slices.Clone(cur), BestLength: l, Moves: moves})
			}
		})
		moves += mv
		if err == nil && converged {
			polish2Opt(in, cur, nb)
		}
		return converged, err
	}
	converged, err := descend()
	if err != nil {
		return solver.Result{}, err
	}
	best := newILSBest(in, p, start, sink)
	best.offer(cur)
	stopped := !converged
	for !descentOnly && !stopped {
		if end, st := best.done(ctx, deadline); end {
			stopped = st
			break
		}
		best.kick(cur, rng)
		if _, err := descend(); err != nil {
			return solver.Result{}, err
		}
		steps++
		best.offer(cur)
		best.snapshot(cur, steps, moves)
	}
	return best.finish(e, steps, moves, stopped, r.d.label)
}

// The batch climber's host-built start tours: randomized nearest-neighbour
// tours over this many candidates, taking the second-nearest candidate at
// this share of the steps (the fused climber's rule), up to this many
// cities (beyond, a tour takes too long to build for a restart).
const (
	climbHostNNNeighbors = 8
	climbNNSecond        = 0.03
	climbHostNNMaxN      = 200000
)

// twoOptClimb is the 2opt-climb engine: O'Neil & Burtscher's random-restart
// hill climbing. Tours that fit a block's shared memory run the fused
// climber (twoOptClimbFused). Larger ones run one climber per tour of a
// batch sized to fill the GPU: each round queues 32 (evaluate, apply)
// pairs; climbers at a local minimum are then scored exactly on the CPU
// and restarted from a new start tour (start=nn, the default up to
// climbHostNNMaxN cities: a randomized nearest-neighbour tour built on the
// host; else uniformly random). The best climber's tour is polished with
// exact 2-opt.
func twoOptClimb(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	r, err := newRunFor(in)
	if err != nil {
		return solver.Result{}, err
	}
	defer r.close()
	if len(in.FixedEdges) > 0 {
		return solver.Result{}, fmt.Errorf("%s has %d fixed edges (FIXED_EDGES_SECTION) and 2opt-climb does not keep them (its climbs start from new tours): use auto", in.Name, len(in.FixedEdges))
	}
	// Tours that fit a block's shared memory (about 14,000 cities on an
	// H100) run the fused climber; larger ones the batch below.
	var pl climbPlan
	if err := r.do(func() (err error) { pl, err = r.planClimb(in.N, climbKernelFor(in.N)); return err }); err == nil {
		return twoOptClimbFused(ctx, e, in, p, snaps, r, pl, start)
	}
	restarts, err := solver.OptionsFor(AlgoTwoOptClimb, solver.BackendGPU).Int(p, OptRestarts)
	if err != nil {
		return solver.Result{}, err
	}
	if p.TimeLimit <= 0 {
		p.TimeLimit = solver.DefaultTimeLimit
	}
	deadline := start.Add(p.TimeLimit)
	n := in.N
	_, tiles := evalGrid(n)
	free, err := runFreeMemory(r)
	if err != nil {
		return solver.Result{}, err
	}
	perClimber := int64(n)*20 + int64(tiles)*16 + 4 // points, cities, tile bests, flag
	maxB := int(min(usableMemory(free)/perClimber, 1<<20))
	B := p.Blocks
	if B <= 0 {
		// enough tiles to give every SM several blocks, within memory
		B = max(1, (8*r.d.info.Multiprocs+tiles-1)/tiles)
		B = max(1, min(B, maxB))
	} else if B > maxB {
		return solver.Result{}, fmt.Errorf("2opt-climb: %d climbers of %d cities need %d MiB of GPU memory, %d MiB are free: at most %d", B, n, int64(B)*perClimber>>20, free>>20, maxB)
	}
	p.Blocks = B
	rng := rand.New(rand.NewPCG(p.Seed, 0xc11b))
	sink := solver.NewSink(snaps, 0, start)
	sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	xy, scale := shiftedCoords(in), rawScale(in)
	var b *twoOptBatch
	if err := r.do(func() (err error) { b, err = r.newBatch(n, B); return err }); err != nil {
		return solver.Result{}, err
	}
	defer r.do(b.free)
	// start tours: randomized nearest-neighbour tours built on the host
	// from candidate lists (as the fused climber builds them on the
	// device), up to climbHostNNMaxN cities and while the deadline allows;
	// else, and with start=random, uniformly random tours
	startTours, err := solver.OptionsFor(AlgoTwoOptClimb, solver.BackendGPU).Choice(p, OptClimbStart)
	if err != nil {
		return solver.Result{}, err
	}
	dctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	var lists *neighbor.Lists
	if startTours == "nn" && n <= climbHostNNMaxN {
		lists, _ = neighbor.NearestContext(dctx, in, climbHostNNNeighbors)
	}
	restart := func(k int) error {
		var t []int
		if k == 0 && len(p.Start) == n {
			t = append([]int(nil), p.Start...)
		} else if lists != nil {
			t, _ = construct.RandomizedNearestNeighborContext(dctx, in, rng.IntN(n), lists, rng, climbNNSecond)
		}
		if t == nil {
			t = construct.Random(n, rng)
		}
		return b.upload(k, xy, scale, t)
	}
	stop := func() bool { return ctx.Err() != nil || time.Now().After(deadline) }
	if err := r.do(func() error {
		for k := 0; k < B; k++ {
			if k%64 == 0 && stop() {
				return nil
			}
			if err := restart(k); err != nil {
				return err
			}
		}
		return nil
	}); err != nil {
		return solver.Result{}, err
	}
	// (evaluate, apply) pairs per host round trip: 32, fewer when one pass
	// of the batch is so large (about 1e9 moves and up) that 32 would
	// overrun the time limit.
	rounds := int(min(max(int64(3e10)/(int64(B)*movesPerPass(n)), 1), 32))
	var best []int
	bestLen := int64(-1)
	var moves, climbs int64
	flags := make([]int32, B)
	city := make([]int32, B*n)
	stopped := false
	for {
		if stop() {
			stopped = true
			break
		}
		complete := true
		err := r.do(func() error {
			for k := 0; k < rounds && complete; k++ {
				var err error
				if complete, err = b.evalPass(stop); err != nil {
					return err
				}
				if complete {
					if err := b.applyBest(1e-3); err != nil {
						return err
					}
					moves += int64(B) * movesPerPass(n)
				}
			}
			if err := r.sync("2-opt climb"); err != nil {
				return err
			}
			if err := dtoh(flags, b.flags); err != nil {
				return err
			}
			return dtoh(city, b.city)
		})
		if err != nil {
			return solver.Result{}, err
		}
		if err := harvestClimbers(r, in, flags, city, &best, &bestLen, &climbs, restart); err != nil {
			return solver.Result{}, err
		}
		if best == nil {
			sink.SendPhase(solver.PhaseSearch, float64(time.Since(start))/float64(p.TimeLimit))
		}
		if sink.Due() && best != nil {
			sink.Send(solver.Snapshot{Phase: solver.PhaseSearch, PhaseProgress: float64(time.Since(start)) / float64(p.TimeLimit),
				Best: append([]int(nil), best...), BestLength: bestLen, Length: bestLen, Step: climbs, Moves: moves,
				Progress: float64(time.Since(start)) / float64(p.TimeLimit)})
		}
		if p.Target > 0 && bestLen >= 0 && bestLen <= p.Target {
			break
		}
		if restarts > 0 && climbs >= int64(restarts) {
			break
		}
	}
	if best == nil { // no climber finished: take climber 0 as it stands
		best = make([]int, n)
		for i := range best {
			best[i] = int(city[i])
		}
	} else {
		// A tour cut short is not polished: that would be a whole CPU
		// 2-opt run.
		polishClimb(ctx, in, sink, best, deadline)
	}
	return finishClimbs(e, in, p, sink, best, moves, climbs, start, stopped, r.d.label)
}
