package construct_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tour"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// TestTSPLIBConstruction runs every construction and both neighbour-list
// kinds on the TSPLIB instances (EXPLICIT in all its formats, GEO, ATT,
// CEIL_2D, EUC_2D): tours must be valid, greedy must beat the
// space-filling curve's bound of twice the optimum, and the k-d tree
// lists must agree with brute force.
func TestTSPLIBConstruction(t *testing.T) {
	dir := tsplibdir.Need(t)
	paths, _ := filepath.Glob(filepath.Join(dir, "*.tsp"))
	if len(paths) == 0 {
		t.Skip("no .tsp files in " + dir)
	}
	// The race detector makes this slow: skip the large files (the
	// 100k-city paths have their own benchmarks).
	maxN, maxSize := int64(1000), int64(600<<10)
	if testing.Short() {
		maxN, maxSize = 400, 64<<10
	}
	for _, p := range paths {
		st, err := os.Stat(p)
		if err != nil || st.Size() > maxSize {
			continue
		}
		in, err := tsplib.Load(p, dir)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			continue
		}
		if int64(in.N) > maxN {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(p), ".tsp")
		nb := neighbor.Nearest(in, 8)
		if in.N <= 1500 {
			for i := 0; i < in.N; i += 1 + in.N/50 {
				var all []int64
				for j := range in.N {
					if j != i {
						all = append(all, in.Dist(i, j))
					}
				}
				slices.Sort(all)
				var got []int64
				for _, c := range nb.Of(i) {
					got = append(got, in.Dist(i, int(c)))
				}
				if !slices.Equal(got, all[:nb.K]) {
					t.Fatalf("%s city %d: neighbour distances %v, brute force %v", name, i, got, all[:nb.K])
				}
			}
		}
		tours := map[string][]int{
			"nn":       construct.NearestNeighbor(in, 0, nb),
			"greedy":   construct.Greedy(in, nb),
			"quadrant": construct.Greedy(in, neighbor.Quadrant(in, 8)),
			"sfc":      construct.SpaceFillingCurve(in),
		}
		for what, tr := range tours {
			if err := problem.ValidateTour(tr, in.N); err != nil {
				t.Fatalf("%s %s: %v", name, what, err)
			}
		}
		if in.HasOptimum() {
			g := problem.TourLength(in, tours["greedy"])
			// Greedy is within a few tens of percent on geometric
			// instances; explicit ones such as brg180 (zero-length
			// bridges) defeat it, so only the lower bound holds there.
			if g < in.Optimum || (in.Metric != problem.Explicit && 2*g > 3*in.Optimum) {
				t.Errorf("%s: greedy %d, optimum %d", name, g, in.Optimum)
			}
			a := tour.NewArray(tours["greedy"])
			delta, _ := tour.TwoOpt(in, a, nb)
			o := problem.TourLength(in, a.Tour)
			if o != g+delta || o < in.Optimum || (in.Metric != problem.Explicit && 10*o > 13*in.Optimum) {
				t.Errorf("%s: greedy %d, 2-opt delta %d, after %d, optimum %d", name, g, delta, o, in.Optimum)
			}
			t.Logf("%s %s n=%d: greedy %.1f%% above optimum, then 2-opt %.1f%%", name, in.Metric, in.N,
				100*float64(g-in.Optimum)/float64(in.Optimum), 100*float64(o-in.Optimum)/float64(in.Optimum))
		}
	}
}
