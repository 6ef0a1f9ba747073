package main

import (
	"cmp"
	"context"
	"fmt"
	"math/bits"
	"runtime"
	"sync"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/session"
)

// batchGPU is what a GPU batch needs of the GPUs (gpu/batch in a CUDA
// build; a test's fake elsewhere).
type batchGPU interface {
	// open opens a lane on device dev (a run of its own, on an OS thread
	// of its own); a device's first lane opens its context.
	open(p solver.Params, dev int) (gpuLane, error)
	// prepare builds an instance's start tours on the cores; id numbers
	// it in the inputs' order.
	prepare(ctx context.Context, in *solver.Instance, id uint64, p solver.Params) (gpuPrep, error)
	// join makes a chunk for a GPU of prepared instances, in their order.
	join(ps []gpuPrep) gpuWork
}

// gpuPrep is an instance prepared for a GPU (its start tours).
type gpuPrep any

// gpuLane is one GPU of a batch.
type gpuLane interface {
	// capacity is how many instances like in the GPU searches at once
	// (0: unknown).
	capacity(in *solver.Instance) int
	// search searches a prepared chunk.
	search(ctx context.Context, w gpuWork) error
	close()
}

// gpuWork is a chunk prepared for a GPU; finish, once it was searched,
// gives its results in its instances' order (checked on the cores).
type gpuWork interface {
	finish() ([]solver.Result, error)
}

// batchInst is an item read, parsed and prepared.
type batchInst struct {
	it     batchItem
	in     *solver.Instance
	ref    int64
	hasRef bool
	prep   gpuPrep
}

// gpuChunkOf is a chunk prepared for the GPUs with its instances.
type gpuChunkOf struct {
	insts []batchInst
	work  gpuWork
	err   error // the search's
}

// defaultChunk is the chunk of a GPU batch whose GPUs say nothing of
// their capacity.
const defaultChunk = 4096

// lanesPerGPU is how many chunks a GPU holds at once, each on a run of
// its own: while one chunk's tours come back and the next is put on the
// device, the other's kernel keeps the GPU busy.
const lanesPerGPU = 2

// fullChunk is the weight of a whole chunk: an item a GPU holds c of at
// once weighs fullChunk/c, so that c such items make one chunk (c² + c <
// fullChunk for any --chunk) and a chunk of mixed sizes fills a GPU as
// far as each item's share says.
const fullChunk = 1 << 40

// dealChunks cuts items into chunks of at most fullChunk in weight (at
// least one item; whole once another item like the last would not fit)
// for lanes lanes and sends them to out in the order they come, closing
// it at the end: a whole chunk whenever a lane waits for
// one and no item is at hand, and whenever more than lanes chunks wait;
// at the end the rest is cut into lanes chunks of equal weight (fewer
// where fewer items are left), so that the lanes end together.
func dealChunks[T any](ctx context.Context, items <-chan T, weight func(T) int64, lanes int, out chan<- []T) {
	defer close(out)
	var buf []T
	var ws []int64        // the weights of buf's items
	var sum int64         // and their sum
	take := func(k int) { // the head of k items sent
		for _, w := range ws[:k] {
			sum -= w
		}
		buf, ws = buf[k:], ws[k:]
	}
	for {
		k := wholeChunk(ws)
		if sum > int64(lanes)*fullChunk {
			select {
			case out <- buf[:k:k]:
				take(k)
			case <-ctx.Done():
				return
			}
			continue
		}
		var offer chan<- []T // nil, never chosen, while less than a chunk waits
		if k > 0 {
			offer = out
		}
		var it T
		var ok, got bool
		select {
		case it, ok = <-items: // the items at hand first
			got = true
		default:
		}
		if !got {
			select {
			case it, ok = <-items:
			case offer <- buf[:k:k]:
				take(k)
				continue
			case <-ctx.Done():
				return
			}
		}
		if !ok {
			break
		}
		w := weight(it)
		buf, ws, sum = append(buf, it), append(ws, w), sum+w
	}
	dealRest(ctx, buf, ws, sum, lanes, out)
}

// wholeChunk is how many items of weights ws at the head make a whole
// chunk: 0 while another like the last would still fit.
func wholeChunk(ws []int64) int {
	k, acc := 0, int64(0)
	for k < len(ws) && (k == 0 || acc+ws[k] <= fullChunk) {
		acc += ws[k]
		k++
	}
	if k == len(ws) && (k == 0 || acc+ws[k-1] <= fullChunk) {
		return 0
	}
	return k
}

