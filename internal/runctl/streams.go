package runctl

// The random streams of one run: a worker's own is its index, the others far above any worker count.
const (
	// StreamSSPMStart is the start tour of an sspm run without one.
	StreamSSPMStart uint64 = 1 << 32
	// StreamSSPMDecide is sspm's Metropolis decisions, alike on every worker.
	StreamSSPMDecide uint64 = 1 << 33
	// StreamStitch is the partition search's whole-tour descent kicks between rounds.
	StreamStitch uint64 = 1 << 40
	// StreamCut is where the partition search cuts the tour each round.
	StreamCut uint64 = 1 << 41
	// StreamSegment is a partition round's segment searches, xor the round, the segment and the segment's search.
	StreamSegment uint64 = 1 << 42
	// StreamCluster is the contracted clusters' searches, xor the round and the worker.
	StreamCluster uint64 = 1 << 43
	// StreamMergedCut is where the merged search's first descent cuts the tour; it shares StreamCluster's number
	// without drawing the same values, and a new number would change every run's tours.
	StreamMergedCut uint64 = 1 << 43
)
