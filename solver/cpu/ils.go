package cpu

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// ilsConfig is one iterated local search: the move set, the pivoting,
// the acceptance and how the workers cooperate. An engine fixes orOpt and
// start; the other fields come from its options (solver.OptionsFor).
type ilsConfig struct {
	orOpt, threeOpt bool
	acceptEqual     bool   // accept a kick that ties (drift on plateaus)
	start           string // "greedy" or "nn"
	neighbors       int    // candidate list size
	candidates      string // "nearest" or "quadrant"
	maxSeg          int    // kick segment length bound
	sync            int    // kicks per worker between best exchanges (0: independent)
	// stale, when > 0, times n is the number of kicks without an
	// improvement after which a worker escapes: it goes back to its best
	// tour and applies a burst of kicks it accepts whatever they cost.
	stale int
}

// ilsEngine is 2opt-ils, 3opt-ils and auto.
type ilsEngine struct {
	baseEngine
	cfg ilsConfig
}

// Options read from Params.Extra by the iterated local searches.
const (
	// OptKicks bounds the kicks per worker; with no time limit the run is
	// then deterministic for a seed and a worker count.
	OptKicks = "kicks"
	// OptPivot selects the pivoting rule: "first" (default) or "rkbi".
	OptPivot = "pivot"
	// OptRKBI is k of random-k-best-improvement pivoting (default 3).
	OptRKBI = "rkbi_k"
	// OptSync is the kicks per worker between global-best exchanges.
	OptSync = "sync"
	// OptStale is the escape threshold: after stale·n kicks without an
	// improvement a worker restarts from its best tour perturbed by a burst
	// of kicks (0: never).
	OptStale = "stale"
	// OptThreeOpt turns the sequential 3-opt moves on or off ("on", "off").
	OptThreeOpt = "threeopt"
	// OptAccept is the kick acceptance: "better" (strictly shorter) or
	// "equal" (also ties, to drift across plateaus).
	OptAccept = "accept"
	// OptSegment bounds the length of a kick's segments.
	OptSegment = "segment"
	// OptNeighbors is the candidate list size.
	OptNeighbors = "neighbors"
	// OptCandidates selects the candidate lists: "nearest" (the k nearest
	// cities), "quadrant" (k/4 nearest in each quadrant, for clustered
	// instances), "union" (both lists merged), "mixed" (nearest for
	// even-numbered workers, quadrant for odd ones: auto's default, robust
	// on both kinds) or "alpha" (alpha-nearness of a Held–Karp ascent,
	// see solver/bound).
	OptCandidates = "candidates"
)

// config reads the run's settings: e's configuration with the options of
// p (solver's option table holds their defaults per engine), the kicks
// budget and rkbi's k (0: first improvement).
func (e ilsEngine) config(in *solver.Instance, p solver.Params) (cfg ilsConfig, kicks, rkbi int, err error) {
	opts, err := options(e, in, p)
	if err != nil {
		return cfg, 0, 0, err
	}
	cfg = e.cfg
	var pivot, accept string
	for _, r := range []error{
		get(&kicks, opts.Int, p, OptKicks),
		get(&pivot, opts.Choice, p, OptPivot),
		get(&rkbi, opts.Int, p, OptRKBI),
		get(&cfg.sync, opts.Int, p, OptSync),
		get(&cfg.threeOpt, opts.Bool, p, OptThreeOpt),
		get(&accept, opts.Choice, p, OptAccept),
		get(&cfg.stale, opts.Int, p, OptStale),
		get(&cfg.maxSeg, opts.Int, p, OptSegment),
		get(&cfg.neighbors, opts.Int, p, OptNeighbors),
		get(&cfg.candidates, opts.Choice, p, OptCandidates),
	} {
		if r != nil {
			return cfg, 0, 0, r
		}
	}
	if pivot != "rkbi" {
		rkbi = 0
	}
	cfg.acceptEqual = accept == "equal"
	return cfg, kicks, rkbi, nil
}

// get stores option name of p, read by read, in dst.
func get[T any](dst *T, read func(solver.Params, string) (T, error), p solver.Params, name string) error {
	v, err := read(p, name)
	*dst = v
	return err
}

