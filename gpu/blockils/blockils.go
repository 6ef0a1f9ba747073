package blockils

// AlgoBatchILS names a batch's search in its results (gpu/batch): an
// iterated 2-opt + Or-opt search per instance, a block of warps each
// (blockils.cu). It is no registered engine: gpu/batch runs it over many
// instances through Chunk.
const AlgoBatchILS = "batch-ils"
