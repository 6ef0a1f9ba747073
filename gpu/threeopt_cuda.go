//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

func init() {
	registerKernels("threeopt_apply")
	for _, s := range []string{"mat", "euc", "ceil", "att"} {
		registerKernels("threeopt_eval_"+s, "threeopt_deltas_"+s)
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

// threeOpt is one 3-opt local search on the device: the tour (positions
// and their inverse), the candidate lists, the blocks' best moves.
type threeOpt struct {
	r          *run
	n          int
	dist       lsDist
	bufs       buffers
	tour, pos  cu.DevicePtr // n int32 each
	nbr        cu.DevicePtr // n*K int32
	K          int
	best       cu.DevicePtr // G lsBest
	scratch    cu.DevicePtr // n int32
	state      cu.DevicePtr // 3 int64: rounds, moves applied, last improving round
	length     cu.DevicePtr // 1 int64
	G, T, S, k int
	seed       uint64
	iter       int64
}

// movesPerRound is the number of moves one evaluation launch evaluates
// (four reconnections per sample).
func (o *threeOpt) movesPerRound() int64 { return int64(o.G) * int64(o.T) * int64(o.S) * 4 }

// newThreeOpt allocates the search (context thread).
func (r *run) newThreeOpt(in *solver.Instance, nb *neighbor.Lists, matrix bool, G, T, S, k int, seed uint64) (*threeOpt, error) {
	o := &threeOpt{r: r, n: in.N, G: G, T: T, S: S, k: k, seed: seed, K: nb.K}
	fail := func(e error) (*threeOpt, error) { o.bufs.freeAll(); return nil, e }
	var err error
	if o.dist, err = newLSDist(&o.bufs, in, matrix); err != nil {
		return fail(err)
	}
	for _, p := range []*cu.DevicePtr{&o.tour, &o.pos, &o.scratch} {
		if *p, err = o.bufs.alloc(int64(in.N) * 4); err != nil {
			return fail(err)
		}
	}
	if o.nbr, err = o.bufs.alloc(int64(len(nb.List)) * 4); err != nil {
		return fail(err)
	}
	if err := htod(o.nbr, nb.List); err != nil {
		return fail(err)
	}
	if o.best, err = o.bufs.alloc(int64(G) * 16); err != nil {
		return fail(err)
	}
	if o.state, err = o.bufs.alloc(3 * 8); err != nil {
		return fail(err)
	}
	if o.length, err = o.bufs.alloc(8); err != nil {
		return fail(err)
	}
	if err := htod(o.state, make([]int64, 3)); err != nil {
		return fail(err)
	}
	return o, nil
}

func (o *threeOpt) free() error { return o.bufs.freeAll() }

// upload sets the tour, its inverse and its length (context thread).
func (o *threeOpt) upload(t []int, length int64) error {
	c := make([]int32, o.n)
	pos := make([]int32, o.n)
	for i, v := range t {
		c[i] = int32(v)
		pos[v] = int32(i)
	}
	if err := htod(o.tour, c); err != nil {
		return err
	}
	if err := htod(o.pos, pos); err != nil {
		return err
	}
	return htod(o.length, []int64{length})
}

// round queues one evaluation and one replacement.
func (o *threeOpt) round() error {
	o.iter++
	if err := o.r.launch("threeopt_eval_"+o.dist.suffix, o.G, 1, o.T, 0, o.r.stream,
		o.dist.xy, o.dist.mat, o.n, o.tour, o.pos, o.nbr, o.K, o.seed, o.iter, o.S, o.best); err != nil {
		return err
	}
	return o.r.launch("threeopt_apply", 1, 1, o.r.block("threeopt_apply", 1024), 0, o.r.stream,
		o.tour, o.pos, o.n, o.best, o.G, o.k, o.seed, o.iter, o.scratch, o.state, o.length)
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
	state := make([]int64, 3)
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
