// Package batch is `tsp batch`'s search of many small instances at once:
// the GPU's block search (gpu/blockils) on them, a block an instance, and
// the host's side of it: a chunk's start tours built on the cores
// (Prepare) while a GPU searches another (Search), the instances cut into
// launches the device holds (cut.go), each instance's searches' tours and
// their walks' stalled tours merged by partition crossover and evolved by
// EAX (merge.go) on the cores (Finish), and, in a search by time, the
// merged tours of mid-run searched by CPU auto beside the GPU
// (polish_cuda.go), a plain Go call.
package batch
