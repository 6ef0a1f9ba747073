package ils

import (
	"github.com/tsplab/tsplab/internal/runctl"
)

// checkEvery is how many moves a worker makes between looks at the clock,
// the context, the target and the snapshot sink.
const checkEvery = runctl.CheckEvery

// rng is a worker's private PCG stream.
type rng = runctl.Rand

// newRNG returns stream number stream of seed.
func newRNG(seed uint64, stream uint64) *rng { return runctl.NewRand(seed, stream) }
