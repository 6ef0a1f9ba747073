package neighbor

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// The benchmarks below time the lists the CPU engines build at set-up
// (k = 8, the engines' default) on large instances: a million uniform
// cities, 200,000 clustered ones, and TSPLIB's pla85900 and usa13509
// (skipped when the TSPLIB folder is absent). Instances are made once
// per process.

var benchInst sync.Map // name -> *problem.Instance

func benchGen(b *testing.B, kind string, n int) *problem.Instance {
	b.Helper()
	key := fmt.Sprint(kind, n)
	if in, ok := benchInst.Load(key); ok {
		return in.(*problem.Instance)
	}
	in, err := gen.Generate(kind, n, 1)
	if err != nil {
		b.Fatal(err)
	}
	benchInst.Store(key, in)
	return in
}

func benchTSPLIB(b *testing.B, name string) *problem.Instance {
	b.Helper()
	if in, ok := benchInst.Load(name); ok {
		return in.(*problem.Instance)
	}
	in, err := tsplib.Read(tsplibdir.Instance(b, name))
	if err != nil {
		b.Fatal(err)
	}
	benchInst.Store(name, in)
	return in
}

func benchLists(b *testing.B, in *problem.Instance) {
	b.Run("nearest", func(b *testing.B) {
		for b.Loop() {
			Nearest(in, 8)
		}
	})
	b.Run("quadrant", func(b *testing.B) {
		for b.Loop() {
			Quadrant(in, 8)
		}
	})
	b.Run("grid6", func(b *testing.B) {
		for b.Loop() {
			GridNearestContext(context.Background(), in, 6)
		}
	})
	b.Run("nearest6", func(b *testing.B) {
		for b.Loop() {
			Nearest(in, 6)
		}
	})
	// both: the CPU engine's default "mixed" candidates, nearest lists
	// for half the workers and quadrant lists for the others.
	b.Run("both", func(b *testing.B) {
		for b.Loop() {
			NearestQuadrantContext(context.Background(), in, 8)
		}
	})
}

func BenchmarkListsUniform1M(b *testing.B)     { benchLists(b, benchGen(b, "uniform", 1_000_000)) }
func BenchmarkListsClustered200k(b *testing.B) { benchLists(b, benchGen(b, "clustered", 200_000)) }
func BenchmarkListsPla85900(b *testing.B)      { benchLists(b, benchTSPLIB(b, "pla85900")) }
func BenchmarkListsUsa13509(b *testing.B)      { benchLists(b, benchTSPLIB(b, "usa13509")) }

// BenchmarkQuadrantRatioUniform1M times the clustering check on a sample of
// 65,536 of a million uniform cities.
func BenchmarkQuadrantRatioUniform1M(b *testing.B) {
	in := benchGen(b, "uniform", 1000000)
	for b.Loop() {
		QuadrantRatio(in, 8, 1<<16)
	}
}
