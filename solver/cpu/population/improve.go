package population

import (
	"context"
	"slices"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/localsearch"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/strategy"
	"github.com/tsplab/tsplab/solver/tour"
)

// liveEvery is how often a worker offers its tour to the round's live best.
const liveEvery = 250 * time.Millisecond

// searcher is the workers' iterated local search with auto's settings for the size (strategy.Decide): 5-opt and bridge
// moves on alpha lists from strategy.DeepMinN cities, else the 3-opt chain on nearest lists.
type searcher struct {
	in       *solver.Instance
	d        *tour.Dist
	nb, nbd  []int32
	k        int
	ranked   bool // nb are alpha lists, ranked by alpha-nearness
	moves    localsearch.MoveSet
	deep     bool // the 5-opt move, each search with its own state
	maxSeg   int
	searches []*localsearch.Search
}

// newSearcher builds the distances and candidate lists of ls for w workers (alpha lists from alpha).
func newSearcher(ctx context.Context, in *solver.Instance, w int, alpha *alphaCache, ls strategy.LocalSearch) (*searcher, error) {
	s := &searcher{in: in, searches: make([]*localsearch.Search, w), maxSeg: ls.Segment, deep: ls.Move == strategy.FiveOpt}
	s.moves = localsearch.MoveSet{OrOpt: true, ThreeOpt: true, Depth: ls.Depth, Or3: ls.Or3, Bridge: ls.Bridge}
	var err error
	if s.d, err = neighbor.Await(ctx, func() *tour.Dist { return tour.NewDist(in) }); err != nil {
		return nil, err
	}
	if ls.Lists == strategy.Alpha {
		if l, aerr := alpha.Alpha(ctx, in, ls.Neighbors, solver.AscentOptions{}); aerr == nil {
			s.nb, s.k, s.ranked = l.List, l.K, true
		} else if ctx.Err() != nil {
			return nil, ctx.Err()
		}
	}
	if s.nb == nil {
		// nearest lists, or no ascent in its time
		nb, err := neighbor.NearestContext(ctx, in, min(ls.Neighbors, in.N-1))
		if err != nil {
			return nil, err
		}
		s.nb, s.k = nb.List, nb.K
	}
	s.nbd = localsearch.NeighborDists(s.d, s.nb, in.N, s.k, nil)
	return s, nil
}

// improve descends start on worker i's search and kicks it (kicks of them, 0: until the deadline) until until or ctx;
// it returns the tour, length, moves and kicks, offering live the shorter tours every liveEvery.
func (s *searcher) improve(ctx context.Context, i int, start []int32, seed uint64, until time.Time, kicks int, live *liveBest) ([]int32, int64, int64, int64) {
	ls := s.searches[i]
	if ls == nil {
		ls = localsearch.New(s.d, s.nb, s.k, start)
		m := s.moves
		if s.deep {
			m.FiveOpt = localsearch.NewFiveOpt()
		}
		ls.SetMoves(m)
		ls.SetNeighbors(s.nb, s.k, s.nbd)
		ls.SetRanked(s.ranked)
		ls.SetFixed(s.in.FixedEdges)
		s.searches[i] = ls
	} else {
		ls.ClearQueue()
		ls.ClearJournal()
		ls.Load(start)
	}
	ls.SetRand(runctl.NewRand(seed, uint64(i)))
	moves0 := ls.Evaluated()
	next := time.Now().Add(liveEvery)
	report := func() {
		if live == nil || time.Now().Before(next) {
			return
		}
		next = time.Now().Add(liveEvery)
		if l := ls.Length(); live.shorter(l) {
			live.offer(l, func() []int32 { return slices.Clone(ls.Tour()) })
		}
	}
	// stop also offers the tour, so a long first descent shows it
	stop := func() bool {
		report()
		return ctx.Err() != nil || (!until.IsZero() && time.Now().After(until))
	}
	ls.SetJournal(false)
	ls.PushAll()
	var done int64
	if ls.Optimize(stop) {
		ls.SetJournal(true)
		for kicks == 0 || done < int64(kicks) {
			if stop() {
				break
			}
			if _, ok := ls.TryKick(s.maxSeg, true, stop); !ok {
				break
			}
			done++
		}
	}
	return slices.Clone(ls.Tour()), ls.Length(), ls.Evaluated() - moves0, done
}
