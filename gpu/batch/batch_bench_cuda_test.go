//go:build cuda

package batch

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	cpuils "github.com/tsplab/tsplab/solver/cpu/ils"
	"github.com/tsplab/tsplab/solver/gen"
)

// batchCase is a batch the benchmark solves: count uniform instances of n
// cities in limit, the first sample of them against a reference, the
// better of two CPU auto runs of refKicks kicks (one worker each), or,
// with refTime, one CPU auto run of that time.
type batchCase struct {
	name             string
	count, n, sample int
	limit            time.Duration
	refKicks         int
	refTime          time.Duration
	polishes         []float64
}

// BenchmarkBatch solves the batches of DECISIONS' figures (an operation:
// one batch), the larger with the polish from half the time (the
// default) and with the end's merge alone, and reports, over the first
// instances, the mean gap above the reference of the results, of the
// GPU's shortest tours and of the end's merged tours.
func BenchmarkBatch(b *testing.B) {
	gputest.NeedDevice(b)
	for _, c := range []batchCase{
		{name: "10000x100", count: 10000, n: 100, sample: 200, limit: 2 * time.Second, refKicks: 5000, polishes: []float64{batchPolishAt}},
		{name: "1000x1000", count: 1000, n: 1000, sample: 40, limit: 25 * time.Second, refTime: 10 * time.Second, polishes: []float64{batchPolishAt, 0}},
	} {
		b.Run(c.name, func(b *testing.B) { benchBatch(b, c) })
	}
}

func benchBatch(b *testing.B, c batchCase) {
	ins := make([]*solver.Instance, c.count)
	for i := range ins {
		in, err := gen.Generate("uniform", c.n, uint64(i+1))
		if err != nil {
			b.Fatal(err)
		}
		ins[i] = in
	}
	ref := batchRefs(b, ins[:c.sample], c)
	gap := func(l int64, i int) float64 { return 100 * float64(l-ref[i]) / float64(ref[i]) }
	for _, at := range c.polishes {
		b.Run(fmt.Sprintf("polish=%.2f", at), func(b *testing.B) {
			var mu sync.Mutex
			var gpu, merged, sum float64
			logged, runs := 0, 0
			cfg := defaultConfig()
			cfg.polishAt = at
			cfg.log = func(i int, g, m int64) {
				if i < c.sample {
					mu.Lock()
					gpu, merged, logged = gpu+gap(g, i), merged+gap(m, i), logged+1
					mu.Unlock()
				}
			}
			for b.Loop() {
				p := withOpts(b, solver.Params{Seed: uint64(runs + 1), TimeLimit: c.limit}, "kicks=0") // by time
				res, err := solveWith(context.Background(), ins, p, cfg)
				if err != nil {
					b.Fatal(err)
				}
				for i := range c.sample {
					sum += gap(res[i].Length, i)
				}
				runs++
			}
			b.ReportMetric(sum/float64(runs*c.sample), "gap-%")
			if logged > 0 {
				b.ReportMetric(gpu/float64(logged), "gpu-gap-%")
				b.ReportMetric(merged/float64(logged), "merged-gap-%")
			}
		})
	}
}

// batchRefs are the reference lengths of ins under c, 16 at a time.
func batchRefs(b *testing.B, ins []*solver.Instance, c batchCase) []int64 {
	ref := make([]int64, len(ins))
	spread(len(ins), 16, func() func(int) bool {
		return func(i int) bool {
			runs := []solver.Params{
				withOpts(b, solver.Params{Seed: 9, Workers: 1, TimeLimit: 30 * time.Second}, fmt.Sprint("kicks=", c.refKicks)),
				withOpts(b, solver.Params{Seed: 11, Workers: 1, TimeLimit: 30 * time.Second}, fmt.Sprint("kicks=", c.refKicks)),
			}
			if c.refTime > 0 {
				runs = []solver.Params{{Seed: 9, Workers: 1, TimeLimit: c.refTime}}
			}
			for _, p := range runs {
				if r, err := solver.Run(context.Background(), cpuils.Auto(), ins[i], p, nil); err == nil && (ref[i] == 0 || r.Length < ref[i]) {
					ref[i] = r.Length
				}
			}
			return true
		}
	})()
	for i, r := range ref {
		if r == 0 {
			b.Fatalf("no reference for instance %d", i)
		}
	}
	return ref
}
