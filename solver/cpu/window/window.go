// Package window improves a large tour window by window: the plane is cut
// into cells of about equal cities, and a cell's window is the tour's
// paths through it, joined by fixed edges that stand for the tour outside
// (without coordinates: paths of consecutive cities, their two ends
// fixed). Each window is searched by the population search (pop: descents
// evolved by EAX, then partition crossover) on its own cores from its
// current order, and its shortest tour spliced back when shorter, the
// whole tour measured again, while it searches (progressEvery) and at its
// end; every round the cuts turn, so that no cut stays
// (docs/DECISIONS.md#windows).
package window

import (
	"context"
	"fmt"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/population"
	"github.com/tsplab/tsplab/solver/route"
)

// MinSize is a window's fewest cities, below which pop has nothing to recombine.
const MinSize = 16

// finishMargin is the most a window's search ends before the deadline.
const finishMargin = 200 * time.Millisecond

// AutoMaxSize is the most cities of a window sized by the cores (Config.Size 0).
const AutoMaxSize = 12500

// Shape is how a round cuts the tour into windows.
type Shape int

const (
	// Cells cuts the plane into cells of about equal cities, a cell's window its tour paths joined by fixed edges.
	Cells Shape = iota
	// Paths cuts the tour into paths of consecutive positions.
	Paths
)

// Config are a windowed search's settings.
type Config struct {
	// Shape is how a round cuts the tour (cells need coordinates; docs/DECISIONS.md#windows).
	Shape Shape
	// Size is about the cities of a window (0: a window a slot, up to AutoMaxSize cities).
	Size int
	// Cores is the cores a window's search takes (at least 1).
	Cores int
	// Workers is the run's cores: Workers/Cores windows at once.
	Workers int
	// Slice is a window's search time in a round (a timed run's last takes the rest).
	Slice time.Duration
	// Seed seeds the windows' searches.
	Seed uint64
	// Lists, when not nil, returns the whole instance's alpha lists once an ascent has made them (nil before), which a
	// window's search then takes for its own ascent's (docs/DECISIONS.md#window-lists).
	Lists func() *solver.AlphaLists
}

// Stats say what a windowed search did.
type Stats struct {
	Size       int   // cities of a round's shortest window
	Rounds     int   // rounds begun
	Searched   int   // windows whose search ended
	Improved   int   // windows spliced back shorter
	Gain       int64 // the tour's length gained
	Rejected   int   // shorter cells dropped: other cells' splices had reordered the tour so that theirs cut it into cycles that could not be joined again cheaply enough
	WholeLists int   // windows whose search took the whole instance's alpha lists (Config.Lists)
}

// search is one windowed search's state.
type search struct {
	in  *solver.Instance
	c   *runctl.Control
	cfg Config

	fixedOnce sync.Once
	fixed     map[[2]int32]bool // the instance's fixed edges (fixedEdges)

	mu     sync.Mutex // the tour, its length and the stats
	cur    []int32
	curLen int64
	st     Stats
	err    error
}

// Run improves c's best tour window by window until c's run ends, offering each shorter tour; a failed window search ends it.
func Run(in *solver.Instance, c *runctl.Control, cfg Config) (Stats, error) {
	cfg.Cores = max(cfg.Cores, 1)
	cfg.Workers = max(cfg.Workers, cfg.Cores)
	s := &search{in: in, c: c, cfg: cfg}
	s.cur = c.Best
	if len(s.cur) != in.N || in.N < 2*MinSize || c.Done() {
		return s.st, nil // too small to cut, or nothing to improve
	}
	s.cur = slices.Clone(s.cur)
	s.curLen = solver.TourLength(in, s.cur)
	s.st.Size = s.windowSize()
	ctx, cancel := c.SetupContext()
	defer cancel()
	beat := c.Heartbeat(500 * time.Millisecond)
	defer beat()
	off := 0
	for round := 0; !c.Done() && s.err == nil; round++ {
		slice, ok := s.slice()
		if !ok {
			// too little left for a round: the run waits out its deadline
			select {
			case <-ctx.Done():
			case <-time.After(time.Until(c.Deadline)):
			}
			c.Done()
			break
		}
		s.st.Rounds++
		if s.cellRound() {
			s.cellsRound(ctx, slice, uint64(round))
			continue
		}
		s.round(ctx, off, slice, uint64(round))
		off += s.windowSize() / 2
	}
	return s.st, s.err
}

// slots is the windows searched at once.
func (s *search) slots() int { return max(1, s.cfg.Workers/s.cfg.Cores) }

