//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
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
// of the population at once, in l's loop: rounds queued
// threeOptDeviceRounds at a time until the kernels report every
// solution's maxKicks kicks made (0: none asked, the deadline ends it),
// the deadline passes, ctx ends or the target is reached. l gets the best
// solution's best tour and its tour in hand (by the kernels' lengths; l
// measures them exactly), and the kicks and moves made, summed over the
// solutions.
func (o *threeOpt) deviceILS(l *runLoop, maxKicks int64) error {
	if maxKicks <= 0 {
		maxKicks = math.MaxInt64
	}
	if err := o.r.do(o.startILS); err != nil {
		return err
	}
	d := &threeOptDeviceILS{o: o, l: l, maxKicks: maxKicks, state: make([]int64, o.P*threeState), cur: make([]int, o.n)}
	err := l.run(d.step, d.view)
	if err == nil {
		// the best solution's best tour (before its first local minimum,
		// its start) and its tour in hand
		err = o.r.do(func() error {
			if err := dtoh(d.state, o.state); err != nil {
				return err
			}
			sol, _, err := o.bestSolution()
			if err != nil {
				return err
			}
			return d.take(sol, true)
		})
	}
	d.count()
	return err
}

// threeOptDeviceILS is the host's side of deviceILS: the solutions'
// state as last read back, and the tour last taken.
type threeOptDeviceILS struct {
	o        *threeOpt
	l        *runLoop
	maxKicks int64
	state    []int64
	cur      []int
	looked   bool // the last step took the best solution's tour into cur
}

// sum adds state field i over the solutions; all says whether every
// solution is done.
func (d *threeOptDeviceILS) sum(i int) (v int64, all bool) {
	all = true
	for s := 0; s < d.o.P; s++ {
		v += d.state[s*threeState+i]
		all = all && d.state[s*threeState+threeDone] != 0
	}
	return v, all
}

// count sets the loop's counters: kicks, and the moves of the rounds.
func (d *threeOptDeviceILS) count() {
	k, _ := d.sum(threeKicks)
	r, _ := d.sum(threeRounds)
	d.l.steps, d.l.moves = k, r*d.o.movesPerRound()
}

// take offers solution sol's best tour, then (tour too) its tour in hand
// (context thread).
func (d *threeOptDeviceILS) take(sol int, tour bool) error {
	if err := d.o.downloadSol(d.cur, d.o.bestTour, sol); err != nil {
		return err
	}
	d.l.offer(d.cur)
	if !tour {
		return nil
	}
	if err := d.o.downloadSol(d.cur, d.o.tour, sol); err != nil {
		return err
	}
	d.l.offer(d.cur)
	return nil
}

// step queues threeOptDeviceRounds rounds and reads the state back; when
// a snapshot is due or a target is set it takes the best solution's best
// tour. It is done when every solution has made its kicks.
func (d *threeOptDeviceILS) step() (done bool, err error) {
	o, l := d.o, d.l
	due := l.due
	d.looked = false
	err = o.r.do(func() error {
		for range threeOptDeviceRounds {
			if err := o.ilsRound(d.maxKicks); err != nil {
				return err
			}
		}
		if err := o.r.stream.Synchronize(); err != nil {
			return fmt.Errorf("3-opt iterated local search failed: %w", err)
		}
		if err := dtoh(d.state, o.state); err != nil {
			return err
		}
		if !due && l.p.Target <= 0 {
			return nil
		}
		sol, bl, err := o.bestSolution()
		if err != nil {
			return err
		}
		// before its first local minimum a search has no best yet
		d.looked = bl != math.MaxInt64 && (due || bl <= l.p.Target)
		if d.looked {
			return d.take(sol, false)
		}
		return nil
	})
	d.count()
	_, all := d.sum(threeDone)
	return all, err
}

