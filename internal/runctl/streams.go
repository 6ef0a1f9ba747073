package runctl

// The random streams of one run: a worker's own is its index, the others far above any worker count.
const (
	// StreamSSPMStart is the start tour of an sspm run without one.
	StreamSSPMStart uint64 = 1 << 32
	// StreamSSPMDecide is sspm's Metropolis decisions, the same on every
	// worker.
	StreamSSPMDecide uint64 = 1 << 33
	// StreamStitch is the kicks of the partition search's descent over the
	// whole tour between rounds.
	StreamStitch uint64 = 1 << 40
	// StreamCut is where the partition search cuts the tour each round.
	StreamCut uint64 = 1 << 41
	// StreamSegment is a partition round's segment searches, xor the round
	// (bits 24 up), the segment (bits 8 up) and the search of the segment.
	StreamSegment uint64 = 1 << 42
	// StreamCluster is the searches of contracted clusters, xor the round
	// (bits 8 up) and the worker.
	StreamCluster uint64 = 1 << 43
	// StreamMergedCut is where the merged search's first descent cuts the tour; it shares StreamCluster's number
	// without drawing the same values, and a new number would change every run's tours.
	StreamMergedCut uint64 = 1 << 43
)
