package anneal

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/lab"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cooling"
)

// barrier is a reusable spin-then-yield barrier for a fixed number of goroutines.
type barrier struct {
	n     int32
	count atomic.Int32
	gen   atomic.Uint32
}

func (b *barrier) wait() {
	g := b.gen.Load()
	if b.count.Add(1) == b.n {
		b.count.Store(0)
		b.gen.Add(1)
		return
	}
	for i := 0; b.gen.Load() == g; i++ {
		if i > 100 {
			runtime.Gosched()
		}
	}
}

// minMovesPerWorker is the fewest moves per iteration worth a barrier per worker.
const minMovesPerWorker = 64

// candidate is a worker's best proposal of one SSPM iteration.
type candidate struct {
	delta int64
	c, a  int32
	j     int32 // index of the move among the Pm, for a deterministic tie-break
	_     [40]byte
}

// sspmEngine is Lam et al.'s SSPM: Pm moves per iteration evaluated by the workers, each on a replica applying the same move.
type sspmEngine struct{ runctl.Identity }

func (e sspmEngine) Solve(ctx context.Context, in *solver.Instance, q solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	fit := cooling.FitsToLimit(ctx, q)
	p, _, err := saPrepare(e, in, q, false, fit)
	if err != nil {
		return solver.Result{}, err
	}
	if p.Threads == 0 {
		p.Threads = p.Workers // Pm = all cores (their CPU SSPM)
	}
	p.Blocks = 1
	if in.N < 4 {
		return trivial(in, e, p, snaps)
	}
	// Below minMovesPerWorker moves per worker one core is faster; the search is the same.
	w := max(1, min(p.Workers, p.Threads/minMovesPerWorker))
	if w == 1 {
		return saRun(ctx, e, in, p, snaps, 1, p.Threads, 1, false, fit)
	}
	return sspmParallel(ctx, e, in, p, snaps, w, fit)
}

// sspmRun is what the workers of one parallel SSPM run share.
type sspmRun struct {
	*saShared
	p     solver.Anneal
	w, pm int
	reps  []*saSearch
	slots [2][]candidate
	bar   *barrier
	// haltAt is the global iteration after whose barrier every worker stops.
	haltAt atomic.Int64
	// plan[st&1] is step st, written by worker 0 before step st-1's last barrier
	plan      [2]saStep
	nextT     float64
	stepsDone atomic.Int64
	lastT     float64
}

func sspmParallel(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Anneal, snaps chan solver.Snapshot, w int, fit bool) (solver.Result, error) {
	sh, t0, err := newSAShared(ctx, in, p, snaps, w, fit)
	if err != nil {
		return solver.Result{}, err
	}
	if t0 == nil {
		t0 = runctl.NewRand(p.Seed, runctl.StreamSSPMStart).RandomTour(in.N)
	}
	r := &sspmRun{saShared: sh, p: p, w: w, pm: p.Threads, reps: make([]*saSearch, w), bar: &barrier{n: int32(w)}}
	r.slots[0], r.slots[1] = make([]candidate, w), make([]candidate, w)
	r.haltAt.Store(-1)
	for wk := range r.reps {
		r.reps[wk] = newSearch(r.d, t0, runctl.NewRand(p.Seed, uint64(wk)))
		r.reps[wk].nb, r.reps[wk].k = r.near.nb, r.near.k
	}
	r.startCooling(in, p, fit)
	a, k := r.cool.Next(p.T0, 0, 0)
	r.plan[0] = saStep{p.T0, k}
	r.nextT = p.T0 * a
	var wg sync.WaitGroup
	for wk := range w {
		wg.Go(func() { r.work(wk) })
	}
	wg.Wait()
	return r.finish(e, in, p, r.reps[:1], w, r.stepsDone.Load(), r.lastT, true)
}

// work is worker wk's part: its share of each iteration's moves, the barrier, the chosen move.
func (r *sspmRun) work(wk int) {
	s, pm := r.reps[wk], r.pm
	dec := runctl.NewRand(r.p.Seed, runctl.StreamSSPMDecide) // identical on every worker
	lead := sspmLead{checkIters: int64(max(1, runctl.CheckEvery/pm))}
	par := 0
	var done int64 // iterations of the steps finished
	g := int64(-1) // global iteration
	for st := int64(0); ; st++ {
		sp := r.plan[st&1]
		if sp.iters == 0 {
			return
		}
		s.near = r.near.nb != nil && sp.t < r.near.from
		for it := int64(0); it < sp.iters; it++ {
			g++
			r.slots[par][wk] = r.propose(s, wk)
			if wk == 0 {
				r.lead(&lead, s, g, st, it, done, sp)
			}
			r.bar.wait()
			if h := r.haltAt.Load(); h >= 0 && h <= g {
				return
			}
			win := r.winner(par)
			if metropolis(dec, win.delta, sp.t) {
				if wk != 0 {
					s.bestLen = s.cur // replicas do not keep a best
				}
				s.apply(win.c, win.a, win.delta)
			}
			par ^= 1
		}
		done += sp.iters
		if wk == 0 {
			r.stepsDone.Store(st + 1)
			r.lastT = sp.t
			r.c.Moves[0].V.Store(done * int64(pm))
		}
	}
}

// propose is worker wk's best of its share of one iteration's moves on replica s.
func (r *sspmRun) propose(s *saSearch, wk int) candidate {
	best := candidate{delta: 1<<62 - 1, j: -1}
	for j := wk; j < r.pm; j += r.w {
		cc, a, delta := s.propose()
		if delta < best.delta {
			best = candidate{delta: delta, c: cc, a: a, j: int32(j)}
		}
	}
	return best
}

// winner is the iteration's move: the workers' best, ties to the lowest move index.
func (r *sspmRun) winner(par int) candidate {
	win := r.slots[par][0]
	for _, x := range r.slots[par][1:] {
		if x.j >= 0 && (x.delta < win.delta || (x.delta == win.delta && x.j < win.j)) {
			win = x
		}
	}
	return win
}

// sspmLead is worker 0's state for the run's bookkeeping.
type sspmLead struct {
	checkIters int64 // iterations between looks at the clock
	nextOffer  time.Time
	buf        []int32
}

// lead is worker 0's bookkeeping in iteration it of step st: moves, best, stop, snapshots and the next step's plan.
func (r *sspmRun) lead(l *sspmLead, s *saSearch, g, st, it, done int64, sp saStep) {
	c := r.c
	if it%l.checkIters == 0 {
		c.Moves[0].V.Store((done + it) * int64(r.pm))
		if now := time.Now(); !now.Before(l.nextOffer) {
			c.OfferFn(s.bestLength(), s.best)
			l.nextOffer = now.Add(offerEvery)
		}
		if c.Done() {
			r.haltAt.Store(g)
		} else if c.SnapshotDue() {
			l.buf = r.snapshot(s, l.buf, st, sp.t, 0)
		}
	}
	if it == sp.iters-1 {
		r.planNext(st, done+sp.iters)
	}
}

// planNext plans step st+1 after done iterations (worker 0).
func (r *sspmRun) planNext(st, done int64) {
	next := saStep{}
	if r.nextT > r.p.TEnd {
		a, k := r.cool.Next(r.nextT, done, time.Since(r.coolStart))
		next = saStep{r.nextT, k}
		r.nextT *= a
	}
	r.plan[(st+1)&1] = next
}

func init() {
	lab.Register(sspmEngine{runctl.Identity{ID: "sspm", Desc: "single search, parallel moves (Lam et al.): Threads (Pm) moves per iteration, the best tested by Metropolis; split over the cores when each gets 64 or more"}}, annealSpecs["sspm"])
}
