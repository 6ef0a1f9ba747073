package neighbor

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/solver/problem"
)

// TestSphereNearest compares the GREAT_CIRCLE lists from the plane with
// the exact k nearest on the sphere, for points spread over 10° of
// latitude at 50° north and 20° of longitude: within one hemisphere of
// longitude, and across the antimeridian (170° E to 170° W), where the
// plane must not cut the points' neighbourhoods apart.
func TestSphereNearest(t *testing.T) {
	for _, west := range []float64{0, 170} {
		t.Run(fmt.Sprintf("from %g°E", west), func(t *testing.T) { testSphereNearest(t, west) })
	}
}

func testSphereNearest(t *testing.T, west float64) {
	const n, k = 3000, 8
	rng := rand.New(rand.NewPCG(3, 4))
	lon, lat := make([]float64, n), make([]float64, n)
	for i := range n {
		lon[i], lat[i] = west+20*rng.Float64(), 45+10*rng.Float64()
		if lon[i] >= 180 {
			lon[i] -= 360
		}
	}
	in := &problem.Instance{Name: "s", N: n, Metric: problem.GreatCircle, X: lon, Y: lat, ScaleExp: 1}
	in.Prepare()
	nb := Nearest(in, k)
	same, total := 0, 0
	for i := 0; i < n; i += 7 {
		exact := make([]int32, 0, n-1)
		for j := range n {
			if j != i {
				exact = append(exact, int32(j))
			}
		}
		slices.SortStableFunc(exact, func(a, b int32) int {
			return int(in.Dist(i, int(a)) - in.Dist(i, int(b)))
		})
		row := nb.Of(i)
		for x, c := range row {
			if x > 0 && in.Dist(i, int(row[x-1])) > in.Dist(i, int(c)) {
				t.Fatalf("list of %d not sorted by the metric", i)
			}
			if slices.Contains(exact[:k], c) {
				same++
			}
			total++
		}
	}
	if same*1000 < total*999 {
		t.Fatalf("%d of %d candidates among the exact %d nearest, want 99.9 %%", same, total, k)
	}
}
