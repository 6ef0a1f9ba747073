package main

import (
	"context"
	"fmt"
	"strconv"
	"sync"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/session"
)

// gpuChunk is one launch of a GPU batch: its place in the batch's order
// and its items.
type gpuChunk struct {
	seq   int
	items []batchItem
}

// chunkDone is a chunk's outcomes in its items' order (none when the
// batch was interrupted before it ended).
type chunkDone struct {
	seq  int
	done []batchDone
}

// dealChunks cuts items into chunks for gpus GPUs and sends them to out in
// input order, closing it at the end: size items a chunk while every GPU
// can have one, and the rest shared evenly between the GPUs (one GPU: the
// rest as one chunk), so that a batch smaller than the GPUs' chunks
// together keeps every GPU busy.
func dealChunks(ctx context.Context, items <-chan batchItem, size, gpus int, out chan<- gpuChunk) {
	defer close(out)
	seq := 0
	send := func(part []batchItem) bool {
		select {
		case out <- gpuChunk{seq, part}:
			seq++
			return true
		case <-ctx.Done():
			return false
		}
	}
	var buf []batchItem
	for it := range items {
		buf = append(buf, it)
		if len(buf) < size*gpus {
			continue
		}
		for g := range gpus {
			if !send(buf[g*size : (g+1)*size]) {
				return
			}
		}
		buf = nil
	}
	k := min(gpus, len(buf))
	for g := range k {
		if !send(buf[g*len(buf)/k : (g+1)*len(buf)/k]) {
			return
		}
	}
}

// solveChunks runs a worker per GPU of devices, each taking the next chunk
// as it ends one (a faster GPU takes more), and sends every outcome to
// results in the chunks' order, closing it at the end. solve(g, items) is
// GPU g's outcomes of one chunk, in its items' order.
func solveChunks(chunks <-chan gpuChunk, gpus int, solve func(g int, items []batchItem) []batchDone, results chan<- batchDone) {
	done := make(chan chunkDone, gpus)
	var wg sync.WaitGroup
	for g := range gpus {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range chunks {
				done <- chunkDone{c.seq, solve(g, c.items)}
			}
		}()
	}
	go func() { wg.Wait(); close(done) }()
	inOrder(done, results)
	close(results)
}

// inOrder sends the chunks' outcomes to results in the chunks' order as
// they come, holding back those that end before an earlier chunk.
func inOrder(done <-chan chunkDone, results chan<- batchDone) {
	held := map[int][]batchDone{}
	next := 0
	for c := range done {
		held[c.seq] = c.done
		for {
			d, ok := held[next]
			if !ok {
				break
			}
			delete(held, next)
			next++
			for _, x := range d {
				results <- x
			}
		}
	}
}

// batchDevices returns the devices a GPU batch runs on: those sel names,
// else (no --gpus) every usable GPU, device 0 where the driver lists none.
func batchDevices(sel []int) []int {
	if len(sel) > 0 {
		return sel
	}
	gpus, err := listGPUs()
	var all []int
	for _, g := range gpus {
		if g.Unusable == nil {
			all = append(all, g.Index)
		}
	}
	if err != nil || len(all) == 0 {
		return []int{0}
	}
	return all
}

// runGPUBatch solves the items on the GPUs r names (none: device 0), a
// worker each sharing one queue of chunks, and sends their outcomes to
// results in input order, closing it at the end.
func runGPUBatch(ctx context.Context, r *batchRequest, solve batchSolver, items <-chan batchItem, results chan<- batchDone) {
	devs := r.gpus
	if len(devs) == 0 {
		devs = []int{0}
	}
	chunks := make(chan gpuChunk)
	go dealChunks(ctx, items, r.chunk, len(devs), chunks)
	ps := make([]solver.Params, len(devs))
	for g, d := range devs {
		ps[g] = r.p
		if len(devs) > 1 || d != 0 || r.p.Given(device.OptGPUs) {
			// "d," is device d alone, whatever d
			ps[g] = r.p.WithExtra(device.OptGPUs, strconv.Itoa(d)+",")
		}
	}
	solveChunks(chunks, len(devs), func(g int, items []batchItem) []batchDone {
		return gpuBatchChunk(ctx, r, solve, ps[g], items)
	}, results)
}

// gpuBatchChunk loads a chunk's items and solves them at once on the GPU
// p names, their outcomes in the items' order (none once ctx has ended: a
// rerun solves them).
func gpuBatchChunk(ctx context.Context, r *batchRequest, solve batchSolver, p solver.Params, items []batchItem) []batchDone {
	if ctx.Err() != nil {
		return nil
	}
	var optima []string
	if r.optima != "" {
		optima = []string{r.optima}
	}
	type loaded struct {
		at     int // the item's place in the chunk
		in     *solver.Instance
		ref    int64
		hasRef bool
	}
	out := make([]batchDone, len(items))
	var got []loaded
	var ins []*solver.Instance
	for k, it := range items {
		in, ref, hasRef, err := it.load(optima)
		if err != nil {
			out[k] = batchDone{err: err}
			continue
		}
		in = session.WithExactOptimum(in)
		got, ins = append(got, loaded{k, in, ref, hasRef}), append(ins, in)
	}
	if len(ins) == 0 {
		return out
	}
	res, err := solve(ctx, ins, p)
	if ctx.Err() != nil {
		return nil
	}
	if err == nil && len(res) != len(ins) {
		err = fmt.Errorf("the GPU returned %d results for %d instances", len(res), len(ins))
	}
	for i, c := range got {
		it := items[c.at]
		switch {
		case err != nil:
			out[c.at] = batchDone{err: fmt.Errorf("%s: %v", it.key(), err)}
		default:
			if verr := checkBatchResult(c.in, res[i]); verr != nil {
				out[c.at] = batchDone{err: fmt.Errorf("%s: %v", it.key(), verr)}
				continue
			}
			out[c.at] = batchDone{line: r.line(ctx, it, c.in, res[i], c.ref, c.hasRef)}
		}
	}
	return out
}
