// Package blockils is the GPU's block search (blockils.cu): an iterated
// 2-opt + Or-opt (+ sequential 3-opt) search per warp on its own tour in
// shared memory, with segment kicks and better-or-equal acceptance.
// OpenTourPool (solver.TourPool) runs it on a population search's tours of
// one instance, beside the CPU pop engine's workers; a Chunk on many
// small instances at once, a block of independent searches each, small
// ones with their distance table in shared memory, the tours its walks
// stalled at kept in a ring (gpu/batch, `tsp batch`, merges their tours
// on the host). It follows no one
// paper: its moves are those of the CPU local search
// (solver/cpu/localsearch), one tour a warp.
package blockils
