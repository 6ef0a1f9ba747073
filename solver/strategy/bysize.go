package strategy

// The local search by size, auto's defaults (BySize) and pop's
// (popSearch), each setting named once.
var (
	// small is below DeepMinN: each worker searches the whole tour alone
	// with the chain of 2-opt steps on nearest lists; the pure 3-opt moves
	// and escapes after 3·n stale kicks got out of the traps other
	// settings fell into (docs/DECISIONS.md#auto-below-1000).
	small = LocalSearch{Lists: Nearest, Neighbors: 8, Move: Chain, Depth: 1, Or3: true, Segment: 30, Stale: 3}
	// deep is from DeepMinN to PartitionMinN: the 5-opt move on
	// AlphaNeighbors alpha-nearness candidates, every worker kicking in
	// its own stretch of one tour, their changes merged, with the
	// non-sequential bridge move where the 5-opt move finds nothing
	// (docs/DECISIONS.md#deep-min-n, #bridge, #merge).
	deep = LocalSearch{Lists: Alpha, Neighbors: AlphaNeighbors, Move: FiveOpt, Depth: 2, Bridge: true, Segment: 200, Merge: true, Sync: MergeSync}
	// large is from PartitionMinN: the partition search with nearest and
	// quadrant lists on alternate workers and the chain of 2-opt steps,
	// the 5-opt move in the rounds where it gains more per second
	// (docs/DECISIONS.md#part-min-n, #adapt-max-per-worker); escapes
	// after 20·n stale kicks.
	large = LocalSearch{Lists: Mixed, Neighbors: 8, Move: Adapt, Depth: 2, Segment: 200, Stale: 20, Merge: true, Sync: MergeSync}
)

const (
	// AlphaNeighbors is the length of the alpha-nearness lists: with the
	// 5-opt move, 5 (as in LKH) were ahead of 8 on usa13509 at equal CPU
	// time (docs/DECISIONS.md#alpha-neighbors).
	AlphaNeighbors = 5
	// MergeSync is the kicks per worker between the merges of auto's
	// workers in a run without a time limit; timed runs merge every epoch
	// (docs/DECISIONS.md#merge-epoch).
	MergeSync = 50
)

// SizeRow is one row of auto's local search by size: from From cities
// up to To (0: no end).
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

// popSearch is pop's local search on n cities: auto's moves, lists and
// kicks of the whole-tour searches, the 5-opt move on alpha lists from
// DeepMinN; each search alone, without escapes or merges.
func popSearch(n int) LocalSearch {
	l := deep
	if n < DeepMinN {
		l = small
	}
	l.Stale, l.Merge, l.Sync = 0, false, 0
	return l
}
