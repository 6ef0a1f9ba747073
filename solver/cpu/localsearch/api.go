// Package localsearch is the local-search core of the CPU engines: one
// search type, Search, over an array tour with a position index, that
// improves it with 2-opt, Or-opt and a deep move (a chain of 2-opt steps
// or the sequential 5-opt move of Lin–Kernighan–Helsgaun, then the
// non-sequential bridge move) on candidate lists, and makes the double-bridge kicks of an iterated local search,
// undoing a rejected one from its journal.
//
// A user builds a Search with New, picks its moves (SetMoves), its fixed
// edges (SetFixed) and its random stream (SetRand), then drives it:
// PushAll and Optimize descend to a local optimum, TryKick makes one step
// of an iterated local search, Tour and Length read the result.
package localsearch

import (
	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver/tour"
)

// Tour returns the tour (position → city), the search's own array.
func (s *Search) Tour() []int32 { return s.tour }

// Pos returns the positions (city → position), the search's own array.
func (s *Search) Pos() []int32 { return s.pos }

// Length returns the length of the current tour.
func (s *Search) Length() int64 { return s.length }

// N returns the number of cities of the tour.
func (s *Search) N() int { return s.n }

// Evaluated returns the moves evaluated so far.
func (s *Search) Evaluated() int64 { return s.moves }

// SetEvaluated sets the moves evaluated, for a search taking over from another.
func (s *Search) SetEvaluated(m int64) { s.moves = m }

// Dist returns the distances the search measures with.
func (s *Search) Dist() *tour.Dist { return s.d }

// Neighbors returns the candidate lists, city c's at nb[c*k : c*k+k].
func (s *Search) Neighbors() (nb []int32, k int) { return s.nb, s.k }

// SetNeighbors replaces the candidate lists by nb (k per city) and their distances by nbd (nil: computed).
func (s *Search) SetNeighbors(nb []int32, k int, nbd []int32) {
	s.nb, s.k, s.nbd = nb, k, nbd
}

// SetRanked says whether the lists' rows are ranked by other than distance (alpha-nearness), so that a scan for a gain
// passes a candidate too far rather than ending at it (neighbor.Lists.Ranked).
func (s *Search) SetRanked(on bool) { s.ranked = on }

// Ranked reports whether the lists are ranked by other than distance (SetRanked).
func (s *Search) Ranked() bool { return s.ranked }

// SetRand gives the search the random stream of its kicks and pivoting.
func (s *Search) SetRand(r *runctl.Rand) { s.r = r }

// Rand returns the search's random stream.
func (s *Search) Rand() *runctl.Rand { return s.r }

// SetJournal turns the journal on or off; TryKick needs it, a plain descent runs faster without.
func (s *Search) SetJournal(on bool) { s.record = on }

// ClearJournal forgets the journal's entries.
func (s *Search) ClearJournal() { s.journal, s.saved = s.journal[:0], s.saved[:0] }

// Succ returns the city after c in the tour.
func (s *Search) Succ(c int32) int32 { return s.succ(c) }

// Pred returns the city before c in the tour.
func (s *Search) Pred(c int32) int32 { return s.pred(c) }

// Queued returns how many cities wait in the queue (don't-look bit off).
func (s *Search) Queued() int { return s.q.Len() }

// ClearQueue turns every queued city's don't-look bit back on.
func (s *Search) ClearQueue() {
	for s.q.Len() > 0 {
		s.Pop()
	}
}

// SetKickFrom makes kicks start at the given cities only (nil: any).
func (s *Search) SetKickFrom(cities []int32) { s.kickFrom = cities }

// FiveOptState returns the 5-opt move's state, nil when it is not the deep move.
func (s *Search) FiveOptState() *FiveOpt { return s.k5 }

// SetSplit sets how many goroutines share a reversal of at least splitMin cities (0 or 1: one).
func (s *Search) SetSplit(w int) { s.split = w }

// LoadLength loads tour t (copied) and its positions, its length l given.
func (s *Search) LoadLength(t []int32, l int64) {
	copy(s.tour, t)
	for i, c := range s.tour {
		s.pos[c] = int32(i)
	}
	s.length = l
}

// LoadPositions loads tour t, positions pos and length l, all given (copied).
func (s *Search) LoadPositions(t, pos []int32, l int64) {
	copy(s.tour, t)
	copy(s.pos, pos)
	s.length = l
}

// CopyFrom loads the tour of o, a search over the same cities.
func (s *Search) CopyFrom(o *Search) { s.LoadPositions(o.tour, o.pos, o.length) }

// LoadPath readies s (new when nil or small) for cities 0..m-1 of d in order, with lists nb; the queue must be empty.
func (s *Search) LoadPath(d *tour.Dist, nb []int32, k, m int) *Search {
	if s == nil || cap(s.tour) < m {
		s = &Search{tour: make([]int32, m, m+m/4), pos: make([]int32, m, m+m/4), q: tour.NewQueue(m + m/4)}
	}
	s.d, s.n, s.nb, s.k = d, m, nb, k
	s.nbd = NeighborDists(s.d, s.nb, m, s.k, s.nbd)
	s.tour, s.pos = s.tour[:m], s.pos[:m] // s.q is empty and holds m cities
	for j := range m {
		s.tour[j], s.pos[j] = int32(j), int32(j)
	}
	s.length = d.Length(s.tour)
	s.journal, s.saved = s.journal[:0], s.saved[:0]
	return s
}

// CachedDists returns the cached candidate distances, nil when computed.
func (s *Search) CachedDists() []int32 { return s.nbd }
