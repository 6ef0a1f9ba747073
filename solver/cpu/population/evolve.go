package population

import (
	"context"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/cpu/recomb"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// evolveStale is how many generations without a shorter member end the
// evolution: the population has converged.
const evolveStale = 3

// evolve builds a population of o.ga tours, each a descent of a
// randomized nearest-neighbour tour on the workers, then evolves it by
// edge assembly crossover: each generation every member, paired with the
// next in a random order, takes the one AB-cycle of the pair that
// shortens it most (its subtours joined), in the manner of Nagata and
// Kobayashi's GA with EAX-1AB, until evolveStale generations gain
// nothing. The pool then takes the members. A later epoch starts its
// descents from now, with other seeds, and adds the best so far to its
// population. It returns a note for the run's summary.
func (s *search) evolve(ctx context.Context, epoch int) string {
	n := s.in.N
	if s.o.ga < 2 || s.srch == nil || n < 8 {
		return ""
	}
	until := time.Time{}
	if s.limit > 0 {
		from := s.start
		if epoch > 0 {
			from = time.Now()
		}
		until = from.Add(time.Duration(float64(s.limit) * s.o.init))
	}
	s.evo.on, s.evo.want, s.evo.gen, s.evo.epoch = true, s.o.ga, 0, epoch
	s.evo.built.Store(0)
	defer func() { s.evo.on = false }()
	s.phase()
	tours := make([][]int32, s.o.ga)
	lens := make([]int64, s.o.ga)
	work := make([][2]int64, s.o.ga) // each descent's moves and steps
	near := &neighbor.Lists{K: s.srch.k, List: s.srch.nb}
	var live *liveBest
	if s.limit > 0 {
		live = &s.live
	}
	var wg sync.WaitGroup
	for w := range s.w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// worker w descends tours w, w+s.w, ...: each worker's search
			// sees the same starts in every run, so a run by a kicks
			// budget stays deterministic
			for i := w; i < s.o.ga; i += s.w {
				if ctx.Err() != nil || (!until.IsZero() && time.Now().After(until)) {
					return
				}
				seed := s.p.Seed*0x9e3779b97f4a7c15 + uint64(epoch)<<32 + uint64(i)
				var start []int32
				if i == 0 && epoch == 0 && s.p.Start != nil {
					start = toInt32(s.p.Start)
				} else {
					r := rand.New(rand.NewPCG(seed, 0x6e6e))
					t, err := construct.RandomizedNearestNeighborContext(ctx, s.in, r.IntN(n), near, r, 0.1)
					if err != nil {
						return
					}
					start = toInt32(construct.KeepFixed(s.in, t))
				}
				t, l, moves, steps := s.srch.improve(ctx, w, start, seed, until, 1, nil, live)
				if ctx.Err() != nil {
					return
				}
				tours[i], lens[i], work[i] = t, l, [2]int64{moves, steps}
				s.evo.built.Add(1)
				if live != nil && live.shorter(l) {
					live.offer(l, func() []int32 { return slices.Clone(t) })
				}
			}
		}()
	}
	s.watch(&wg)
	// the descents that ended
	k := 0
	for i := range tours {
		s.moves += work[i][0]
		s.steps += work[i][1]
		if tours[i] != nil {
			tours[k], lens[k] = tours[i], lens[i]
			k++
		}
	}
	tours, lens = tours[:k], lens[:k]
	if k == 0 {
		return ""
	}
	if epoch > 0 && s.bestLen >= 0 {
		// the best so far joins the new population
		tours, lens = append(tours, slices.Clone(s.best)), append(lens, s.bestLen)
		k++
	}
	first := slices.Min(lens)
	gens := 0
	if k >= 2 {
		gens = s.generations(ctx, tours, lens, epoch)
	}
	for i := range tours {
		s.pool.Offer(tours[i], lens[i])
	}
	s.offerBest(tours, lens)
	return fmt.Sprintf("; EAX population of %d, %d generations, best %d to %d", k, gens, first, slices.Min(lens))
}

// generations evolves tours by EAX until it converges, the time is up or
// ctx ends, and returns the generations.
func (s *search) generations(ctx context.Context, tours [][]int32, lens []int64, epoch int) int {
	k := len(tours)
	eax := make([]*recomb.EAX, s.w)
	for i := range eax {
		eax[i] = &recomb.EAX{NB: s.srch.nb, K: s.srch.k, Fixed: s.in.FixedEdges, Done: func() bool { return s.done(ctx) }}
	}
	children := make([][]int32, k)
	for i := range children {
		children[i] = make([]int32, s.in.N)
	}
	childLens := make([]int64, k)
	r := rand.New(rand.NewPCG(s.p.Seed, 0x656178+uint64(epoch)))
	gen, stale := 0, 0
	for ; stale < evolveStale && !s.done(ctx); gen++ {
		s.evo.gen, s.evo.size = gen+1, k
		s.phase()
		perm := r.Perm(k)
		jobs := make(chan int, k)
		for i := range k {
			jobs <- i
		}
		close(jobs)
		var wg sync.WaitGroup
		for w := range s.w {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range jobs {
					a, b := perm[i], perm[(i+1)%k]
					if s.done(ctx) {
						// the deadline ends the generation
						childLens[a] = lens[a]
						continue
					}
					st := eax[w].Improve(s.in, tours[a], tours[b], lens[a], uint64(gen)<<32|uint64(i), children[a])
					childLens[a] = st.Length
				}
			}()
		}
		wg.Wait()
		stale++
		for a := range k {
			if childLens[a] < lens[a] {
				tours[a], children[a] = children[a], tours[a]
				lens[a] = childLens[a]
				stale = 0
			}
		}
		s.offerBest(tours, lens)
	}
	return gen
}

// offerBest makes the shortest of tours the run's best when it is
// shorter.
func (s *search) offerBest(tours [][]int32, lens []int64) {
	if len(lens) == 0 {
		return
	}
	i := slices.Index(lens, slices.Min(lens))
	if s.bestLen < 0 || lens[i] < s.bestLen {
		s.best = append(s.best[:0], tours[i]...)
		s.bestLen = lens[i]
		s.sendBest()
	}
}

// evolution is what evolve shows in the run's phase while it runs.
type evolution struct {
	on        bool
	want      int          // descents asked for
	built     atomic.Int32 // descents ended
	gen, size int          // the generation (0: still descending) and the population
	epoch     int          // the run's populations before this one
}

// phase names the population's state.
func (e *evolution) phase(best int64) solver.Phase {
	name := "EAX population"
	if e.epoch > 0 {
		name = fmt.Sprintf("EAX population #%d", e.epoch+1)
	}
	if e.gen == 0 {
		return solver.Phase(fmt.Sprintf("%s: %d of %d descents", name, e.built.Load(), e.want))
	}
	if e.epoch > 0 {
		return solver.Phase(fmt.Sprintf("%s, %d tours: generation %d, best %d", name, e.size, e.gen, best))
	}
	return solver.Phase(fmt.Sprintf("%s of %d: generation %d, best %d", name, e.size, e.gen, best))
}
