package solver

import (
	"context"
	"errors"
)

// TourPool improves many tours of one instance at once on an accelerator, an iterated local search each, so they stay
// diverse. It is used by one goroutine at a time.
type TourPool interface {
	// Improve runs kicks kicks on each tour (kicks <= 0: until ctx's deadline), writing back each best, never longer and
	// with the fixed edges, and returns their exact lengths; an error leaves tours as they came.
	Improve(ctx context.Context, tours [][]int32, kicks int) ([]int64, error)
	// Slots is how many tours the accelerator searches at once.
	Slots() int
	// Close frees the accelerator's resources; the pool is not used after.
	Close() error
}

// OpenTourPool opens a TourPool for in (seed: its kicks), or an error wrapping ErrNoTourPool.
type OpenTourPool func(in *Instance, seed uint64) (TourPool, error)

// ErrNoTourPool is wrapped when the instance cannot go to the accelerator.
var ErrNoTourPool = errors.New("no tour pool for this instance")