// dealRest sends the items left, of weights ws summing to sum, to out in
// min(lanes, len(buf)) chunks of about equal weight, so that the lanes
// end together.
func dealRest[T any](ctx context.Context, buf []T, ws []int64, sum int64, lanes int, out chan<- []T) {
	k := min(lanes, len(buf))
	acc, from := int64(0), 0
	for g := range k {
		to := from + 1 // the last item whose running weight is within g+1 k-ths of the total, leaving one for each part after
		for acc += ws[from]; to < len(buf)-(k-g-1) && (acc+ws[to])*int64(k) <= int64(g+1)*sum; to++ {
			acc += ws[to]
		}
		select {
		case out <- buf[from:to]:
		case <-ctx.Done():
			return
		}
		from = to
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

// runGPUBatch solves the items on the GPUs r names as a pipeline: the
// GPUs open all at once while the cores read, parse and prepare the
// items (their start tours), each as it comes; once the first GPU is open
// the prepared items are cut into chunks of what a GPU searches at once
// (--chunk: that many), each GPU holding lanesPerGPU chunks at once and
// taking the next as it ends one; the cores check and measure a chunk's
// tours while the GPUs go on. The outcomes go to results (closed at the
// end) with their items' seq. It returns the function that waits for the
// end and gives the error that stopped the batch (no GPU opened), after
// which cancel was called.
func runGPUBatch(ctx context.Context, e *env, r *batchRequest, g batchGPU, items <-chan batchItem, results chan<- batchDone, cancel func()) func() error {
	devs := r.gpus
	if len(devs) == 0 {
		devs = []int{0}
	}
	send := func(d batchDone) { results <- d } // the writer reads results until they close
	parsed, parsedAll := parseBatchItems(ctx, r, g, items, send)
	lanes := openLanes(ctx, e, r, g, devs, cancel)
	chunks := make(chan []batchInst)
	go func() {
		first, ok := <-lanes.first
		if !ok {
			close(chunks)
			for range parsed { // drain: the batch was cancelled
			}
			return
		}
		dealChunks(ctx, parsed, chunkWeight(first, r.chunk), len(devs)*lanesPerGPU, chunks)
		for range parsed { // drain after a cancel
		}
	}()
	searched := searchChunks(ctx, g, lanes, len(devs)*lanesPerGPU, chunks)
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		var fin sync.WaitGroup
		for range max(2, runtime.NumCPU()/4) {
			fin.Go(func() {
				for c := range searched {
					finishChunk(ctx, r, c, send)
				}
			})
		}
		fin.Wait()
		parsedAll()
		close(results)
	}()
	return func() error { <-ended; return lanes.err }
}

// openedLanes is the GPUs' lanes as they open: first gives the first to
// open (closed without one when none does), each gives every one (closed
// once all have opened or failed); err is set, and the batch cancelled,
// when none opened.
type openedLanes struct {
	first chan gpuLane
	each  chan gpuLane
	err   error
}

// openLanes opens lanesPerGPU lanes on each of devs, the devices at once,
// naming on stderr those that fail.
func openLanes(ctx context.Context, e *env, r *batchRequest, g batchGPU, devs []int, cancel func()) *openedLanes {
	ls := &openedLanes{first: make(chan gpuLane, 1), each: make(chan gpuLane, len(devs)*lanesPerGPU)}
	var mu sync.Mutex
	var wg sync.WaitGroup
	opened, failed := 0, []error{}
	for _, d := range devs {
		wg.Go(func() {
			for k := range lanesPerGPU {
				l, err := g.open(r.p, d)
				mu.Lock()
				switch {
				case err != nil && k == 0:
					failed = append(failed, err)
					if len(devs) > 1 {
						fmt.Fprintf(e.stderr, "tsp: note: GPU %d left out: %s\n", d, oneLine(err.Error()))
					}
				case err == nil:
					if opened++; opened == 1 {
						ls.first <- l
					}
					ls.each <- l
				}
				mu.Unlock()
				if err != nil || ctx.Err() != nil {
					return
				}
			}
		})
	}
	go func() {
		wg.Wait()
		if opened == 0 {
			ls.err = failed[0]
			cancel()
		}
		close(ls.first)
		close(ls.each)
	}()
	return ls
}

// searchChunks has each lane, once open, take the next chunk as it ends
// one, join its prepared instances and search it; the searched chunks go
// to the channel it returns, closed at the end. A lane is closed once it
// has searched its last chunk, unwaited: the batch ends without it.
func searchChunks(ctx context.Context, g batchGPU, lanes *openedLanes, n int, chunks <-chan []batchInst) <-chan gpuChunkOf {
	searched := make(chan gpuChunkOf, n)
	var running sync.WaitGroup
	running.Go(func() {
		for l := range lanes.each {
			running.Go(func() {
				defer func() { go l.close() }()
				for c := range chunks {
					if ctx.Err() != nil {
						continue
					}
					ps := make([]gpuPrep, len(c))
					for k, x := range c {
						ps[k] = x.prep
					}
					w := g.join(ps)
					err := l.search(ctx, w)
					searched <- gpuChunkOf{insts: c, work: w, err: err}
				}
			})
		}
		// no GPU opened: what was prepared is not searched
		if lanes.err != nil {
			for range chunks {
			}
		}
	})
	go func() { running.Wait(); close(searched) }()
	return searched
}

// parseBatchItems reads, parses and prepares the items on all cores:
// those that fail go to send, the others to the channel it returns (in
// the order they are done), closed once every item was; the function it
// returns waits for that.
func parseBatchItems(ctx context.Context, r *batchRequest, g batchGPU, items <-chan batchItem, send func(batchDone)) (<-chan batchInst, func()) {
	var optima []string
	if r.optima != "" {
		optima = []string{r.optima}
	}
	out := make(chan batchInst, 4*runtime.NumCPU())
	var wg sync.WaitGroup
	for range runtime.NumCPU() {
		wg.Go(func() {
			for it := range items {
				if ctx.Err() != nil {
					continue
				}
				in, ref, hasRef, err := it.load(optima)
				var prep gpuPrep
				if err == nil {
					in = session.WithExactOptimum(in)
					if prep, err = g.prepare(ctx, in, it.id, r.p); err != nil {
						err = fmt.Errorf("%s: %v", it.key(), err)
					}
				}
				if err != nil {
					send(batchDone{seq: it.seq, err: err})
					continue
				}
				select {
				case out <- batchInst{it, in, ref, hasRef, prep}:
				case <-ctx.Done():
				}
			}
		})
	}
	go func() { wg.Wait(); close(out) }()
	return out, wg.Wait
}

// chunkWeight is an instance's weight in a chunk (dealChunks): with
// --chunk N (chunk > 0) a chunk holds N instances, else as many of each
// size as lane searches at once (defaultChunk where it does not say),
// asked of the first instance of each metric and size to three
// significant bits, since lane answers only between its launches.
func chunkWeight(lane gpuLane, chunk int) func(batchInst) int64 {
	if chunk > 0 {
		return func(batchInst) int64 { return fullChunk / int64(chunk) }
	}
	type kind struct {
		n int
		m solver.Metric
	}
	caps := map[kind]int64{}
	return func(x batchInst) int64 {
		k := kind{x.in.N &^ (1<<max(bits.Len(uint(x.in.N))-3, 0) - 1), x.in.Metric}
		if _, ok := caps[k]; !ok {
			caps[k] = int64(cmp.Or(max(lane.capacity(x.in), 0), defaultChunk))
		}
		return fullChunk / caps[k]
	}
}

// failChunk sends err as the outcome of each instance of c.
func failChunk(c []batchInst, err error, send func(batchDone)) {
	for _, x := range c {
		send(batchDone{seq: x.it.seq, err: fmt.Errorf("%s: %v", x.it.key(), err)})
	}
}

// finishChunk measures a searched chunk's tours on the cores and sends
// each instance's line, checked (none once ctx has ended: a rerun solves
// them).
func finishChunk(ctx context.Context, r *batchRequest, c gpuChunkOf, send func(batchDone)) {
	if ctx.Err() != nil {
		return
	}
	if c.err != nil {
		failChunk(c.insts, c.err, send)
		return
	}
	res, err := c.work.finish()
	if err == nil && len(res) != len(c.insts) {
		err = fmt.Errorf("the GPU returned %d results for %d instances", len(res), len(c.insts))
	}
	if err != nil {
		failChunk(c.insts, err, send)
		return
	}
	for i, x := range c.insts {
		if verr := checkBatchResult(x.in, res[i]); verr != nil {
			send(batchDone{seq: x.it.seq, err: fmt.Errorf("%s: %v", x.it.key(), verr)})
			continue
		}
		send(batchDone{seq: x.it.seq, line: r.line(ctx, x.it, x.in, res[i], x.ref, x.hasRef)})
	}
}
