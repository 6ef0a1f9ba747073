// Package runctl holds what every CPU engine's run shares: its private
// random streams, each named by what draws from it, and how often a
// worker looks at the clock.
package runctl

import (
	"math/bits"
	"math/rand/v2"
)

// CheckEvery is the moves a worker makes between looks at the clock, context, target and sink.
const CheckEvery = 4096

// KicksPerCheck is the most kicks between looks at the clock when kicks evaluate few moves.
const KicksPerCheck = 64

// Rand is a worker's private PCG stream.
type Rand struct{ p rand.PCG }

// Mix (splitmix64) scrambles seeds so neighbouring seeds give unrelated streams.
func Mix(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}

// NewRand returns stream number stream of seed.
func NewRand(seed uint64, stream uint64) *Rand {
	r := &Rand{}
	r.p.Seed(Mix(seed), Mix(stream^0x5851f42d4c957f2d))
	return r
}

// Intn returns a uniform integer in [0, n) (Lemire's multiply-shift).
func (r *Rand) Intn(n int) int {
	hi, _ := bits.Mul64(r.p.Uint64(), uint64(n))
	return int(hi)
}

// Float64 returns a uniform float in [0, 1).
func (r *Rand) Float64() float64 { return float64(r.p.Uint64()>>11) / (1 << 53) }

// Uint64 returns 64 uniform random bits.
func (r *Rand) Uint64() uint64 { return r.p.Uint64() }

// Shuffle permutes t uniformly.
func (r *Rand) Shuffle(t []int32) {
	for i := len(t) - 1; i > 0; i-- {
		j := r.Intn(i + 1)
		t[i], t[j] = t[j], t[i]
	}
}

// RandomTour returns a uniformly random permutation of 0..n-1.
func (r *Rand) RandomTour(n int) []int32 {
	t := make([]int32, n)
	for i := range t {
		t[i] = int32(i)
	}
	r.Shuffle(t)
	return t
}
