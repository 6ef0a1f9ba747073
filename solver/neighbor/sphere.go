package neighbor

import (
	"context"
	"math"
	"slices"

	"github.com/tsplab/tsplab/solver/problem"
)

// sphereWiden is the extra candidates the plane search takes on the sphere.
const sphereWiden = 2

// sphereBrute is the size up to which GREAT_CIRCLE lists are exact O(n²).
const sphereBrute = 2000

// planar returns an EUC_2D stand-in for a GREAT_CIRCLE instance, projected about its middle latitude with its seam
// in the widest empty arc, close enough to find candidates the exact metric ranks.
func planar(in *problem.Instance) *problem.Instance {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range in.Y {
		lo, hi = math.Min(lo, v), math.Max(hi, v)
	}
	unit := problem.EarthRadius * math.Pow10(in.ScaleExp) * math.Pi / 180
	c := math.Cos((lo + hi) / 2 * math.Pi / 180)
	seam := emptiestLongitude(in.X)
	x, y := make([]float64, in.N), make([]float64, in.N)
	for i := range in.N {
		x[i] = wrapDegrees(in.X[i]-seam) * c * unit
		y[i] = in.Y[i] * unit
	}
	return problem.NewCoordInstance(in.Name, problem.Euc2D, x, y, nil)
}

// wrapDegrees returns a longitude difference in [0, 360).
func wrapDegrees(d float64) float64 {
	d = math.Mod(d, 360)
	if d < 0 {
		d += 360
	}
	return d
}

// emptiestLongitude returns the middle of the widest arc of longitude holding no city, across ±180° too.
func emptiestLongitude(lon []float64) float64 {
	if len(lon) == 0 {
		return 180
	}
	s := make([]float64, len(lon))
	for i, v := range lon {
		s[i] = wrapDegrees(v)
	}
	slices.Sort(s)
	// the arc from the last longitude round to the first
	from, width := s[len(s)-1], s[0]+360-s[len(s)-1]
	for i := 1; i < len(s); i++ {
		if g := s[i] - s[i-1]; g > width {
			from, width = s[i-1], g
		}
	}
	return from + width/2
}

// sphereNearest returns a GREAT_CIRCLE instance's nearest lists from sphereWiden·k planar candidates, exactly ranked.
func sphereNearest(ctx context.Context, in *problem.Instance, k int) (*Lists, error) {
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