// view shows the tour the step took beside the best.
func (d *threeOptDeviceILS) view(s *solver.Snapshot) error {
	if d.looked {
		s.Tour, s.Length = slices.Clone(d.cur), solver.TourLength(d.l.in, d.cur)
	}
	return nil
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
// random-k-best-improvement pivoting); around it the iterated local search
// runs on the device (deviceILS), or with loop=host on the host: a
// segment-local double-bridge kick of the best tour, local search, accept
// when no worse (exact length on the CPU).
func solveThreeOptILS(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	r, err := newRun()
	if err != nil {
		return solver.Result{}, err
	}
	defer r.close()
	cfg, err := threeOptSpec.Parse(in, p)
	if err != nil {
		return solver.Result{}, err
	}
	matrix, err := lsDistMode(in, cfg.Dist)
	if err != nil {
		return solver.Result{}, err
	}
	k, S, maxKicks := cfg.K, cfg.Samples, cfg.Kicks
	p.Algorithm, p.Backend = AlgoThreeOptILS, solver.BackendGPU
	if p.TimeLimit <= 0 && maxKicks <= 0 { // else the kicks end the run
		p.TimeLimit = solver.DefaultTimeLimit
	}
	blocks, threads := cfg.Blocks, min(max(32, cfg.Threads/32*32), 1024)
	if blocks <= 0 {
		blocks = 4 * r.d.info.Multiprocs
	}
	p = p.WithExtra("blocks", strconv.Itoa(blocks)).WithExtra("threads", strconv.Itoa(threads))
	l := newRunLoop(ctx, in, p, snaps, start, 0)
	l.plateau = true
	nb, cur, ok := startTour(ctx, l.deadline, in, p, threeOptNeighbors, l.sink)
	if !ok {
		return finishEarly(in, e, p, start, l.sink, r.d.label)
	}
	l.sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	var o *threeOpt
	err = r.do(func() (err error) {
		if o, err = r.newThreeOpt(in, nb, matrix, blocks, threads, S, k, p.Seed); err != nil {
			return err
		}
		return o.upload(cur, solver.TourLength(in, cur))
	})
	if err != nil {
		return solver.Result{}, err
	}
	defer r.do(o.free)
	if cfg.Loop != "host" {
		err = o.deviceILS(l, int64(maxKicks))
	} else {
		err = o.hostILS(l, cur, int64(maxKicks))
	}
	if err != nil {
		return solver.Result{}, err
	}
	return l.finish(e, r.d.label)
}

// hostILS is the iterated local search with the kicks on the host (the
// loop=host option): from cur, local search on the device, offer, kick the
// best, upload, until maxKicks kicks (0: none asked), or l's loop ends.
func (o *threeOpt) hostILS(l *runLoop, cur []int, maxKicks int64) error {
	rng := rand.New(rand.NewPCG(l.p.Seed, 0x3097))
	var rounds int64
	step := func() (bool, error) {
		lsRounds, early, err := o.localSearch(l.ctx, l.deadline)
		rounds += lsRounds
		l.moves = rounds * o.movesPerRound()
		if err != nil {
			return false, err
		}
		if err := o.r.do(func() error { return o.download(cur) }); err != nil {
			return false, err
		}
		l.offer(cur)
		if early {
			l.stopped = true
			return true, nil
		}
		if l.reached() || (maxKicks > 0 && l.steps >= maxKicks) {
			return true, nil
		}
		l.kick(cur, rng)
		l.steps++
		return false, o.r.do(func() error { return o.upload(cur, solver.TourLength(l.in, cur)) })
	}
	return l.run(step, l.tourView(cur))
}

// ThreeOptPopulation runs Delévacq et al.'s ILS-RKBI_blocks population:
// pop.Solutions independent 3opt-ils searches of pop.Kicks kicks each from
// the greedy tour, all in the same launches (an evaluation grid of
// pop.Blocks × solutions, pop.Threads each, and one replacement block per
// solution), with the engine's defaults otherwise (dist, rkbi_k, samples)
// and the iterated local search on the device. Solution s has seed
// pop.Seed ^ s·0x9E3779B97F4A7C15, solution 0 the seed itself: it makes
// the moves the engine makes with that seed, blocks, threads and kicks.
// The result's tour is the population's best (the kernels' lengths pick
// the solution) with its exact length; Elapsed runs from the neighbour
// lists to the result.
func ThreeOptPopulation(ctx context.Context, in *solver.Instance, pop Population) (PopulationResult, error) {
	start := time.Now()
	if pop.Solutions < 1 || pop.Kicks < 1 || pop.Blocks < 1 || pop.Threads < 32 || in.N < 8 {
		return PopulationResult{}, fmt.Errorf("3opt-ils population: %d solutions of %d kicks, %d blocks of %d threads, %d cities", pop.Solutions, pop.Kicks, pop.Blocks, pop.Threads, in.N)
	}
	e, err := solver.Lookup(AlgoThreeOptILS, solver.BackendGPU)
	if err != nil {
		return PopulationResult{}, err
	}
	threads := min(pop.Threads/32*32, 1024)
	p := solver.Params{Algorithm: AlgoThreeOptILS, Backend: solver.BackendGPU, Seed: pop.Seed,
		Extra: map[string]string{OptKicks: fmt.Sprint(pop.Kicks), "blocks": strconv.Itoa(pop.Blocks), "threads": strconv.Itoa(threads)}}
	cfg, err := threeOptSpec.Parse(in, p)
	if err != nil {
		return PopulationResult{}, err
	}
	k, S := cfg.K, cfg.Samples
	matrix, err := lsDistMode(in, "")
	if err != nil {
		return PopulationResult{}, err
	}
	r, err := newRun()
	if err != nil {
		return PopulationResult{}, err
	}
	defer r.close()
	nbl, cur, ok := startTour(ctx, time.Time{}, in, p, threeOptNeighbors, nil)
	if !ok {
		return PopulationResult{}, fmt.Errorf("3opt-ils population: stopped during the set-up: %w", ctx.Err())
	}
	var o *threeOpt
	err = r.do(func() (err error) {
		if o, err = r.newThreeOptPop(in, nbl, matrix, pop.Blocks, threads, S, k, pop.Seed, pop.Solutions); err != nil {
			return err
		}
		return o.upload(cur, solver.TourLength(in, cur))
	})
	if err != nil {
		return PopulationResult{}, err
	}
	defer r.do(o.free)
	l := newRunLoop(ctx, in, p, nil, start, 0) // no snapshots, no deadline
	l.plateau = true
	if err := o.deviceILS(l, int64(pop.Kicks)); err != nil {
		return PopulationResult{}, err
	}
	if ctx.Err() != nil {
		return PopulationResult{}, ctx.Err()
	}
	res, err := l.finish(e, r.d.label)
	if err != nil {
		return PopulationResult{}, err
	}
	return PopulationResult{Tour: res.Tour, Length: res.Length, Kicks: l.steps, Elapsed: time.Since(start), Device: res.Device}, nil
}
