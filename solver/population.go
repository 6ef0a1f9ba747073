package solver

import (
	"context"
	"errors"
)

// TourPool improves many tours of one instance at once on an accelerator:
// an iterated local search per tour (2-opt and Or-opt over candidate
// lists, short segment kicks, better-or-equal acceptance), each tour on
// its own, so tours handed in stay as diverse as they came. A population
// search hands it its pool's tours and takes them back every few hundred
// milliseconds. A TourPool is used by one goroutine at a time.
type TourPool interface {
	// Improve runs kicks kicks of the search on each of tours (city ids of
	// the instance the pool was opened for, one permutation each), or
	// fewer when ctx is done or its deadline passes first (kicks <= 0: until
	// then; ctx must then have a deadline). It writes each tour's best
	// back into the same slice, never longer than it came and keeping the
	// instance's fixed edges, validated on the host, and returns their
	// exact lengths (Instance.Dist). An error leaves tours as they came.
	Improve(ctx context.Context, tours [][]int32, kicks int) ([]int64, error)
	// Slots is how many tours the accelerator searches at once: more tours
	// in one Improve run in turns, fewer leave part of it idle.
	Slots() int
	// Close frees the accelerator's resources; the pool is not used after.
	Close() error
}

// OpenTourPool opens a TourPool for in; seed fixes its random kicks. It
// returns an error wrapping ErrNoTourPool when in cannot be searched there
// (too many cities, a metric the accelerator does not compute).
type OpenTourPool func(in *Instance, seed uint64) (TourPool, error)

// ErrNoTourPool is wrapped by OpenTourPool's errors when the instance
// cannot go to the accelerator: the caller goes on without a pool.
var ErrNoTourPool = errors.New("no tour pool for this instance")