// count is a round's windows: a multiple of the slots, about Size cities each.
func (s *search) count() int {
	n, sl := s.in.N, s.slots()
	size := s.cfg.Size
	if size <= 0 {
		size = min(n/sl, AutoMaxSize)
	}
	k := max(1, (n+size*sl/2)/(size*sl)) * sl
	for k > 1 && n/k < MinSize {
		k--
	}
	return k
}

// windowSize is the cities of a round's shortest window.
func (s *search) windowSize() int { return s.in.N / s.count() }

// slice is the next round's time a window, false when the run's time is up.
func (s *search) slice() (time.Duration, bool) {
	d := s.cfg.Slice
	if s.c.Deadline.IsZero() {
		return d, true
	}
	rounds := (s.count() + s.slots() - 1) / s.slots()
	left := time.Until(s.c.Deadline) / time.Duration(rounds)
	if left < 50*time.Millisecond {
		return 0, false
	}
	if left-d < d/2 {
		d = left // the last round takes the rest
	}
	return min(d, left), true
}

// round searches one cut's windows on the slots, the first from tour position off.
func (s *search) round(ctx context.Context, off int, slice time.Duration, round uint64) {
	n, k := s.in.N, s.count()
	s.each(k, round, func(i int, seed uint64) error {
		a, b := i*n/k, (i+1)*n/k
		return s.window((off+a)%n, b-a, slice, ctx, seed)
	})
}

// each calls win for a round's windows 0 to k-1 on the slots, each seeded, until the run ends.
func (s *search) each(k int, round uint64, win func(i int, seed uint64) error) {
	next := make(chan int, k)
	for i := range k {
		next <- i
	}
	close(next)
	var wg sync.WaitGroup
	for range s.slots() {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				if s.c.Done() {
					return
				}
				seed := s.cfg.Seed*0x9e3779b97f4a7c15 + round*7919 + uint64(i)
				if err := win(i, seed); err != nil {
					s.mu.Lock()
					s.err = err
					s.mu.Unlock()
					s.c.Stop.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
}

// window searches size cities from position pos, ends fixed, for up to slice, splicing its best path while it searches
// and at the end.
func (s *search) window(pos, size int, slice time.Duration, ctx context.Context, seed uint64) error {
	n := s.in.N
	s.mu.Lock()
	cities := make([]int, size)
	for k := range cities {
		cities[k] = int(s.cur[(pos+k)%n])
	}
	s.mu.Unlock()
	sub := SubInstance(s.in, cities)
	pw := &pathWindow{pos: pos, cities: cities, in: cities} // in is replaced, never written
	apply := func(tour []int, final bool) error {
		path, err := route.PathBetween(tour, 0, size-1)
		if err == nil {
			// the path between the ends, checked against the other fixed edges
			open := *sub
			open.FixedEdges = sub.FixedEdges[1:]
			_, err = route.FinishPath(&open, path, 0, size-1)
		}
		if err != nil {
			return fmt.Errorf("window of %d cities at position %d: %v", size, pos+1, err)
		}
		s.splice(pw, path, final)
		return nil
	}
	tour, err := s.solve(ctx, sub, cities, slice, seed, func(t []int) { _ = apply(t, false) })
	if tour == nil || err != nil {
		return errorf(err, "window of %d cities at position %d", size, pos+1)
	}
	return apply(tour, true)
}

// solve searches sub from its identity tour for up to slice before the run's deadline (nil: the run ended first),
// handing progress the search's shorter tours while it runs, at most one every progressEvery.
func (s *search) solve(ctx context.Context, sub *solver.Instance, cities []int, slice time.Duration, seed uint64, progress func([]int)) ([]int, error) {
	if !s.c.Deadline.IsZero() {
		// a margin for the search's last round and the splice
		slice = min(slice, time.Until(s.c.Deadline)-min(finishMargin, slice/20))
	}
	if slice <= 0 || ctx.Err() != nil {
		return nil, nil
	}
	sctx, cancel := context.WithTimeoutCause(ctx, slice, solver.ErrTimeLimit)
	defer cancel()
	p := solver.Params{Seed: seed, Workers: s.cfg.Cores, Start: solver.IdentityTour(sub.N)}
	aid := solver.Aid{}
	if s.cfg.Lists != nil {
		if whole := s.cfg.Lists(); whole != nil {
			aid.Ascents = cellLists{whole: whole, cities: cities, took: func() {
				s.mu.Lock()
				s.st.WholeLists++
				s.mu.Unlock()
			}}
		}
	}
	snaps, stop := make(chan solver.Snapshot, 1), make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() { s.follow(snaps, stop, progress) })
	res, err := population.Solve(sctx, sub, p, snaps, aid)
	close(stop)
	wg.Wait()
	if err != nil {
		if ctx.Err() != nil {
			return nil, nil
		}
		return nil, err
	}
	return res.Tour, nil
}

// follow hands progress the shortest best tour of a window's snapshots every progressEvery, while there is a shorter
// one, until stop is closed.
func (s *search) follow(snaps chan solver.Snapshot, stop chan struct{}, progress func([]int)) {
	tick := time.NewTicker(s.progressEvery())
	defer tick.Stop()
	var shorter []int
	best := int64(math.MaxInt64)
	for {
		select {
		case <-stop:
			return
		case sn := <-snaps:
			if sn.Best != nil && sn.BestLength < best {
				shorter, best = sn.Best, sn.BestLength
			}
		case <-tick.C:
			if shorter != nil {
				progress(shorter)
				shorter = nil
			}
		}
	}
}

// progressEvery is the time between two splices of one window while it searches: each walks and measures the whole
// tour under the lock, so that a round's windows spend about 2 % of the time on them, and at least a second.
func (s *search) progressEvery() time.Duration {
	return max(time.Second, 50*time.Duration(s.count())*time.Duration(s.in.N)*spliceCostPerCity)
}

// spliceCostPerCity is about a splice's time a city of the tour: the links, walk, length and offer of a tour of 85,900
// cities took 1.9 ms on a 2-core machine.
const spliceCostPerCity = 20 * time.Nanosecond

// errorf is err, when not nil, prefixed with the window it is of.
func errorf(err error, format string, a ...any) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf(format+": %v", append(a, err)...)
}

