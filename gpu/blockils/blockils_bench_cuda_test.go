//go:build cuda

package blockils

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// poolVariants are the settings BenchmarkBlockILSPool compares.
var poolVariants = []biOpts{{seg: 30}, {seg: 100, or3: true}, {seg: 300, or3: true}, {seg: 1000, or3: true}}

// BenchmarkBlockILSPool times the pool on TSPLIB instances from the
// greedy tour (every slot a copy), for each of poolVariants: an operation
// is one round of one second; it reports the kicks a second and the best
// and mean gap above the optimum after the rounds.
func BenchmarkBlockILSPool(b *testing.B) {
	gputest.NeedDevice(b)
	for _, c := range []struct {
		name string
		opt  int64
	}{{"pr2392", 378032}, {"fnl4461", 182566}} {
		in, err := tsplib.Load(tsplibdir.Instance(b, c.name))
		if err != nil {
			b.Skip(err)
		}
		greedy := device.Convert[int32](construct.Greedy(in, neighbor.Nearest(in, 10)))
		for _, o := range poolVariants {
			b.Run(fmt.Sprintf("%s/seg=%d/or3=%v", c.name, o.seg, o.or3), func(b *testing.B) { benchPool(b, in, c.opt, greedy, o) })
		}
	}
}

func benchPool(b *testing.B, in *solver.Instance, opt int64, greedy []int32, o biOpts) {
	p, err := openTourPool(in, 1, o)
	if err != nil {
		b.Fatal(err)
	}
	defer p.Close()
	tours := make([][]int32, p.Slots())
	for i := range tours {
		tours[i] = slices.Clone(greedy)
	}
	var lens []int64
	var kicks uint64
	var spent time.Duration
	for b.Loop() {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		t0 := time.Now()
		lens, err = p.Improve(ctx, tours, 0)
		spent += time.Since(t0)
		cancel()
		if err != nil {
			b.Fatal(err)
		}
		kicks += p.ctr[2]
	}
	var sum int64
	for _, l := range lens {
		sum += l
	}
	gap := func(l int64) float64 { return 100 * float64(l-opt) / float64(opt) }
	b.ReportMetric(float64(kicks)/spent.Seconds(), "kicks/s")
	b.ReportMetric(gap(slices.Min(lens)), "best-%")
	b.ReportMetric(gap(sum/int64(len(lens))), "mean-%")
}
