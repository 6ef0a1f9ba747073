package ils

import (
	"context"
	"strconv"
	"time"

	"github.com/tsplab/tsplab/solver/neighbor"
)

// A run is crowded when each worker holds so many cities that auto's usual
// set-up (nearest and quadrant lists, a greedy tour) eats most of a time
// limit of seconds: on 2 cores at 10,000,000 cities the lists alone take
// about 25 s and greedy, sequential at heart, 15 s more. A crowded run
// starts from the space-filling-curve tour on short nearest lists found on
// a grid of cells; its partition search takes path rounds only, each
// segment prepared right before its search (fused), the first round a
// descent of every segment (2-opt, Or-opt and the 3-opt chain, one kick),
// the later ones a few kicks per city, and no descent over the whole tour
// between rounds, so that the tour improves from the first seconds.

// Settings of a crowded run (docs/DECISIONS.md#crowded-min-per-worker).
const (
	// crowdedMinPerWorker is the cities per worker from which auto takes
	// the crowded set-up: 10,000,000 cities on 2 cores (5,000,000 a
	// worker) never left their start tour in 30 s with the usual one,
	// while 16 cores (625,000 a worker) and 1,000,000 cities on 2 cores
	// (500,000) keep it. Tests run the crowded set-up on small instances
	// through an engine with smaller planLimits.
	crowdedMinPerWorker = 2_000_000
	// crowdedShortMinPerWorker is the cities per worker from which a run
	// on at most crowdedShortMaxWorkers workers whose time limit is under
	// crowdedSetUpPerCity a city a worker takes the crowded set-up too: a
	// million cities on 2 cores spend 10 s in the usual set-up with no
	// move made, and at 30 s both set-ups are level.
	crowdedShortMinPerWorker = 500_000
	crowdedShortMaxWorkers   = 4
	crowdedSetUpPerCity      = 50 * time.Microsecond
)

const (
	// crowdedNeighbors is the length of a crowded run's nearest lists:
	// 6 rather than 8 saves a quarter of the lists' time and memory.
	crowdedNeighbors = 6
	// crowdedPartKicks is the kicks per city of a crowded run's piece
	// searches after its first round (a descent of every piece), each
	// ending with its kicks instead of a time slice.
	crowdedPartKicks = 0.05
)

// crowded reports whether a run of n cities on w workers within limit
// (0: none, a kicks budget) takes the crowded set-up.
func (l planLimits) crowded(n, w int, limit time.Duration) bool {
	if w <= 0 {
		return false
	}
	per := n / w
	if per >= l.crowdedMinPerWorker {
		return true
	}
	return w <= crowdedShortMaxWorkers && per >= l.crowdedShortMinPerWorker && limit > 0 && limit < time.Duration(per)*crowdedSetUpPerCity
}

// crowdedSet is what the crowded set-up sets, as the options' texts (a
// run applies them, Tune shows them).
var crowdedSet = map[string]string{
	OptCandidates: "nearest",
	OptNeighbors:  strconv.Itoa(crowdedNeighbors),
	OptPartSlice:  "0",
	OptPartKicks:  strconv.FormatFloat(crowdedPartKicks, 'g', -1, 64),
	OptPartShape:  "path",
}

// nearest builds the k-nearest lists: from a grid of cells on a crowded
// run, where it is the quicker search on uniform cities and the same
// lists, else from the k-d tree.
func (r *ilsRun) nearest(ctx context.Context, k int) (*neighbor.Lists, error) {
	if r.plan.crowded {
		return neighbor.GridNearestContext(ctx, r.in, k)
	}
	return neighbor.NearestContext(ctx, r.in, k)
}
