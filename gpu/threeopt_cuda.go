//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

func init() {
	registerKernels("threeopt_apply")
	for _, s := range []string{"mat", "euc", "ceil", "att"} {
		registerKernels("threeopt_eval_"+s, "threeopt_deltas_"+s, "threeopt_ils_apply_"+s)
	}
}

// threeOptNeighbors is the candidate list size that guides 3-opt sampling.
const threeOptNeighbors = 10

// threeOptRounds is the number of (evaluate, replace) pairs queued per host
// round trip, and threeOptPatience the rounds in a row without an improving
// sample after which the tour counts as 3-opt optimal.
const (
	threeOptRounds   = 8
	threeOptPatience = 6
)

// threeOptDeviceRounds is the number of rounds queued per host round trip
// when the iterated local search runs on the device, and threeOptWindow
// the kick's window (as the host loop's doubleBridge).
const (
	threeOptDeviceRounds = 32
	threeOptWindow       = 100
)

// The counters of state (kernels/threeopt.cu, THREE_*).
const (
	threeRounds = iota
	threeMoves
	threeLast
	threeKicks
	threeDone
	threeState
)

// threeOpt is one 3-opt local search on the device, or P of them side by
// side (a population of the device-side iterated local search, each
// solution with its own row of G blocks): the tours (positions and their
// inverse), the candidate lists, the blocks' best moves. Solution s's
// arrays are at offset s times the sizes below.
type threeOpt struct {
	r          *run
	n, P       int
	dist       lsDist
	bufs       buffers
	tour, pos  cu.DevicePtr // n int32 each
	nbr        cu.DevicePtr // n*K int32 (shared)
	K          int
	best       cu.DevicePtr // G lsBest
	scratch    cu.DevicePtr // n int32
	state      cu.DevicePtr // threeState int64: rounds, moves applied, last improving round, kicks, done
	length     cu.DevicePtr // 1 int64
	bestTour   cu.DevicePtr // n int32: the device-side search's best tour
	bestLen    cu.DevicePtr // 1 int64: its length in the kernels' distances
	G, T, S, k int
	seed       uint64
	iter       int64
}

// movesPerRound is the number of moves one evaluation launch evaluates
// for one solution (four reconnections per sample).
func (o *threeOpt) movesPerRound() int64 { return int64(o.G) * int64(o.T) * int64(o.S) * 4 }

// newThreeOpt allocates the search (context thread).
func (r *run) newThreeOpt(in *solver.Instance, nb *neighbor.Lists, matrix bool, G, T, S, k int, seed uint64) (*threeOpt, error) {
	return r.newThreeOptPop(in, nb, matrix, G, T, S, k, seed, 1)
}

// newThreeOptPop allocates P searches side by side (context thread).
func (r *run) newThreeOptPop(in *solver.Instance, nb *neighbor.Lists, matrix bool, G, T, S, k int, seed uint64, P int) (*threeOpt, error) {
	o := &threeOpt{r: r, n: in.N, P: P, G: G, T: T, S: S, k: k, seed: seed, K: nb.K}
	fail := func(e error) (*threeOpt, error) { o.bufs.freeAll(); return nil, e }
	var err error
	if o.dist, err = newLSDist(&o.bufs, in, matrix); err != nil {
		return fail(err)
	}
	for _, p := range []*cu.DevicePtr{&o.tour, &o.pos, &o.scratch, &o.bestTour} {
		if *p, err = o.bufs.alloc(int64(P) * int64(in.N) * 4); err != nil {
			return fail(err)
		}
	}
	if o.nbr, err = o.bufs.alloc(int64(len(nb.List)) * 4); err != nil {
		return fail(err)
	}
	if err := htod(o.nbr, nb.List); err != nil {
		return fail(err)
	}
	if o.best, err = o.bufs.alloc(int64(P) * int64(G) * 16); err != nil {
		return fail(err)
	}
	if o.state, err = o.bufs.alloc(int64(P) * threeState * 8); err != nil {
		return fail(err)
	}
	if o.length, err = o.bufs.alloc(int64(P) * 8); err != nil {
		return fail(err)
	}
	if o.bestLen, err = o.bufs.alloc(int64(P) * 8); err != nil {
		return fail(err)
	}
	if err := htod(o.state, make([]int64, P*threeState)); err != nil {
		return fail(err)
	}
	return o, nil
}

