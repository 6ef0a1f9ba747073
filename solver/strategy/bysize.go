package strategy

// The local search by size, auto's (BySize) and pop's (popSearch).
var (
	// small is below DeepMinN: each worker alone, the 2-opt chain on nearest lists with pure 3-opt moves and escapes
	// (docs/DECISIONS.md#auto-below-1000).
	small = LocalSearch{Lists: Nearest, Neighbors: 8, Move: Chain, Depth: 1, Or3: true, Segment: 30, Stale: 3}
	// deep is from DeepMinN to PartitionMinN: the 5-opt move on alpha lists, workers' changes merged, the bridge move
	// (docs/DECISIONS.md#deep-min-n, #bridge, #merge).
	deep = LocalSearch{Lists: Alpha, Neighbors: AlphaNeighbors, Move: FiveOpt, Depth: 2, Bridge: true, Segment: 200, Merge: true, Sync: MergeSync}
	// large is from PartitionMinN: the partition search, mixed lists, the chain or 5-opt by their gain per second
	// (docs/DECISIONS.md#part-min-n, #adapt-max-per-worker).
	large = LocalSearch{Lists: Mixed, Neighbors: 8, Move: Adapt, Depth: 2, Segment: 200, Stale: 20, Merge: true, Sync: MergeSync}
)

const (
	// AlphaNeighbors is the alpha lists' length: 5, as in LKH (docs/DECISIONS.md#alpha-neighbors).
	AlphaNeighbors = 5
	// MergeSync is the kicks per worker between merges without a time limit (docs/DECISIONS.md#merge-epoch).
	MergeSync = 50
)

// SizeRow is one row of auto's local search by size, From up to To cities (0: no end).
type SizeRow struct {
	From, To    int
	LocalSearch LocalSearch
}

// Sizes are auto's local-search settings by size, in order.
func Sizes() []SizeRow {
	return []SizeRow{{0, DeepMinN, small}, {DeepMinN, PartitionMinN, deep}, {PartitionMinN, 0, large}}
}

// BySize is auto's local search on n cities.
func BySize(n int) LocalSearch {
	switch {
	case n < DeepMinN:
		return small
	case n < PartitionMinN:
		return deep
	}
	return large
}

// popSearch is pop's local search on n cities: auto's whole-tour settings, each search alone.
func popSearch(n int) LocalSearch {
	l := deep
	if n < DeepMinN {
		l = small
	}
	l.Stale, l.Merge, l.Sync = 0, false, 0
	return l
}
