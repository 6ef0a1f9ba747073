package population_test

import (
	"context"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/ils"
	"github.com/tsplab/tsplab/solver/cpu/recomb"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// BenchmarkGPXOnAuto crosses the tours of four independent 2-s auto runs
// on pr2392 (one worker each), pairwise, with each variant of partition
// crossover (an operation: every pair crossed once), and reports the
// child's mean gain over the better parent and the pairs that gained.
func BenchmarkGPXOnAuto(b *testing.B) {
	in, err := tsplib.Load(tsplibdir.Instance(b, "pr2392"), tsplibdir.Need(b))
	if err != nil {
		b.Fatal(err)
	}
	var tours [][]int32
	var lens []int64
	for s := uint64(1); s <= 4; s++ {
		res, err := solver.Run(context.Background(), ils.Auto(), in, solver.Params{Seed: s, Workers: 1, TimeLimit: 2 * time.Second}, nil)
		if err != nil {
			b.Fatal(err)
		}
		tt := make([]int32, in.N)
		for i, c := range res.Tour {
			tt[i] = int32(c)
		}
		tours, lens = append(tours, tt), append(lens, res.Length)
	}
	child := make([]int32, in.N)
	for _, v := range []struct {
		name string
		g    *recomb.GPX
	}{
		{"gpx", &recomb.GPX{NoGhosts: true, NoFusion: true, NoRepair: true}},
		{"gpx+repair", &recomb.GPX{NoGhosts: true, NoFusion: true}},
		{"gpx2", &recomb.GPX{NoRepair: true}},
		{"gpx2+repair", &recomb.GPX{}},
	} {
		b.Run(v.name, func(b *testing.B) {
			var sum float64
			k, gains := 0, 0
			for b.Loop() {
				sum, k, gains = 0, 0, 0
				for i := range tours {
					for j := i + 1; j < len(tours); j++ {
						st := v.g.Cross(in, tours[i], tours[j], lens[i], lens[j], child)
						sum += 100 * float64(st.Gain) / float64(min(lens[i], lens[j]))
						k++
						if st.Gain > 0 {
							gains++
						}
					}
				}
			}
			b.ReportMetric(sum/float64(k), "gain-%")
			b.ReportMetric(float64(gains), "pairs-gained")
		})
	}
}
