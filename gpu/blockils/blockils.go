package blockils

// AlgoBatchILS names a batch's search in its results: iterated 2-opt + Or-opt, a block of warps per instance (blockils.cu).
const AlgoBatchILS = "batch-ils"
