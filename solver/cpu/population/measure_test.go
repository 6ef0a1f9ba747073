package population_test

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	_ "github.com/tsplab/tsplab/solver/cpu"
	"github.com/tsplab/tsplab/solver/cpu/recomb"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// TestMeasureGPXOnAuto crosses tours of independent auto runs and logs
// the child's gain over the better parent: a measurement, run only when
// TSPLAB_GPX_MEASURE names an instance (with TSPLAB_GPX_TIME seconds a
// run, default 5, and TSPLAB_GPX_RUNS runs, default 4).
func TestMeasureGPXOnAuto(t *testing.T) {
	name := os.Getenv("TSPLAB_GPX_MEASURE")
	if name == "" {
		t.Skip("set TSPLAB_GPX_MEASURE=instance to measure")
	}
	in, err := tsplib.Load(filepath.Join(tsplibdir.Need(t), name+".tsp"), tsplibdir.Need(t))
	if err != nil {
		t.Fatal(err)
	}
	secs, runs := 5.0, 4
	if v, err := strconv.ParseFloat(os.Getenv("TSPLAB_GPX_TIME"), 64); err == nil {
		secs = v
	}
	if v, err := strconv.Atoi(os.Getenv("TSPLAB_GPX_RUNS")); err == nil {
		runs = v
	}
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	var tours [][]int32
	var lens []int64
	for s := 1; s <= runs; s++ {
		res, err := e.Solve(context.Background(), in, solver.Params{Seed: uint64(s), Workers: 1, TimeLimit: time.Duration(secs * float64(time.Second))}, nil)
		if err != nil {
			t.Fatal(err)
		}
		tt := make([]int32, in.N)
		for i, c := range res.Tour {
			tt[i] = int32(c)
		}
		tours = append(tours, tt)
		lens = append(lens, res.Length)
		g, _ := in.Gap(res.Length)
		t.Logf("run %d: %d (%.3f %%)", s, res.Length, g)
	}
	child := make([]int32, in.N)
	for _, v := range []struct {
		name string
		g    *recomb.GPX
	}{
		{"gpx", &recomb.GPX{NoGhosts: true, NoFusion: true, NoRepair: true}},
		{"gpx+repair", &recomb.GPX{NoGhosts: true, NoFusion: true}},
		{"gpx2", &recomb.GPX{BothWays: true, NoRepair: true}},
		{"gpx2 one way+repair", &recomb.GPX{}},
		{"gpx2+repair", &recomb.GPX{BothWays: true}},
	} {
		var sum float64
		k, gains := 0, 0
		for i := range tours {
			for j := i + 1; j < len(tours); j++ {
				st := v.g.Cross(in, tours[i], tours[j], lens[i], lens[j], child)
				sum += 100 * float64(st.Gain) / float64(min(lens[i], lens[j]))
				k++
				if st.Gain > 0 {
					gains++
				}
				t.Logf("%s %d×%d: %+v", v.name, i, j, st)
			}
		}
		t.Logf("%s: mean gain %.4f %% of the better parent over %d pairs, %d gained", v.name, sum/float64(k), k, gains)
	}
}
