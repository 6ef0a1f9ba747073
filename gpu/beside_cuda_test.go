//go:build cuda

package gpu

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
)

// pathLen is the length of path p of in, its closing edge left out.
func pathLen(in *solver.Instance, p []int32) int64 {
	var l int64
	for i := 1; i < len(p); i++ {
		l += in.Dist(int(p[i-1]), int(p[i]))
	}
	return l
}

// TestPathWindows hands the GPU's windows stretches of a space-filling-
// curve tour, longer and shorter ones in turn on the same buffers, the
// whole tour as a path among them: every path comes back with the same
// two ends, the same cities and exactly the reported gain shorter; a
// path handed with its context ended comes back as it was.
func TestPathWindows(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(30000, solver.Euc2D, 1e6, 31)
	t0 := construct.SpaceFillingCurve(in)
	tour := make([]int32, in.N)
	for i, c := range t0 {
		tour[i] = int32(c)
	}
	set, err := prepareAuto(in, solver.Params{})
	if err != nil {
		t.Fatal(err)
	}
	pw := ils.NewPathWindows(context.Background(), in, set.windows, 1)
	defer pw.Close()
	for _, c := range []struct{ from, m int }{{100, 12000}, {5000, 700}, {0, in.N}, {20000, 3000}, {29000, 65}} {
		path := slices.Clone(tour[c.from : c.from+c.m])
		before := slices.Clone(path)
		l0 := pathLen(in, path)
		gain, err := pw.ImprovePath(context.Background(), in, path, time.Now().Add(200*time.Millisecond))
		if err != nil {
			t.Fatal(err)
		}
		if path[0] != before[0] || path[c.m-1] != before[c.m-1] {
			t.Fatalf("%d cities: ends %d..%d, were %d..%d", c.m, path[0], path[c.m-1], before[0], before[c.m-1])
		}
		a, b := slices.Clone(path), slices.Clone(before)
		slices.Sort(a)
		slices.Sort(b)
		if !slices.Equal(a, b) {
			t.Fatalf("%d cities: not the same cities", c.m)
		}
		if l := pathLen(in, path); l != l0-gain || gain < 0 {
			t.Fatalf("%d cities: exact length %d, %d - gain %d = %d", c.m, l, l0, gain, l0-gain)
		}
		if gain == 0 && c.m >= 700 {
			t.Fatalf("%d cities of a space-filling curve: no gain", c.m)
		}
		t.Logf("%d cities: %d -> %d (%.1f%%)", c.m, l0, l0-gain, 100*float64(gain)/float64(max(l0, 1)))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	path := slices.Clone(tour[:5000])
	if gain, err := pw.ImprovePath(ctx, in, path, time.Now().Add(time.Second)); err != nil || gain != 0 || !slices.Equal(path, tour[:5000]) {
		t.Fatalf("an ended context: gain %d, err %v, the path changed: %v", gain, err, !slices.Equal(path, tour[:5000]))
	}
}
