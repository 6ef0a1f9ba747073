package gpu

import (
	"time"

	"github.com/tsplab/tsplab/solver"
)

// AlgoOrILS is the GPU engine of windowed iterated local search: 2-opt and
// Or-opt with neighbour lists and don't-look bits, segment-local double
// bridges, in thousands of tour windows at once (kernels/oropt.cu).
const AlgoOrILS = "or-ils"

// orILSDesc is or-ils's menu description.
const orILSDesc = "iterated 2-opt + Or-opt local search in thousands of tour windows at once on the GPU (a warp per window, endpoints fixed, partition shifted every round), double-bridge kicks, space-filling-curve or greedy start"

// The names of or-ils's options (declared, with their defaults, ranges
// and docs, in options.go), and wsegment, GPU auto's segment for the
// or-ils it runs from AutoOrILSMinN cities (declared with GPU auto's
// options in package solver, as window is).
const (
	OptWindow        = "window"
	OptStart         = "start"
	OptGlobal        = "global"
	OptWindowSegment = "wsegment"
)

// orMaxSpan is the widest coordinate span or-ils takes: its kernel sums up
// to six distances in int32 and ranks moves by delta + OR_BIG (2^30 - 1)
// in a 32-bit key, so six edges of at most span·√2 each must stay below
// 2^30 (with room to spare: 1e8·6·√2 ≈ 8.5e8).
const orMaxSpan = 1e8

// orSpanOK reports whether in's coordinates fit or-ils's integer keys
// (see orMaxSpan); instances without coordinates do not.
func orSpanOK(in *solver.Instance) bool {
	return len(in.X) == in.N && in.N > 0 && coordSpan(in) <= orMaxSpan
}

// orRoundTarget is how long one round (a launch of every window, then the
// commit) should last: short enough that the time limit and a Ctrl-C act
// within a fraction of a second and the partition shifts often, long
// enough that loading windows and building their neighbour lists stays a
// small part of a round.
const orRoundTarget = 60 * time.Millisecond

// orRoundKicks is the kicks per window of an or-ils round after the
// first, which timed them at perKick each (> 0): want, but no more than
// fit in orRoundTarget or in the time left, and at least one.
func orRoundKicks(want int, perKick, left time.Duration) int {
	k := want
	if lim := int(orRoundTarget / perKick); k > lim {
		k = max(1, lim)
	}
	if lim := int(left / perKick); k > lim {
		k = max(1, lim)
	}
	return k
}

// orClock sets the kicks of or-ils rounds from the time per kick of the
// round before: none in the first, which is the descent alone and times
// it.
type orClock struct{ perKick time.Duration }

// kicks returns the kicks of the next round: 0 before any round was
// timed, else orRoundKicks with left the time left.
func (c *orClock) kicks(want int, left time.Duration) int {
	if c.perKick <= 0 {
		return 0
	}
	return orRoundKicks(want, c.perKick, left)
}

// timed records a round of kicks kicks that took dt (a descent alone, 0
// kicks, counts as 64 kicks).
func (c *orClock) timed(dt time.Duration, kicks int) {
	if kicks > 0 {
		c.perKick = max(dt/time.Duration(kicks), time.Nanosecond)
	} else {
		c.perKick = max(dt/64, time.Microsecond)
	}
}
