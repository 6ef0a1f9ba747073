package ils

import (
	"fmt"
	"math"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// AlgoTourLS is the GPU whole-tour 2-opt + Or-opt descent over candidate lists (tourls.cu).
const AlgoTourLS = "2opt-or"

// tourLSDesc is 2opt-or's menu description.
const tourLSDesc = "2-opt + Or-opt local search over the whole tour on the GPU: every city's moves over its 8 nearest neighbours evaluated each pass, the non-interfering improving ones applied together, from a greedy-edge or Hilbert-curve start built on the GPU, to a local optimum"

// tourLSConfig is 2opt-or's settings.
type tourLSConfig struct {
	Greedy bool // start from the greedy tour (start greedy), else the Hilbert curve
}

// tourLSSpec declares 2opt-or's options: the start tour, named as or-ils's.
var tourLSSpec = solver.NewSpec(
	solver.Enum(OptStart, func(c *tourLSConfig) *bool { return &c.Greedy }, tourLSStartDefault, []string{"greedy", "sfc"}, []bool{true, false},
		"start tour (unless one is given): greedy edge by rounds of mutual best matching over the neighbour lists, or the Hilbert curve"),
)

// tourLSStartDefault is 2opt-or's start (docs/DECISIONS.md#gls-greedy-start).
const tourLSStartDefault = "sfc"

// glsK is GLS_K of tourls.cu: neighbours per city.
const glsK = 8

// glsLevels is GLS_LEVELS: the levels of position blocks the moves claim.
const glsLevels = 6

// glsMinN is the fewest cities the engine takes.
const glsMinN = 16

// GlsStartName names a descent's start tour (rounds and frags: the greedy start's).
func GlsStartName(given bool, rounds, frags int) string {
	switch {
	case given:
		return "given"
	case rounds > 0:
		return fmt.Sprintf("greedy (%d rounds, %d fragments)", rounds, frags)
	}
	return "curve"
}

// glsGridBits is k of the 2^k grid for n cities: at most about two cities a cell.
func glsGridBits(n int) int {
	k := 1
	for k < 13 && (1<<(2*k))*2 < n {
		k++
	}
	return k
}

// glsLevelSlots is the per-level block arrays' length over n positions.
func glsLevelSlots(n int) int {
	s := 0
	for l := 0; l < glsLevels; l++ {
		s += n>>(5*l) + 1
	}
	return s
}

// glsScan writes the exclusive prefix sums of counts to start (one longer).
func glsScan(counts, start []uint32) {
	var s uint32
	for i, c := range counts {
		start[i] = s
		s += c
	}
	start[len(counts)] = s
}

// glsBox is the 2^k grid's origin and cells per unit for in's coordinates.
func glsBox(in *solver.Instance, k int) (minx, miny, inv float64) {
	minx, miny = math.Inf(1), math.Inf(1)
	maxx, maxy := math.Inf(-1), math.Inf(-1)
	for i := 0; i < in.N; i++ {
		minx, maxx = min(minx, in.X[i]), max(maxx, in.X[i])
		miny, maxy = min(miny, in.Y[i]), max(maxy, in.Y[i])
	}
	span := max(maxx-minx, maxy-miny)
	if span <= 0 {
		span = 1
	}
	return minx, miny, float64(int(1)<<k) / span
}

// stallWindow is how long a descent's passes are watched for their gain.
const stallWindow = time.Second

// stallWatch ends a descent whose passes over the last stallWindow gained
// less than share of everything it gained (share 0: never), because its
// tail then gains less than the search it hands the tour to.
type stallWatch struct {
	share float64
	at    time.Time // the window's start
	gain  uint64    // the descent's gain at the window's start
}

// stalled reports, at now with gain so far, whether the window that
// just ended gained too little, and starts the next window when one
// ended.
func (w *stallWatch) stalled(now time.Time, gain uint64) bool {
	if w.share <= 0 {
		return false
	}
	if w.at.IsZero() {
		w.at, w.gain = now, gain
		return false
	}
	if now.Sub(w.at) < stallWindow {
		return false
	}
	low := float64(gain-w.gain) < w.share*float64(gain)
	w.at, w.gain = now, gain
	return low
}
