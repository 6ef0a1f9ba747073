//go:build cuda

package batch

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	cpuils "github.com/tsplab/tsplab/solver/cpu/ils"
	"github.com/tsplab/tsplab/solver/gen"
)

// BenchmarkBatch solves 1,000 uniform 200-city instances in 2 s (an
// operation) with the polish from half the time (the default) and with
// the end's merge alone, and reports, over the first 50 instances, the
// mean gap above a reference (the better of two CPU auto runs of 5,000
// kicks, one worker each) of the results, of the GPU's shortest tours and
// of the end's merged tours.
func BenchmarkBatch(b *testing.B) {
	gputest.NeedDevice(b)
	const count, n, sample = 1000, 200, 50
	ins := make([]*solver.Instance, count)
	for i := range ins {
		in, err := gen.Generate("uniform", n, uint64(i+1))
		if err != nil {
			b.Fatal(err)
		}
		ins[i] = in
	}
	ref := make([]int64, sample)
	spread(sample, 16, func() func(int) bool {
		return func(i int) bool {
			for _, seed := range []uint64{9, 11} {
				p := solver.Params{Seed: seed, Workers: 1, TimeLimit: 30 * time.Second, Extra: map[string]string{"kicks": "5000"}}
				if r, err := solver.Run(context.Background(), cpuils.Auto(), ins[i], p, nil); err == nil && (ref[i] == 0 || r.Length < ref[i]) {
					ref[i] = r.Length
				}
			}
			return true
		}
	})()
	gap := func(l int64, i int) float64 { return 100 * float64(l-ref[i]) / float64(ref[i]) }
	for _, at := range []float64{batchPolishAt, 0} {
		b.Run(fmt.Sprintf("polish=%.2f", at), func(b *testing.B) {
			var mu sync.Mutex
			var gpu, merged float64
			var logged int
			cfg := defaultConfig()
			cfg.polishAt = at
			cfg.log = func(i int, g, m int64) {
				if i < sample {
					mu.Lock()
					gpu, merged, logged = gpu+gap(g, i), merged+gap(m, i), logged+1
					mu.Unlock()
				}
			}
			var sum float64
			runs := 0
			for b.Loop() {
				res, err := solveWith(context.Background(), ins, solver.Params{Seed: uint64(runs + 1), TimeLimit: 2 * time.Second}, cfg)
				if err != nil {
					b.Fatal(err)
				}
				for i := range sample {
					sum += gap(res[i].Length, i)
				}
				runs++
			}
			b.ReportMetric(sum/float64(runs*sample), "gap-%")
			if logged > 0 {
				b.ReportMetric(gpu/float64(logged), "gpu-gap-%")
				b.ReportMetric(merged/float64(logged), "merged-gap-%")
			}
		})
	}
}