func (o *threeOpt) free() error { return o.bufs.freeAll() }

// upload sets the tour, its inverse and its length, of every solution
// (context thread).
func (o *threeOpt) upload(t []int, length int64) error {
	c := make([]int32, o.P*o.n)
	pos := make([]int32, o.P*o.n)
	for i, v := range t {
		c[i] = int32(v)
		pos[v] = int32(i)
	}
	for s := 1; s < o.P; s++ {
		copy(c[s*o.n:], c[:o.n])
		copy(pos[s*o.n:], pos[:o.n])
	}
	if err := htod(o.tour, c); err != nil {
		return err
	}
	if err := htod(o.pos, pos); err != nil {
		return err
	}
	l := make([]int64, o.P)
	for s := range l {
		l[s] = length
	}
	return htod(o.length, l)
}

// round queues one evaluation and one replacement.
func (o *threeOpt) round() error {
	o.iter++
	if err := o.r.launch("threeopt_eval_"+o.dist.suffix, o.G, 1, o.T, 0, o.r.stream,
		o.dist.xy, o.dist.mat, o.n, o.tour, o.pos, o.nbr, o.K, o.seed, o.iter, o.S, o.state, o.best); err != nil {
		return err
	}
	return o.r.launch("threeopt_apply", 1, 1, o.r.block("threeopt_apply", 1024), 0, o.r.stream,
		o.tour, o.pos, o.n, o.best, o.G, o.k, o.seed, o.iter, o.scratch, o.state, o.length)
}

// ilsRound queues one round of the device-side iterated local search:
// the evaluation, then the replacement that also ends the local search,
// accepts and kicks (threeopt_ils_apply).
func (o *threeOpt) ilsRound(maxKicks int64) error {
	o.iter++
	if err := o.r.launch("threeopt_eval_"+o.dist.suffix, o.G, o.P, o.T, 0, o.r.stream,
		o.dist.xy, o.dist.mat, o.n, o.tour, o.pos, o.nbr, o.K, o.seed, o.iter, o.S, o.state, o.best); err != nil {
		return err
	}
	name := "threeopt_ils_apply_" + o.dist.suffix
	return o.r.launch(name, o.P, 1, o.r.block(name, 1024), 0, o.r.stream,
		o.dist.xy, o.dist.mat, o.tour, o.pos, o.n, o.best, o.G, o.k, o.seed, o.iter, o.scratch, o.state, o.length,
		o.bestTour, o.bestLen, maxKicks, int64(threeOptPatience), int64(threeOptWindow))
}

// startILS sets the device-side searches going from the uploaded tours:
// no best yet (the first local minimum is accepted), counters at zero
// (context thread).
func (o *threeOpt) startILS() error {
	l := make([]int64, o.P)
	for s := range l {
		l[s] = math.MaxInt64
	}
	if err := htod(o.bestLen, l); err != nil {
		return err
	}
	if err := cu.MemcpyDtoDAsync(o.bestTour, o.tour, int64(o.P)*int64(o.n)*4, o.r.stream); err != nil {
		return err
	}
	if err := o.r.stream.Synchronize(); err != nil {
		return err
	}
	return htod(o.state, make([]int64, o.P*threeState))
}

// downloadSol copies solution s's n cities at src (a tour array of the
// population) to dst (context thread).
func (o *threeOpt) downloadSol(dst []int, src cu.DevicePtr, s int) error {
	c := make([]int32, o.n)
	if err := dtoh(c, src+cu.DevicePtr(int64(s)*int64(o.n)*4)); err != nil {
		return err
	}
	for i, v := range c {
		dst[i] = int(v)
	}
	return nil
}

// downloadBest copies the device-side search's best tour back (context
// thread).
func (o *threeOpt) downloadBest(dst []int) error { return o.downloadSol(dst, o.bestTour, 0) }