func (e ilsEngine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	if err := checkStart(in, p); err != nil {
		return solver.Result{}, err
	}
	cfg, kicks, rkbi, err := e.config(in, p)
	if err != nil {
		return solver.Result{}, err
	}
	p.Algorithm, p.Backend = e.name, solver.BackendCPU
	if p.TimeLimit == 0 && kicks == 0 {
		p.TimeLimit = DefaultTimeLimit
	}
	w := workers(p)
	p.Workers = w
	p.Blocks = w
	if in.N < 8 {
		return exactSmall(in, e, p, snaps, start)
	}
	// nb: the candidate lists; nbOdd those of the odd-numbered workers
	// ("mixed": nearest for the even workers, quadrant for the odd ones)
	var nb, nbOdd *neighbor.Lists
	switch cand := cfg.candidates; cand {
	case "", "nearest":
		nb = neighbor.Nearest(in, cfg.neighbors)
	case "quadrant":
		nb = neighbor.Quadrant(in, cfg.neighbors)
	case "union":
		nb = unionNeighbors(in, neighbor.Nearest(in, cfg.neighbors), neighbor.Quadrant(in, cfg.neighbors))
	case "mixed":
		nb = neighbor.Nearest(in, cfg.neighbors)
		if w > 1 {
			nbOdd = neighbor.Quadrant(in, cfg.neighbors)
		}
	case "alpha":
		// The ascent's share of the budget: a fifth of the time limit
		// (its own schedule when there is none).
		res, err := bound.Compute(ctx, in, bound.Options{Time: p.TimeLimit / 5})
		if err == nil {
			nb, err = res.AlphaCandidates(cfg.neighbors)
		}
		if err != nil {
			if ctx.Err() == nil {
				return solver.Result{}, fmt.Errorf("alpha candidates: %v", err)
			}
			nb = neighbor.Quadrant(in, cfg.neighbors) // stopped: any lists do for the tour kept
		}
	default:
		return solver.Result{}, fmt.Errorf("option candidates=%q: want nearest, quadrant, union, mixed or alpha", cand)
	}
	if nbOdd == nil {
		nbOdd = nb
	}
	d := tour.NewDist(in)
	c := newControl(ctx, p, w, snaps, start)

	var t0 []int32
	switch {
	case p.Start != nil:
		t0 = to32(p.Start)
	case cfg.start == "nn":
		t0 = to32(construct.NearestNeighbor(in, 0, nb))
	default:
		t0 = to32(construct.Greedy(in, nb))
	}
	searches := make([]*ls, w)
	kicksDone := make([]paddedCounter, w)
	// escapes: each worker's best tour, kept apart from its current one
	// only once the worker has escaped (written lazily, at the escape)
	wbest := make([][]int32, w)
	wbestLen := make([]int64, w)
	stale := make([]int, w)
	staleLimit := cfg.stale * in.N
	burst := min(max(2, in.N/30), 50)
	for i := range searches {
		l := nb
		if i%2 == 1 {
			l = nbOdd
		}
		s := newLS(d, l.List, l.K, t0)
		s.orOpt, s.threeOpt, s.rkbi = cfg.orOpt, cfg.threeOpt, rkbi
		s.r = newRNG(p.Seed, uint64(i))
		s.record = true
		searches[i] = s
		wbestLen[i] = math.MaxInt64
	}
	c.offer(t0, searches[0].length)
	budget := kicks
	frac := func() float64 {
		if budget > 0 {
			var k int64
			for i := range kicksDone {
				k += kicksDone[i].v.Load()
			}
			return float64(k) / float64(int64(budget)*int64(w))
		}
		return 0
	}
	totalKicks := func() int64 {
		var k int64
		for i := range kicksDone {
			k += kicksDone[i].v.Load()
		}
		return k
	}

	epoch := cfg.sync
	if epoch <= 0 {
		epoch = 1 << 62
	}
	if budget > 0 {
		epoch = min(epoch, budget)
	}
	first := true
	for done := 0; !c.stop.Load() && (budget == 0 || done < budget); done += epoch {
		n := epoch
		if budget > 0 {
			n = min(epoch, budget-done)
		}
		var wg sync.WaitGroup
		for wk := 0; wk < w; wk++ {
			wg.Add(1)
			go func(wk int) {
				defer wg.Done()
				s := searches[wk]
				var buf []int32
				last := s.moves
				check := func() bool {
					c.moves[wk].v.Store(s.moves)
					last = s.moves
					if c.done() {
						return true
					}
					if c.snapshotDue() {
						buf = append(buf[:0], s.tour...)
						c.snapshot(buf, s.length, totalKicks(), frac(), 0)
					}
					return false
				}
				if first {
					s.pushAll()
					if !s.optimize(check) {
						return
					}
					c.offer(s.tour, s.length)
				}
				for k := 0; k < n; k++ {
					if s.moves-last >= checkEvery && check() {
						return
					}
					s.journal, s.saved = s.journal[:0], s.saved[:0]
					old := s.length
					s.kick(cfg.maxSeg)
					if !s.optimize(check) {
						// stopped inside: go back to the last accepted tour
						s.undo()
						s.length = old
						for s.size > 0 {
							s.pop()
						}
						return
					}
					kicksDone[wk].v.Add(1)
					if s.length < old {
						stale[wk] = 0
						if s.length < wbestLen[wk] {
							c.offer(s.tour, s.length)
						}
						continue
					}
					stale[wk]++
					if s.length > old || !cfg.acceptEqual {
						s.undo()
						s.length = old
					}
					if staleLimit > 0 && stale[wk] >= staleLimit {
						// escape: from the best tour, a burst of kicks taken
						// whatever they cost, then a local search
						stale[wk] = 0
						if s.length < wbestLen[wk] {
							wbest[wk] = append(wbest[wk][:0], s.tour...)
							wbestLen[wk] = s.length
						} else if s.length > wbestLen[wk] {
							s.set(wbest[wk])
						}
						s.record = false
						for j := 0; j < burst; j++ {
							s.kick(cfg.maxSeg)
						}
						s.record = true
						s.journal, s.saved = s.journal[:0], s.saved[:0]
						if !s.optimize(check) {
							return
						}
					}
				}
				c.moves[wk].v.Store(s.moves)
			}(wk)
		}
		wg.Wait()
		first = false
		if cfg.sync > 0 && w > 1 {
			b := 0
			for i, s := range searches {
				if s.length < searches[b].length {
					b = i
				}
			}
			for i, s := range searches {
				if i != b && s.length > searches[b].length {
					copy(s.tour, searches[b].tour)
					copy(s.pos, searches[b].pos)
					s.length = searches[b].length
				}
			}
		}
	}
	// the result: the shortest search, ties to the lowest index (not the
	// first offered, which depends on timing)
	var best []int32
	bestLen := int64(math.MaxInt64)
	for i, s := range searches {
		t, l := s.tour, s.length
		if wbestLen[i] < l {
			t, l = wbest[i], wbestLen[i]
		}
		c.offer(t, l)
		if l < bestLen {
			best, bestLen = t, l
		}
	}
	steps := totalKicks()
	c.snapshot(nil, c.bestLen.Load(), steps, max(frac(), 1), 0)
	stopped := c.stopped.Load() || (budget > 0 && c.stop.Load())
	return solver.Finish(in, e, p, toInt(best), c.totalMoves(), steps, start, stopped, deviceName(w))
}

