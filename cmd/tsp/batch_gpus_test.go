package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/session"
)

// itemsOf is n items named by their line, listed on a closed channel.
func itemsOf(n int) <-chan batchItem {
	ch := make(chan batchItem, n)
	for i := range n {
		ch <- batchItem{file: "f", line: i + 1}
	}
	close(ch)
	return ch
}

// TestDealChunks: with every item at hand, whole chunks while more than
// one for every lane is left, the rest shared evenly between the lanes,
// in the items' order.
func TestDealChunks(t *testing.T) {
	for _, c := range []struct {
		n, size, gpus int
		want          []int
	}{
		{10, 4, 1, []int{4, 4, 2}},
		{10, 4, 2, []int{4, 3, 3}},
		{10000, 4096, 2, []int{4096, 2952, 2952}},
		{10000, 528, 8, []int{528, 528, 528, 528, 528, 528, 528, 528, 528, 528, 528, 524, 524, 524, 524, 524, 524, 524, 524}},
		{10000, 10000, 2, []int{5000, 5000}},
		{3, 10, 4, []int{1, 1, 1}},
		{8, 2, 4, []int{2, 2, 2, 2}},
		{9, 2, 4, []int{2, 1, 2, 2, 2}},
		{0, 5, 2, nil},
	} {
		out := make(chan []batchItem)
		go dealChunks(context.Background(), itemsOf(c.n), func(batchItem) int64 { return fullChunk / int64(c.size) }, c.gpus, out)
		var sizes []int
		next := 1
		for ch := range out {
			for _, it := range ch {
				if it.line != next {
					t.Fatalf("%+v: item %d where %d comes next", c, it.line, next)
				}
				next++
			}
			sizes = append(sizes, len(ch))
		}
		if !slices.Equal(sizes, c.want) || next != c.n+1 {
			t.Errorf("%d items, chunks of %d on %d GPUs: %v, want %v", c.n, c.size, c.gpus, sizes, c.want)
		}
	}
}

// TestDealChunksBySize: items of mixed sizes fill a chunk by the share
// of a GPU each takes (lines 1 to 6 a quarter, 7 to 12 a half), never
// more than one GPU's worth.
func TestDealChunksBySize(t *testing.T) {
	out := make(chan []batchItem)
	go dealChunks(context.Background(), itemsOf(12), func(it batchItem) int64 {
		return fullChunk / int64(4-2*((it.line-1)/6))
	}, 1, out)
	var got [][]int
	for ch := range out {
		var lines []int
		for _, it := range ch {
			lines = append(lines, it.line)
		}
		got = append(got, lines)
	}
	want := [][]int{{1, 2, 3, 4}, {5, 6, 7}, {8, 9}, {10, 11}, {12}}
	if !slices.EqualFunc(got, want, slices.Equal[[]int]) {
		t.Fatalf("chunks %v, want %v", got, want)
	}
}