// bestSolution returns the solution whose best length (the kernels'
// distances) is the shortest, and that length (context thread).
func (o *threeOpt) bestSolution() (int, int64, error) {
	l := make([]int64, o.P)
	if err := dtoh(l, o.bestLen); err != nil {
		return 0, 0, err
	}
	s := 0
	for i, v := range l {
		if v < l[s] {
			s = i
		}
	}
	return s, l[s], nil
}

// deviceILS runs the iterated local search on the device, every solution
// of the population at once: rounds queued threeOptDeviceRounds at a time
// until the kernels report every solution's maxKicks kicks made (0: none
// asked, the deadline ends it), the deadline passes or ctx ends. best gets
// the best solution's best tour and its tour in hand (by the kernels'
// lengths; best measures them exactly); the returned counters are the
// kicks and rounds made, summed over the solutions.
func (o *threeOpt) deviceILS(ctx context.Context, deadline time.Time, maxKicks int64, best *ilsBest) (kicks, rounds int64, stopped bool, err error) {
	if maxKicks <= 0 {
		maxKicks = math.MaxInt64
	}
	if err := o.r.do(o.startILS); err != nil {
		return 0, 0, false, err
	}
	state := make([]int64, o.P*threeState)
	sum := func(i int) (v int64, all bool) {
		all = true
		for s := 0; s < o.P; s++ {
			v += state[s*threeState+i]
			all = all && state[s*threeState+threeDone] != 0
		}
		return v, all
	}
	cur := make([]int, o.n)
	// take offers solution sol's best tour, then (tour too) its tour in hand
	take := func(sol int, tour bool) error {
		if err := o.downloadSol(cur, o.bestTour, sol); err != nil {
			return err
		}
		best.offer(cur)
		if !tour {
			return nil
		}
		if err := o.downloadSol(cur, o.tour, sol); err != nil {
			return err
		}
		best.offer(cur)
		return nil
	}
	for {
		if ctx.Err() != nil || time.Now().After(deadline) {
			stopped = true
			break
		}
		due := best.sink.Due()
		var bl int64
		var look bool
		err := o.r.do(func() error {
			for range threeOptDeviceRounds {
				if err := o.ilsRound(maxKicks); err != nil {
					return err
				}
			}
			if err := o.r.stream.Synchronize(); err != nil {
				return fmt.Errorf("3-opt iterated local search failed: %w", err)
			}
			if err := dtoh(state, o.state); err != nil {
				return err
			}
			if !due && best.p.Target <= 0 {
				return nil
			}
			sol, l, err := o.bestSolution()
			if err != nil {
				return err
			}
			bl = l
			// before its first local minimum a search has no best yet
			look = bl != math.MaxInt64 && (due || bl <= best.p.Target)
			if look {
				return take(sol, false)
			}
			return nil
		})
		if err != nil {
			kicks, _ = sum(threeKicks)
			rounds, _ = sum(threeRounds)
			return kicks, rounds, false, err
		}
		if _, all := sum(threeDone); all {
			break
		}
		if look {
			k, _ := sum(threeKicks)
			r, _ := sum(threeRounds)
			best.snapshot(cur, k, r*o.movesPerRound())
			if end, st := best.done(ctx, deadline); end {
				stopped = st
				break
			}
		}
	}
	// the best solution's best tour (before its first local minimum, its
	// start) and its tour in hand
	err = o.r.do(func() error {
		if err := dtoh(state, o.state); err != nil {
			return err
		}
		sol, _, err := o.bestSolution()
		if err != nil {
			return err
		}
		return take(sol, true)
	})
	kicks, _ = sum(threeKicks)
	rounds, _ = sum(threeRounds)
	return kicks, rounds, stopped, err
}

// download copies the tour back (context thread, after a sync).
func (o *threeOpt) download(dst []int) error {
	c := make([]int32, o.n)
	if err := dtoh(c, o.tour); err != nil {
		return err
	}
	for i, v := range c {
		dst[i] = int(v)
	}
	return nil
}

