package ils

import (
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// AlgoOrILS is the GPU windowed iterated local search (oropt.cu).
const AlgoOrILS = "or-ils"

// orILSDesc is or-ils's menu description.
const orILSDesc = "iterated 2-opt + Or-opt local search, sequential 3-opt where those find nothing, in thousands of tour windows at once on the GPU (a warp per window, endpoints fixed, partition shifted every round), double-bridge kicks, space-filling-curve or greedy start"

// or-ils's option names, and wsegment, GPU auto's kick segment (declared in package solver).
const (
	OptWindow        = "window"
	OptStart         = "start"
	OptGlobal        = "global"
	OptWindowSegment = "wsegment"
	// OptBeside is GPU auto's share of the tour, in workers, the windows improve beside the
	// partition search (docs/DECISIONS.md#partition-beside).
	OptBeside = "beside"
)

// OrMaxSpan is or-ils's widest coordinate span: six summed distances plus OR_BIG stay below 2^30.
const OrMaxSpan = 1e8

// OrSpanOK reports whether in has coordinates within orMaxSpan.
func OrSpanOK(in *solver.Instance) bool {
	return len(in.X) == in.N && in.N > 0 && device.CoordSpan(in) <= OrMaxSpan
}

// orRoundTarget is a round's length: a prompt stop, yet loading the windows stays small.
const orRoundTarget = 60 * time.Millisecond

// orRoundKicks is a round's kicks a window at perKick each: want, within orRoundTarget and the time left.
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

// orClock sizes or-ils rounds by the last round's time per kick.
type orClock struct{ perKick time.Duration }

// kicks returns the next round's kicks (0 before any round was timed).
func (c *orClock) kicks(want int, left time.Duration) int {
	if c.perKick <= 0 {
		return 0
	}
	return orRoundKicks(want, c.perKick, left)
}

// timed records a round of kicks that took dt (a descent alone counts as 64).
func (c *orClock) timed(dt time.Duration, kicks int) {
	if kicks > 0 {
		c.perKick = max(dt/time.Duration(kicks), time.Nanosecond)
	} else {
		c.perKick = max(dt/64, time.Microsecond)
	}
}