// TestDealChunksToWaitingLane: a lane that waits gets a whole chunk as
// soon as the items for one are there, before the input ends.
func TestDealChunksToWaitingLane(t *testing.T) {
	items, out := make(chan int), make(chan []int)
	go dealChunks(context.Background(), items, func(int) int64 { return fullChunk / 3 }, 4, out)
	for i := range 3 {
		items <- i
	}
	select {
	case c := <-out:
		if !slices.Equal(c, []int{0, 1, 2}) {
			t.Fatalf("the first chunk %v, want 0 1 2", c)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("no chunk for the waiting lane")
	}
	items <- 3
	close(items)
	if c := <-out; !slices.Equal(c, []int{3}) {
		t.Fatalf("the last chunk %v, want 3", c)
	}
	if _, ok := <-out; ok {
		t.Fatal("out not closed at the end")
	}
}

// fakeBatchGPUs is a batchGPU of fake lanes, each solving a chunk with solve
// (g: the lane's device), holding capacity instances at once.
type fakeBatchGPUs struct {
	broken   int // the device that does not open (-1: none)
	capacity int
	solve    func(g int, ins []*solver.Instance, ids []uint64) ([]solver.Result, error)
}

type fakeBatchLane struct {
	f *fakeBatchGPUs
	g int
}

type fakeBatchWork struct {
	ins []*solver.Instance
	ids []uint64
	res []solver.Result
	err error
}

func (f *fakeBatchGPUs) open(_ solver.Params, d int) (gpuLane, error) {
	if d == f.broken {
		return nil, fmt.Errorf("GPU %d is broken", d)
	}
	return fakeBatchLane{f, d}, nil
}

// fakeBatchPrep is an instance prepared for fake lanes.
type fakeBatchPrep struct {
	in *solver.Instance
	id uint64
}

func (f *fakeBatchGPUs) prepare(_ context.Context, in *solver.Instance, id uint64, _ solver.Params) (gpuPrep, error) {
	return fakeBatchPrep{in, id}, nil
}

func (f *fakeBatchGPUs) join(ps []gpuPrep) gpuWork {
	w := &fakeBatchWork{}
	for _, p := range ps {
		w.ins, w.ids = append(w.ins, p.(fakeBatchPrep).in), append(w.ids, p.(fakeBatchPrep).id)
	}
	return w
}

func (l fakeBatchLane) capacity(*solver.Instance) int { return l.f.capacity }
func (l fakeBatchLane) close()                        {}
func (l fakeBatchLane) search(_ context.Context, w gpuWork) error {
	fw := w.(*fakeBatchWork)
	fw.res, fw.err = l.f.solve(l.g, fw.ins, fw.ids)
	return nil
}
func (w *fakeBatchWork) finish() ([]solver.Result, error) { return w.res, w.err }

// identityResults are the identity tours of ins, as a GPU's results.
func identityResults(ins []*solver.Instance) []solver.Result {
	out := make([]solver.Result, len(ins))
	for i, x := range ins {
		t := solver.IdentityTour(x.N)
		out[i] = solver.Result{Tour: t, Length: solver.TourLength(x, t), Algorithm: "auto", Backend: solver.BackendGPU}
	}
	return out
}

// runFakeBatch runs tsp batch's GPU path on in with g, chunk instances a
// chunk (0: the lanes' capacity), on devs, writing to res.
func runFakeBatch(t *testing.T, g batchGPU, in, res string, chunk int, devs []int, sh shard) *batchStats {
	t.Helper()
	r := &batchRequest{inputs: []string{in}, out: res, jobs: 1, chunk: chunk, quiet: true, progress: time.Hour, gpus: devs, shard: sh}
	r.p = solver.Params{Algorithm: "auto", Backend: solver.BackendGPU}
	out, done, err := openBatchOut(res, io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	var pl session.Pipeline
	var stderr strings.Builder
	st, err := runBatch(context.Background(), &env{stdout: io.Discard, stderr: &stderr}, r, &pl, g, out, done)
	if cerr := out.close(); err != nil || cerr != nil {
		t.Fatal(err, cerr)
	}
	return st
}

// TestBatchOnTwoGPUs: tsp batch on two fake GPUs hands each GPU's
// chunks its device alone, numbers each instance by its line, writes the
// lines in input order though device 0 ends after device 1, and a rerun
// skips what is done.
func TestBatchOnTwoGPUs(t *testing.T) {
	dir := t.TempDir()
	in := circleLines(t, dir, 9, 8)
	var mu sync.Mutex
	seen := map[int]int{}
	var ids []uint64
	// device 1 waits for device 0's first chunk, so that a slow start of
	// device 0's worker (under the race detector on a loaded machine)
	// cannot leave device 1 every chunk
	zeroBusy := make(chan struct{})
	var once sync.Once
	f := &fakeBatchGPUs{broken: -1, capacity: 2, solve: func(g int, ins []*solver.Instance, id []uint64) ([]solver.Result, error) {
		mu.Lock()
		seen[g] += len(ins)
		ids = append(ids, id...)
		mu.Unlock()
		if g == 0 {
			once.Do(func() { close(zeroBusy) })
			time.Sleep(20 * time.Millisecond) // device 0 ends after device 1
		} else {
			select {
			case <-zeroBusy:
			case <-time.After(10 * time.Second):
			}
		}
		return identityResults(ins), nil
	}}
	res := filepath.Join(dir, "gpu.jsonl")
	if st := runFakeBatch(t, f, in, res, 0, []int{0, 1}, shard{I: 0, N: 3}); st.solved != 3 {
		t.Fatalf("shard 0/3 solved %d, want 3", st.solved)
	}
	st := runFakeBatch(t, f, in, res, 0, []int{0, 1}, shard{})
	if st.solved != 6 || st.skipped != 3 {
		t.Fatalf("the rerun solved %d and skipped %d; want 6 and 3", st.solved, st.skipped)
	}
	if seen[0] == 0 || seen[1] == 0 || seen[0]+seen[1] != 9 {
		t.Errorf("instances by device: %v; want both devices, 9 in all", seen)
	}
	slices.Sort(ids)
	if !slices.Equal(ids, []uint64{0, 1, 2, 3, 4, 5, 6, 7, 8}) {
		t.Errorf("the instances' ids %v, want each line's place once", ids)
	}
	ls := readResults(t, res)
	var lines []int
	for _, l := range ls[3:] {
		lines = append(lines, l.Line)
	}
	if !slices.Equal(lines, []int{2, 3, 5, 6, 8, 9}) {
		t.Errorf("the rerun's lines %v, want 2 3 5 6 8 9 in order", lines)
	}
}

// TestBatchGPUChunks: the GPU path cuts the instances into chunks of at
// most what a GPU holds at once, or --chunk (a lane that waits takes a
// chunk before all are read: the cut depends on the timing), into two at
// least for the GPU's two lanes, and checks each result before it is
// written.
func TestBatchGPUChunks(t *testing.T) {
	dir := t.TempDir()
	in := circleLines(t, dir, 5, 8)
	var mu sync.Mutex
	var sizes []int
	identity := func(_ int, ins []*solver.Instance, _ []uint64) ([]solver.Result, error) {
		mu.Lock()
		sizes = append(sizes, len(ins))
		mu.Unlock()
		return identityResults(ins), nil
	}
	for _, c := range []struct{ capacity, chunk, most int }{{2, 0, 2}, {2, 3, 3}, {0, 0, 3}} {
		sizes = nil
		res := filepath.Join(dir, fmt.Sprintf("gpu%d-%d.jsonl", c.capacity, c.chunk))
		st := runFakeBatch(t, &fakeBatchGPUs{broken: -1, capacity: c.capacity, solve: identity}, in, res, c.chunk, nil, shard{})
		sum := 0
		for _, n := range sizes {
			sum += n
		}
		if st.solved != 5 || sum != 5 || len(sizes) < 2 || slices.Max(sizes) > c.most {
			t.Fatalf("capacity %d, --chunk %d: solved %d in chunks %v, want 5 in two or more of at most %d", c.capacity, c.chunk, st.solved, sizes, c.most)
		}
		if ls := readResults(t, res); len(ls) != 5 || ls[0].Backend != solver.BackendGPU {
			t.Fatalf("%d lines, %+v", len(ls), ls)
		}
	}
	wrong := func(g int, ins []*solver.Instance, ids []uint64) ([]solver.Result, error) {
		out, err := identity(g, ins, ids)
		out[0].Length++
		return out, err
	}
	sizes = nil
	st := runFakeBatch(t, &fakeBatchGPUs{broken: -1, capacity: 2, solve: wrong}, in, filepath.Join(dir, "wrong.jsonl"), 0, nil, shard{})
	if st.failed != len(sizes) || st.solved != 5-len(sizes) {
		t.Fatalf("a wrong length: %d failed, %d solved: want the first of each chunk refused", st.failed, st.solved)
	}
}

// TestBatchGPULeftOut: a GPU that does not open is named and left out,
// the others solve every instance; with none open the batch stops with
// its error.
func TestBatchGPULeftOut(t *testing.T) {
	dir := t.TempDir()
	in := circleLines(t, dir, 5, 8)
	solve := func(_ int, ins []*solver.Instance, _ []uint64) ([]solver.Result, error) {
		return identityResults(ins), nil
	}
	run := func(devs []int) (*batchStats, string, error) {
		r := &batchRequest{inputs: []string{in}, out: "-", jobs: 1, quiet: true, progress: time.Hour, gpus: devs}
		r.p = solver.Params{Algorithm: "auto", Backend: solver.BackendGPU}
		out, done, err := openBatchOut("-", io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		var pl session.Pipeline
		var stderr strings.Builder
		st, err := runBatch(context.Background(), &env{stdout: io.Discard, stderr: &stderr}, r, &pl, &fakeBatchGPUs{broken: 1, capacity: 2, solve: solve}, out, done)
		out.close()
		return st, stderr.String(), err
	}
	st, stderr, err := run([]int{0, 1})
	if err != nil || st.solved != 5 || !strings.Contains(stderr, "GPU 1 left out: GPU 1 is broken") {
		t.Fatalf("one GPU broken: %v, %d solved, %q", err, st.solved, stderr)
	}
	if _, _, err := run([]int{1}); err == nil || !strings.Contains(err.Error(), "GPU 1 is broken") {
		t.Fatalf("the only GPU broken: %v, want its error", err)
	}
}

// askedLane is a lane that counts the capacities asked of it: a GPU
// answers only between its launches.
type askedLane struct {
	gpuLane
	asked []int
}

func (l *askedLane) capacity(in *solver.Instance) int {
	l.asked = append(l.asked, in.N)
	return in.N / 10
}

// TestChunkWeight: an instance weighs its share of what a GPU holds at
// once of its size, asked once for sizes alike to three significant
// bits; --chunk N weighs each 1/N, asking nothing.
func TestChunkWeight(t *testing.T) {
	l := &askedLane{}
	w := chunkWeight(l, 0)
	for _, n := range []int{100, 101, 111, 112, 200, 100} {
		in := &solver.Instance{N: n}
		w(batchInst{in: in})
	}
	if got := w(batchInst{in: &solver.Instance{N: 120}}); got != fullChunk/11 || !slices.Equal(l.asked, []int{100, 112, 200}) {
		t.Errorf("120 cities weigh %d (want %d), capacities asked for %v (want 100 112 200)", got, fullChunk/11, l.asked)
	}
	if got := chunkWeight(l, 5)(batchInst{in: &solver.Instance{N: 1000}}); got != fullChunk/5 || len(l.asked) != 3 {
		t.Errorf("--chunk 5: weight %d, asked %v", got, l.asked)
	}
}