// pathWindow is a path window: its tour positions from pos, its cities as the search numbers them, the path now in
// the tour (in) and whether a splice changed it.
type pathWindow struct {
	pos        int
	cities, in []int
	changed    bool
}

// splice writes path (of w's local numbers) over the window's positions when shorter than the path there, and offers
// the tour to the run; final counts the window's search as ended.
func (s *search) splice(w *pathWindow, path []int, final bool) {
	mapped := make([]int, len(path))
	for k, c := range path {
		mapped[k] = w.cities[c]
	}
	old, now := solver.PathLength(s.in, w.in), solver.PathLength(s.in, mapped)
	s.mu.Lock()
	defer s.mu.Unlock()
	defer s.ended(final, &w.changed)
	if now >= old {
		return
	}
	n := s.in.N
	for k, c := range mapped {
		s.cur[(w.pos+k)%n] = int32(c)
	}
	l := solver.TourLength(s.in, s.cur)
	if l >= s.curLen {
		// cannot happen with disjoint windows; undone rather than kept
		for k, c := range w.in {
			s.cur[(w.pos+k)%n] = int32(c)
		}
		return
	}
	w.in, w.changed = mapped, true
	s.keep(l)
}

// ended counts a window's search as ended when final, and as improved when a splice changed it (s.mu held).
func (s *search) ended(final bool, changed *bool) {
	if !final {
		return
	}
	s.st.Searched++
	if *changed {
		s.st.Improved++
	}
}

// keep offers the current tour, now l long, to the run as a window's gain.
func (s *search) keep(l int64) {
	s.st.Gain += s.curLen - l
	s.curLen = l
	s.c.Offer(s.cur, l)
	if s.c.SnapshotDue() {
		s.c.Snapshot(s.cur, l, int64(s.st.Searched), 0, 0)
	}
}

// SubInstance is the window of cities (in tour order) as an instance measured as in is, its two ends' edge fixed,
// with in's fixed edges among them.
func SubInstance(in *solver.Instance, cities []int) *solver.Instance {
	return subInstance(in, cities, [][2]int{{0, len(cities) - 1}})
}

// subInstance is the instance of cities with joins and in's fixed edges among them fixed.
func subInstance(in *solver.Instance, cities []int, joins [][2]int) *solver.Instance {
	local := make(map[int]int, len(cities))
	for k, c := range cities {
		local[c] = k
	}
	sub := solver.OfCities(in, in.Name+" window", cities)
	sub.FixedEdges = slices.Clone(joins)
	for _, e := range in.FixedEdges {
		a, okA := local[e[0]]
		b, okB := local[e[1]]
		if okA && okB {
			sub.FixedEdges = append(sub.FixedEdges, [2]int{a, b})
		}
	}
	return sub
}
