package partition

import (
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver/cpu/localsearch"
)

// newRNG returns stream number stream of seed.
func newRNG(seed uint64, stream uint64) *runctl.Rand { return runctl.NewRand(seed, stream) }

// ls is the local search the partition search runs on its pieces.
type ls = localsearch.Search

// share is a part of a time a phase takes: one d-th of it.
type share int64

// of is the share of limit.
func (s share) of(limit time.Duration) time.Duration { return limit / time.Duration(s) }

const (
	// stitchShare is the most the descent between pieces takes of the
	// time its round's pieces took: half (docs/DECISIONS.md#stitch).
	stitchShare share = 2
	// regionMergeShare is the most a region round's merge spends checking
	// of the time its pieces took: a quarter.
	regionMergeShare share = 4
)

// nominalMovesPerSecond turns the moves a round evaluated into its cost
// in seconds under a kicks budget, which measures by moves instead of
// the clock so that the run stays deterministic.
const nominalMovesPerSecond = 1e7

// MinSegment is the smallest segment worth a sub-instance: a tour of
// fewer than 4·MinSegment cities is not cut.
const MinSegment = partMinSegment

// PieceCities is the most cities one worker's piece holds on n cities
// with segments of seg cities (0: the default size): a few segments'
// worth, the region cells included, which bounds a worker's memory.
func PieceCities(n, seg int) int { return min(n, 4*max(partSegment, partLKSegment, seg)) }
