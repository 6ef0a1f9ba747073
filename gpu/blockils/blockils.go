package blockils

// AlgoBatchILS names SolveBatch's search in its results: an iterated
// 2-opt + Or-opt search per instance, a block of warps each (blockils.cu).
// It is no registered engine: SolveBatch runs it over many instances.
const AlgoBatchILS = "batch-ils"
