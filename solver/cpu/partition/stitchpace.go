package partition

import (
	"time"

	"github.com/tsplab/tsplab/solver/strategy"
)

// The sizes whose stitch is paced by its gain per second
// (docs/DECISIONS.md#stitch-pace): where chained Lin–Kernighan searches
// the pieces, from where the partition search starts to soloAutoMaxN
// cities, the sizes where it was measured.
const (
	stitchPaceMinN = strategy.PartitionMinN
	stitchPaceMaxN = soloAutoMaxN
)

// stitchMinShare bounds the paced stitch from below: at least one
// stitchMinShare-th of its round's searches, so that its rate is still
// measured every round and it grows back where it gains.
const stitchMinShare share = 64

// stitchDecay is the weight a round's gains and times keep in the next
// round's rates: a half, so that a round of each move or shape counts.
const stitchDecay = 0.5

// stitchPace is the gain per second of the rounds' searches and of the
// stitch after them, as decayed sums of gains and seconds.
type stitchPace struct {
	searchGain, searchSec float64
	stitchGain, stitchSec float64
}

// paced tells whether this run's stitch is paced by its gain per second:
// on instances of stitchPaceMinN to stitchPaceMaxN cities that
// are not clustered (there the stitch's quadrant lists reach across the
// gaps between clusters, a gain its own rate does not show).
func (pr *partRun) paced() bool {
	n := pr.env.In.N
	return n >= stitchPaceMinN && n <= stitchPaceMaxN && !pr.clustered
}

// record adds one round: its searches gained gs in ds, its stitch gt in
// dt.
func (p *stitchPace) record(gs int64, ds time.Duration, gt int64, dt time.Duration) {
	p.searchGain = stitchDecay*p.searchGain + float64(gs)
	p.searchSec = stitchDecay*p.searchSec + ds.Seconds()
	p.stitchGain = stitchDecay*p.stitchGain + float64(gt)
	p.stitchSec = stitchDecay*p.stitchSec + dt.Seconds()
}

// limit is the stitch's time limit after searches that took round: half
// of round (at least partMinTask) unless paced or before a round has
// been measured; paced, the part of round the stitch's gain per second
// is of the searches', within 1/stitchMinShare and a half, so that the
// time goes where it gains more (docs/DECISIONS.md#stitch-pace). A run
// with a kicks budget ignores the limit (stitch).
func (p *stitchPace) limit(round time.Duration, paced bool) time.Duration {
	full := max(stitchShare.of(round), partMinTask)
	if !paced || p.searchSec <= 0 || p.stitchSec <= 0 || p.searchGain <= 0 {
		return full
	}
	f := (p.stitchGain / p.stitchSec) / (p.searchGain / p.searchSec)
	if f >= 1/float64(stitchShare) {
		return full
	}
	return max(time.Duration(f*float64(round)), stitchMinShare.of(round))
}
