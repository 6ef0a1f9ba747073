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

	"github.com/tsplab/tsplab/gpu/device"
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

// TestDealChunks: whole chunks while every GPU can have one, the rest
// shared evenly between the GPUs; one GPU gets today's chunks.
func TestDealChunks(t *testing.T) {
	for _, c := range []struct {
		n, size, gpus int
		want          []int
	}{
		{10, 4, 1, []int{4, 4, 2}},
		{10, 4, 2, []int{4, 4, 1, 1}},
		{10000, 4096, 2, []int{4096, 4096, 904, 904}},
		{10000, 10000, 2, []int{5000, 5000}},
		{3, 10, 4, []int{1, 1, 1}},
		{8, 2, 4, []int{2, 2, 2, 2}},
		{0, 5, 2, nil},
	} {
		out := make(chan gpuChunk)
		go dealChunks(context.Background(), itemsOf(c.n), c.size, c.gpus, out)
		var sizes []int
		next := 1
		for ch := range out {
			if ch.seq != len(sizes) {
				t.Fatalf("%+v: chunk %d numbered %d", c, len(sizes), ch.seq)
			}
			for _, it := range ch.items {
				if it.line != next {
					t.Fatalf("%+v: item %d where %d comes next", c, it.line, next)
				}
				next++
			}
			sizes = append(sizes, len(ch.items))
		}
		if !slices.Equal(sizes, c.want) || next != c.n+1 {
			t.Errorf("%d items, chunks of %d on %d GPUs: %v, want %v", c.n, c.size, c.gpus, sizes, c.want)
		}
	}
}

// TestSolveChunksInOrder: two fake GPUs, one ten times slower, share the
// chunks: the fast one takes more, and the outcomes come in input order.
func TestSolveChunksInOrder(t *testing.T) {
	chunks := make(chan gpuChunk)
	go dealChunks(context.Background(), itemsOf(200), 5, 2, chunks)
	var mu sync.Mutex
	took := make([]int, 2)
	solve := func(g int, items []batchItem) []batchDone {
		time.Sleep(time.Duration(1+9*g) * time.Millisecond)
		mu.Lock()
		took[g]++
		mu.Unlock()
		out := make([]batchDone, len(items))
		for k, it := range items {
			out[k] = batchDone{line: batchLine{Key: it.key(), Backend: fmt.Sprint(g)}}
		}
		return out
	}
	results := make(chan batchDone)
	go solveChunks(chunks, 2, solve, results)
	var keys []string
	for d := range results {
		keys = append(keys, d.line.Key)
	}
	want := make([]string, 200)
	for i := range want {
		want[i] = fmt.Sprintf("f:%d", i+1)
	}
	if !slices.Equal(keys, want) {
		t.Fatalf("outcomes out of order: %v", keys)
	}
	if took[0] <= took[1] || took[1] == 0 {
		t.Errorf("chunks taken by the fast and the slow GPU: %v; want both used, the fast one more", took)
	}
}

// TestBatchOnTwoGPUs: tsp batch on two fake GPUs hands each GPU's
// chunks its device alone, writes the lines in input order, and a rerun
// skips what is done.
func TestBatchOnTwoGPUs(t *testing.T) {
	dir := t.TempDir()
	in := circleLines(t, dir, 9, 8)
	var mu sync.Mutex
	seen := map[string]int{}
	solve := func(_ context.Context, ins []*solver.Instance, p solver.Params) ([]solver.Result, error) {
		mu.Lock()
		seen[p.Text(device.OptGPUs)] += len(ins)
		mu.Unlock()
		if p.Text(device.OptGPUs) == "0," {
			time.Sleep(20 * time.Millisecond) // device 0 ends after device 1
		}
		out := make([]solver.Result, len(ins))
		for i, x := range ins {
			t := solver.IdentityTour(x.N)
			out[i] = solver.Result{Tour: t, Length: solver.TourLength(x, t), Backend: solver.BackendGPU}
		}
		return out, nil
	}
	res := filepath.Join(dir, "gpu.jsonl")
	run := func(shard shard) *batchStats {
		r := &batchRequest{inputs: []string{in}, out: res, each: time.Second, jobs: 1, chunk: 2, quiet: true, progress: time.Hour, gpus: []int{0, 1}, shard: shard}
		r.p = solver.Params{Algorithm: "auto", Backend: solver.BackendGPU, TimeLimit: time.Second}
		out, done, err := openBatchOut(res, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		var pl session.Pipeline
		var stderr strings.Builder
		st, err := runBatch(context.Background(), &env{stdout: io.Discard, stderr: &stderr}, r, &pl, solve, out, done)
		if cerr := out.close(); err != nil || cerr != nil {
			t.Fatal(err, cerr)
		}
		return st
	}
	if st := run(shard{I: 0, N: 3}); st.solved != 3 {
		t.Fatalf("shard 0/3 solved %d, want 3", st.solved)
	}
	st := run(shard{})
	if st.solved != 6 || st.skipped != 3 {
		t.Fatalf("the rerun solved %d and skipped %d; want 6 and 3", st.solved, st.skipped)
	}
	if seen["0,"] == 0 || seen["1,"] == 0 || seen["0,"]+seen["1,"] != 9 {
		t.Errorf("instances by device: %v; want both devices, 9 in all", seen)
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
