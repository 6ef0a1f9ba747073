package gpu

import (
	"context"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
)

// twoOptPath improves a path by 2-opt moves that keep its two ends: the
// CPU's stand-in for a GPU's windows in these tests, calls counted.
type twoOptPath struct{ calls int }

func (tp *twoOptPath) ImprovePath(_ context.Context, in *solver.Instance, path []int32, _ time.Time) (int64, error) {
	tp.calls++
	d := func(a, b int32) int64 { return in.Dist(int(a), int(b)) }
	var gain int64
	for again := true; again; {
		again = false
		for i := 0; i+2 < len(path); i++ {
			for j := i + 2; j+1 < len(path); j++ {
				if g := d(path[i], path[i+1]) + d(path[j], path[j+1]) - d(path[i], path[j]) - d(path[i+1], path[j+1]); g > 0 {
					slices.Reverse(path[i+1 : j+1])
					gain, again = gain+g, true
				}
			}
		}
	}
	return gain, nil
}

// TestSplitPaths: each improver gets one piece; the path keeps its cities
// and its two ends, and shortens by the gain reported.
func TestSplitPaths(t *testing.T) {
	in := testinst.IntEuc(300, 1000, rand.New(rand.NewPCG(3, 4)))
	for _, k := range []int{1, 2, 3} {
		path := make([]int32, 200)
		for i := range path {
			path[i] = int32(i)
		}
		sp := make(splitPaths, k)
		imps := make([]*twoOptPath, k)
		for i := range sp {
			imps[i] = &twoOptPath{}
			sp[i] = imps[i]
		}
		before := solver.PathLength(in, toInts(path))
		gain, err := sp.ImprovePath(context.Background(), in, path, time.Now().Add(time.Second))
		if err != nil {
			t.Fatal(err)
		}
		after := solver.PathLength(in, toInts(path))
		sorted := slices.Sorted(slices.Values(path))
		for i, c := range sorted {
			if c != int32(i) {
				t.Fatalf("%d improvers: the path lost or doubled city %d", k, i+1)
			}
		}
		if path[0] != 0 || path[len(path)-1] != 199 || gain <= 0 || before-after != gain {
			t.Fatalf("%d improvers: ends %d, %d, gain %d, length %d to %d", k, path[0], path[len(path)-1], gain, before, after)
		}
		for i, tp := range imps {
			if tp.calls != 1 {
				t.Fatalf("%d improvers: improver %d called %d times", k, i, tp.calls)
			}
		}
	}
}

// toInts is t as ints.
func toInts(t []int32) []int {
	out := make([]int, len(t))
	for i, c := range t {
		out[i] = int(c)
	}
	return out
}
