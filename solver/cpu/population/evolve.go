package population

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/recomb"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// gpuMembersPerN2 bounds the accelerator's population members to it × the limit in seconds / n² on
// gpuMembersWorkers workers or more, and to their share of it on fewer, so that a larger population still converges
// on the workers there are (docs/DECISIONS.md#pop).
const (
	gpuMembersPerN2   = 4e9
	gpuMembersWorkers = 16
)

// evolveStale is the generations without a shorter member that end the evolution.
const evolveStale = 3

// evolve builds a population of o.GA descended tours (and up to o.GA from an accelerator's pool) and evolves it by
// EAX-1AB (Nagata and Kobayashi) until evolveStale generations gain nothing; the pool then takes the members. A later
// epoch adds the best so far. It reports whether a population was built.
func (s *search) evolve(ctx context.Context, epoch int) bool {
	if s.o.GA < 2 || s.srch == nil || s.in.N < 8 {
		return false
	}
	until := time.Time{}
	if s.limit > 0 {
		from := s.start
		if epoch > 0 {
			from = time.Now()
		}
		until = from.Add(time.Duration(float64(s.limit) * s.o.Init))
	}
	s.evo.on, s.evo.want, s.evo.gen, s.evo.epoch = true, s.o.GA, 0, epoch
	s.evo.built.Store(0)
	s.evo.gpu.Store(0)
	defer func() { s.evo.on = false }()
	s.phase()
	tours, lens, gpuTours := s.members(ctx, epoch, until)
	k := len(tours)
	if k == 0 {
		return false
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
	a := &s.eax
	if a.Populations == 0 {
		a.FirstBest = s.in.LengthValue(first)
	}
	a.Populations++
	a.Tours, a.FromGPU, a.Generations = k, a.FromGPU+gpuTours, a.Generations+gens
	a.Best = s.in.LengthValue(slices.Min(lens))
	return true
}

// members builds epoch's population until until: the workers' descents and the accelerator's members beside them.
func (s *search) members(ctx context.Context, epoch int, until time.Time) ([][]int32, []int64, int) {
	tours := make([][]int32, s.o.GA)
	lens := make([]int64, s.o.GA)
	work := make([][2]int64, s.o.GA) // each descent's moves and steps
	near := &neighbor.Lists{K: s.srch.k, List: s.srch.nb, Ranked: s.srch.ranked}
	var wg sync.WaitGroup
	for w := range s.w {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.descendMembers(ctx, w, epoch, until, near, tours, lens, work)
		}()
	}
	var gpuTours [][]int32
	var gpuLens []int64
	if s.feed != nil && !until.IsZero() {
		// the accelerator builds many more members than the cores beside the descents (docs/DECISIONS.md#pop)
		wg.Add(1)
		go func() {
			defer wg.Done()
			gpuTours, gpuLens = s.gpuMembers(ctx, epoch, near, until)
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
	return append(tours[:k], gpuTours...), append(lens[:k], gpuLens...), len(gpuTours)
}

// descendMembers is worker w's part of members, tours w, w+s.w, ..., the same starts every run (kicks stay deterministic).
func (s *search) descendMembers(ctx context.Context, w, epoch int, until time.Time, near *neighbor.Lists, tours [][]int32, lens []int64, work [][2]int64) {
	var live *liveBest
	if s.limit > 0 {
		live = &s.live
	}
	for i := w; i < s.o.GA; i += s.w {
		if ctx.Err() != nil || (!until.IsZero() && time.Now().After(until)) {
			return
		}
		seed := s.p.Seed*0x9e3779b97f4a7c15 + uint64(epoch)<<32 + uint64(i)
		var start []int32
		if i == 0 && epoch == 0 && s.p.Start != nil {
			start = runctl.To32(s.p.Start)
		} else {
			var err error
			if start, err = s.nnTour(ctx, near, rand.New(rand.NewPCG(seed, 0x6e6e))); err != nil {
				return
			}
		}
		t, l, moves, steps := s.srch.improve(ctx, w, start, seed, until, 1, live)
		if ctx.Err() != nil {
			return
		}
		tours[i], lens[i], work[i] = t, l, [2]int64{moves, steps}
		s.evo.built.Add(1)
		if live != nil && live.shorter(l) {
			live.offer(l, func() []int32 { return slices.Clone(t) })
		}
	}
}

// generations evolves tours by EAX until converged, out of time or ctx ends.
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

// offerBest makes the shortest of tours the run's best when shorter.
func (s *search) offerBest(tours [][]int32, lens []int64) {
	if len(lens) == 0 {
		return
	}
	i := slices.Index(lens, slices.Min(lens))
	if s.bestLen < 0 || lens[i] < s.bestLen {
		s.best = append(s.best[:0], tours[i]...)
		s.bestLen = lens[i]
		s.lastGain = solver.SourceEAX
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
	gpu       atomic.Int32 // tours the accelerator searches for it
}

// account is the population's state for a snapshot's account.
func (e *evolution) account() *solver.EAXAccount {
	a := &solver.EAXAccount{Populations: e.epoch + 1, Tours: e.size, FromGPU: int(e.gpu.Load()), Generations: e.gen}
	if e.gen == 0 {
		a.Tours, a.Descents, a.Built = e.want, e.want, int(e.built.Load())
	}
	return a
}

// gpuMembers builds population tours on the accelerator until until (none when it takes no pool or fails).
func (s *search) gpuMembers(ctx context.Context, epoch int, near *neighbor.Lists, until time.Time) ([][]int32, []int64) {
	tp, err := s.feed.open(s.in, s.p.Seed^uint64(epoch+1)*0x51ed27)
	if err != nil {
		return nil, nil
	}
	defer tp.Close()
	m := min(tp.Slots(), s.o.GA, gpuMembers(s.in.N, s.w, s.limit))
	if m < 1 {
		return nil, nil
	}
	tours := make([][]int32, 0, m)
	for j := range m {
		if ctx.Err() != nil || time.Now().After(until) {
			return nil, nil
		}
		t, err := s.nnTour(ctx, near, rand.New(rand.NewPCG(s.p.Seed*0x9e3779b97f4a7c15+uint64(epoch)<<32+uint64(j), 0x67706e)))
		if err != nil {
			return nil, nil
		}
		tours = append(tours, t)
	}
	gctx, cancel := context.WithDeadline(ctx, until)
	defer cancel()
	s.evo.gpu.Store(int32(len(tours)))
	lens, err := tp.Improve(gctx, tours, 0)
	if err != nil || len(lens) != len(tours) {
		s.evo.gpu.Store(0)
		return nil, nil
	}
	return tours, lens
}

// gpuMembers is the most population members the accelerator builds for n cities on w workers in a run of limit.
func gpuMembers(n, w int, limit time.Duration) int {
	share := float64(min(w, gpuMembersWorkers)) / gpuMembersWorkers
	return int(gpuMembersPerN2 * share * limit.Seconds() / float64(n) / float64(n))
}