// localSearch runs rounds until threeOptPatience rounds in a row find no
// improving move, the deadline passes or ctx ends, and returns the rounds
// run and whether the search stopped early.
func (o *threeOpt) localSearch(ctx context.Context, deadline time.Time) (rounds int64, early bool, err error) {
	state := make([]int64, threeState)
	err = o.r.do(func() error {
		if err := dtoh(state, o.state); err != nil {
			return err
		}
		state[2] = state[0] // patience counts from here
		return htod(o.state, state)
	})
	if err != nil {
		return 0, false, err
	}
	r0 := state[0]
	for {
		if ctx.Err() != nil || (!deadline.IsZero() && time.Now().After(deadline)) {
			return state[0] - r0, true, nil
		}
		err := o.r.do(func() error {
			for r := 0; r < threeOptRounds; r++ {
				if err := o.round(); err != nil {
					return err
				}
			}
			if err := o.r.stream.Synchronize(); err != nil {
				return fmt.Errorf("3-opt local search failed: %w", err)
			}
			return dtoh(state, o.state)
		})
		if err != nil {
			return state[0] - r0, false, err
		}
		if state[0]-state[2] >= threeOptPatience {
			return state[0] - r0, false, nil
		}
	}
}

// solveThreeOptILS is the GPU 3opt-ils engine: Delévacq et al.'s
// ILS-RKBI_blocks. The local search is the device's sampled 3-opt
// (threeopt.cu: evaluation kernel, block reduction, replacement kernel with
// random-k-best-improvement pivoting); around it the host runs iterated
// local search: a segment-local double-bridge kick of the best tour, local
// search, accept when no worse (exact length on the CPU).
func solveThreeOptILS(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	r, err := newRun()
	if err != nil {
		return solver.Result{}, err
	}
	defer r.close()
	matrix, err := lsDistMode(in, p.Extra[OptDist])
	if err != nil {
		return solver.Result{}, err
	}
	// solver.Validate (engine.Solve) has checked both against the table.
	opts := solver.OptionsFor(e.Name(), e.Backend())
	k, err := opts.Int(p, OptRKBI)
	if err != nil {
		return solver.Result{}, err
	}
	S, err := opts.Int(p, OptSamples)
	if err != nil {
		return solver.Result{}, err
	}
	maxKicks, err := opts.Int(p, OptKicks)
	if err != nil {
		return solver.Result{}, err
	}
	p.Algorithm, p.Backend = AlgoThreeOptILS, solver.BackendGPU
	var deadline time.Time
	switch {
	case p.TimeLimit > 0:
		deadline = start.Add(p.TimeLimit)
	case maxKicks > 0: // the kicks end the run
		deadline = start.Add(100 * 365 * 24 * time.Hour)
	default:
		p.TimeLimit = solver.DefaultTimeLimit
		deadline = start.Add(p.TimeLimit)
	}
	if p.Blocks <= 0 {
		p.Blocks = 4 * r.d.info.Multiprocs
	}
	if p.Threads <= 0 {
		p.Threads = 256
	}
	p.Threads = min(max(32, p.Threads/32*32), 1024)
	sink := solver.NewSink(snaps, 0, start)
	rng := rand.New(rand.NewPCG(p.Seed, 0x3097))
	nb, cur, ok := startTour(ctx, deadline, in, p, threeOptNeighbors, sink)
	if !ok {
		return finishEarly(in, e, p, start, sink, r.d.label)
	}
	sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	var o *threeOpt
	err = r.do(func() (err error) {
		if o, err = r.newThreeOpt(in, nb, matrix, p.Blocks, p.Threads, S, k, p.Seed); err != nil {
			return err
		}
		return o.upload(cur, solver.TourLength(in, cur))
	})
	if err != nil {
		return solver.Result{}, err
	}
	defer r.do(o.free)

	var rounds, kicks int64
	best := newILSBest(in, p, start, sink)
	stopped := false
	if p.Extra[OptLoop] != "host" {
		kicks, rounds, stopped, err = o.deviceILS(ctx, deadline, int64(maxKicks), best)
		if err != nil {
			return solver.Result{}, err
		}
		return best.finish(e, kicks, rounds*o.movesPerRound(), stopped, r.d.label)
	}
	for {
		lsRounds, early, err := o.localSearch(ctx, deadline)
		rounds += lsRounds
		if err != nil {
			return solver.Result{}, err
		}
		if err := r.do(func() error { return o.download(cur) }); err != nil {
			return solver.Result{}, err
		}
		best.offer(cur)
		best.snapshot(cur, kicks, rounds*o.movesPerRound())
		if early {
			stopped = true
			break
		}
		if end, st := best.done(ctx, deadline); end {
			stopped = st
			break
		}
		if maxKicks > 0 && kicks >= int64(maxKicks) {
			break
		}
		best.kick(cur, rng)
		kicks++
		if err := r.do(func() error { return o.upload(cur, solver.TourLength(in, cur)) }); err != nil {
			return solver.Result{}, err
		}
	}
	return best.finish(e, kicks, rounds*o.movesPerRound(), stopped, r.d.label)
}

