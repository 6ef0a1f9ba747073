package neighbor

import (
	"context"
	"math"

	"github.com/tsplab/tsplab/solver"
)

// sphereWiden is how many more candidates the plane search takes for a
// GREAT_CIRCLE instance than it keeps after ranking them on the sphere.
const sphereWiden = 2

// sphereBrute is the size up to which GREAT_CIRCLE lists come from the
// exact O(n²) search.
const sphereBrute = 2000

// planar returns an EUC_2D stand-in for a GREAT_CIRCLE instance: its
// points projected equirectangularly about their middle latitude, in the
// units of the instance's distances. Nearby points keep nearly their
// distances (not across the antimeridian or near the poles), enough to
// find candidates that the exact metric then ranks.
func planar(in *solver.Instance) *solver.Instance {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range in.Y {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	unit := solver.EarthRadius * math.Pow10(in.ScaleExp) * math.Pi / 180
	c := math.Cos((lo + hi) / 2 * math.Pi / 180)
	x, y := make([]float64, in.N), make([]float64, in.N)
	for i := range in.N {
		x[i] = in.X[i] * c * unit
		y[i] = in.Y[i] * unit
	}
	return solver.NewCoordInstance(in.Name, solver.Euc2D, x, y, nil)
}

// sphereNearest returns the k nearest lists of a GREAT_CIRCLE instance:
// sphereWiden·k candidates from the plane of planar, ranked by the exact
// metric, the k nearest kept.
func sphereNearest(ctx context.Context, in *solver.Instance, k int) (*Lists, error) {
	wide, err := NearestContext(ctx, planar(in), min(sphereWiden*k, in.N-1))
	if err != nil {
		return nil, err
	}
	nb := &Lists{K: k, List: make([]int32, in.N*k)}
	for i := range in.N {
		row := wide.Of(i)
		sortByDist(in, i, row)
		copy(nb.List[i*k:(i+1)*k], row[:k])
	}
	return nb, nil
}