// unionNeighbors merges two candidate lists of every city: the union,
// nearest first, padded to a fixed width by repeating the farthest one (a
// repeat costs one evaluation; scans stop at the first too-far candidate).
func unionNeighbors(in *solver.Instance, a, b *neighbor.Lists) *neighbor.Lists {
	k := a.K + b.K
	out := &neighbor.Lists{K: k, List: make([]int32, 0, in.N*k)}
	row := make([]int32, 0, k)
	for i := 0; i < in.N; i++ {
		row = append(row[:0], a.Of(i)...)
		for _, c := range b.Of(i) {
			if !slices.Contains(row, c) {
				row = append(row, c)
			}
		}
		slices.SortStableFunc(row, func(x, y int32) int {
			return cmp.Compare(in.Dist(i, int(x)), in.Dist(i, int(y)))
		})
		for len(row) < k && len(row) > 0 {
			row = append(row, row[len(row)-1])
		}
		out.List = append(out.List, row...)
	}
	return out
}

// exactSmall solves instances of fewer than 8 cities by enumeration
// (at most 6! tours), where local search moves have no room.
func exactSmall(in *solver.Instance, e solver.Engine, p solver.Params, snaps chan solver.Snapshot, start time.Time) (solver.Result, error) {
	n := in.N
	if n < 4 {
		return trivial(in, e, p, snaps, start)
	}
	perm := solver.IdentityTour(n)
	best := append([]int(nil), perm...)
	bestLen := solver.TourLength(in, perm)
	var moves int64
	var rec func(k int)
	rec = func(k int) {
		if k == n {
			moves++
			if l := solver.TourLength(in, perm); l < bestLen {
				bestLen = l
				copy(best, perm)
			}
			return
		}
		for i := k; i < n; i++ {
			perm[k], perm[i] = perm[i], perm[k]
			rec(k + 1)
			perm[k], perm[i] = perm[i], perm[k]
		}
	}
	rec(1)
	sink := solver.NewSink(snaps, 0, start)
	sink.Send(solver.Snapshot{Tour: append([]int(nil), best...), Length: bestLen, Best: append([]int(nil), best...), BestLength: bestLen, Progress: 1, Moves: moves})
	return solver.Finish(in, e, p, best, moves, 1, start, false, deviceName(workers(p)))
}

func init() {
	solver.Register(ilsEngine{baseEngine{"2opt-ils", "iterated local search, 2-opt + Or-opt with neighbour lists and don't-look bits, double-bridge kicks (Rocki & Suda's method, sequential)"},
		ilsConfig{orOpt: true, start: "greedy"}})
	solver.Register(ilsEngine{baseEngine{"3opt-ils", "iterated local search, sequential 3-opt + Or-opt, nearest-neighbour start, first or random-k-best improvement (Delévacq et al.)"},
		ilsConfig{orOpt: true, start: "nn"}})
	solver.Register(ilsEngine{baseEngine{"auto", "the strongest CPU method for a time budget: iterated 2-opt + Or-opt + sequential 3-opt local search, one search per core (nearest and quadrant candidates alternating), stagnation escapes, best kept"},
		ilsConfig{orOpt: true, start: "greedy"}})
}