// ThreeOptPopulation runs Delévacq et al.'s ILS-RKBI_blocks population:
// nb independent 3opt-ils searches of itLim kicks each from the greedy
// tour, all in the same launches (an evaluation grid of blocks × nb,
// threads each, and one replacement block per solution), with the
// engine's defaults otherwise (dist, rkbi_k, samples) and the iterated
// local search on the device. Solution s has seed seed ^ s·0x9E3779B97F4A7C15,
// solution 0 seed itself: it makes the moves the engine makes with that
// seed, blocks, threads and kicks. It returns the population's best tour
// (the kernels' lengths pick the solution) with its exact length, the kicks
// made by all solutions, the time from the neighbour lists to the result
// and the device.
func ThreeOptPopulation(ctx context.Context, in *solver.Instance, nb, itLim, blocks, threads int, seed uint64) (tour []int, length, kicks int64, elapsed time.Duration, device string, err error) {
	start := time.Now()
	if nb < 1 || itLim < 1 || blocks < 1 || threads < 32 || in.N < 8 {
		return nil, 0, 0, 0, "", fmt.Errorf("3opt-ils population: %d solutions of %d kicks, %d blocks of %d threads, %d cities", nb, itLim, blocks, threads, in.N)
	}
	e, err := solver.Lookup(AlgoThreeOptILS, solver.BackendGPU)
	if err != nil {
		return nil, 0, 0, 0, "", err
	}
	p := solver.Params{Algorithm: AlgoThreeOptILS, Backend: solver.BackendGPU, Seed: seed, Blocks: blocks, Threads: min(threads/32*32, 1024),
		Extra: map[string]string{OptKicks: fmt.Sprint(itLim)}}
	opts := solver.OptionsFor(AlgoThreeOptILS, solver.BackendGPU)
	k, err := opts.Int(p, OptRKBI)
	if err != nil {
		return nil, 0, 0, 0, "", err
	}
	S, err := opts.Int(p, OptSamples)
	if err != nil {
		return nil, 0, 0, 0, "", err
	}
	matrix, err := lsDistMode(in, "")
	if err != nil {
		return nil, 0, 0, 0, "", err
	}
	r, err := newRun()
	if err != nil {
		return nil, 0, 0, 0, "", err
	}
	defer r.close()
	far := start.Add(100 * 365 * 24 * time.Hour)
	nbl, cur, ok := startTour(ctx, far, in, p, threeOptNeighbors, nil)
	if !ok {
		return nil, 0, 0, 0, "", fmt.Errorf("3opt-ils population: stopped during the set-up: %w", ctx.Err())
	}
	var o *threeOpt
	err = r.do(func() (err error) {
		if o, err = r.newThreeOptPop(in, nbl, matrix, blocks, p.Threads, S, k, seed, nb); err != nil {
			return err
		}
		return o.upload(cur, solver.TourLength(in, cur))
	})
	if err != nil {
		return nil, 0, 0, 0, "", err
	}
	defer r.do(o.free)
	p.TimeLimit = solver.DefaultTimeLimit // what ilsBest's snapshots divide by; none are sent
	best := newILSBest(in, p, start, nil)
	kicks, _, _, err = o.deviceILS(ctx, far, int64(itLim), best)
	if err != nil {
		return nil, 0, 0, 0, "", err
	}
	if ctx.Err() != nil {
		return nil, 0, 0, 0, "", ctx.Err()
	}
	res, err := best.finish(e, kicks, 0, false, r.d.label)
	if err != nil {
		return nil, 0, 0, 0, "", err
	}
	return res.Tour, res.Length, kicks, time.Since(start), res.Device, nil
}
