package ils

import (
	"context"
	"strconv"

	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/strategy"
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

// crowdedSet is what the crowded set-up sets, as the options' texts
// (Tune shows them; crowdSetUp sets them).
var crowdedSet = map[string]string{
	OptCandidates: "nearest",
	OptNeighbors:  strconv.Itoa(strategy.CrowdedNeighbors),
	OptPartSlice:  "0",
	OptPartKicks:  strconv.FormatFloat(strategy.CrowdedPartKicks, 'g', -1, 64),
	OptPartShape:  "path",
}

// crowdSetUp gives o the crowded set-up's settings (crowdedSet), each
// one the user did not give.
func crowdSetUp(o *ilsOptions, given func(string) bool) {
	set := map[string]func(){
		OptCandidates: func() { o.cfg.candidates = listNearest },
		OptNeighbors:  func() { o.cfg.neighbors = strategy.CrowdedNeighbors },
		OptPartSlice:  func() { o.partSlice = 0 },
		OptPartKicks:  func() { o.partKicks = strategy.CrowdedPartKicks },
		OptPartShape:  func() { o.partShape = shapePath },
	}
	for name, f := range set {
		if !given(name) {
			f()
		}
	}
}

// nearest builds the k-nearest lists: from a grid of cells on a crowded
// run, where it is the quicker search on uniform cities and the same
// lists, else from the k-d tree.
func (r *ilsRun) nearest(ctx context.Context, k int) (*neighbor.Lists, error) {
	if r.plan.Crowded {
		return neighbor.GridNearestContext(ctx, r.in, k)
	}
	return neighbor.NearestContext(ctx, r.in, k)
}
