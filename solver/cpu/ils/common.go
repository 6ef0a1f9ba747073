package ils

import (
	"github.com/tsplab/tsplab/internal/runctl"
)

// rng is a worker's private PCG stream.
type rng = runctl.Rand

// newRNG returns stream number stream of seed.
func newRNG(seed uint64, stream uint64) *rng { return runctl.NewRand(seed, stream) }
