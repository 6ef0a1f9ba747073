// Package gen generates EUC_2D instances with integer coordinates (so a
// written file keeps the distances) for tests, benchmarks and samples; the
// circle (angular order) and the even grid (a serpentine) have a proved
// optimum.
package gen

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"

	"github.com/tsplab/tsplab/solver/problem"
)

// Kinds lists the supported instance kinds.
var Kinds = []string{"uniform", "clustered", "circle", "grid", "portgen", "portcgen"}

// GridSpacing is a grid instance's point spacing: n points have the optimum n*GridSpacing.
const GridSpacing = 100

// MaxCircle is the largest circle instance: its radius grows as n², and longer edges would overflow int32 matrices.
const MaxCircle = 20000

// MaxN bounds every kind, so a typo cannot ask for gigabytes.
const MaxN = 10_000_000

// Generate returns the EUC_2D instance of kind (uniform, clustered, circle, grid, portgen or portcgen) with n cities
// from seed, carrying a proved optimum where there is one.
func Generate(kind string, n int, seed uint64) (*problem.Instance, error) {
	if n < 1 {
		return nil, fmt.Errorf("gen: n must be at least 1, got %d", n)
	}
	if n > MaxN {
		return nil, fmt.Errorf("gen: n = %d is larger than the supported %d", n, MaxN)
	}
	rng := rand.New(rand.NewPCG(seed, 0x7473706c6162)) // "tsplab"
	var (
		in   *problem.Instance
		what string
		err  error
	)
	switch kind {
	case "uniform":
		in, what = uniform(n, seed, rng)
	case "clustered":
		in, what = clustered(n, seed, rng)
	case "circle":
		in, what, err = circle(n)
	case "grid":
		in, what, err = grid(n)
	case "portgen", "portcgen":
		in, what, err = dimacs(kind, n, seed)
	default:
		return nil, fmt.Errorf("gen: unknown kind %q (want %s)", kind, strings.Join(Kinds, ", "))
	}
	if err != nil {
		return nil, err
	}
	in.Comment = "TSP Lab gen: " + what
	if t, err := OptimalTour(kind, n); err == nil {
		in.Optimum = problem.TourLength(in, t)
		in.OptimumSource = "gen: " + kind
	}
	if in.HasOptimum() {
		in.Comment += fmt.Sprintf("; optimum %d", in.Optimum)
	}
	return in, nil
}

// uniform draws n distinct points in a square, with a COMMENT description.
func uniform(n int, seed uint64, rng *rand.Rand) (*problem.Instance, string) {
	side := squareSide(n)
	x, y := make([]float64, n), make([]float64, n)
	pts := newPointSet(n)
	for i := 0; i < n; i++ {
		for {
			px, py := rng.Int64N(side+1), rng.Int64N(side+1)
			if pts.add(px, py) {
				x[i], y[i] = float64(px), float64(py)
				break
			}
		}
	}
	in := problem.NewCoordInstance(fmt.Sprintf("uniform-%d", n), problem.Euc2D, x, y, nil)
	return in, fmt.Sprintf("%d points uniform in [0,%d]^2, seed %d", n, side, seed)
}

// clustered draws n points in Gaussian clusters of about 100, with a description.
func clustered(n int, seed uint64, rng *rand.Rand) (*problem.Instance, string) {
	side := squareSide(n)
	k := max(1, (n+50)/100)
	cx, cy := make([]float64, k), make([]float64, k)
	sigma := float64(side) / (6 * math.Sqrt(float64(k)))
	// Centres at least 2 sigma inside the square, so redraws are rare.
	for c := range k {
		cx[c] = 2*sigma + rng.Float64()*(float64(side)-4*sigma)
		cy[c] = 2*sigma + rng.Float64()*(float64(side)-4*sigma)
	}
	x, y := make([]float64, n), make([]float64, n)
	pts := newPointSet(n)
	for i := 0; i < n; i++ {
		c := i % k
		for tries := 0; ; tries++ {
			px := math.Round(cx[c] + sigma*rng.NormFloat64())
			py := math.Round(cy[c] + sigma*rng.NormFloat64())
			if px < 0 || py < 0 || px > float64(side) || py > float64(side) {
				continue // redraw rather than pile points up on the border
			}
			// Duplicates are legal in TSPLIB; avoid them while that is cheap.
			if pts.add(int64(px), int64(py)) || tries > 100 {
				x[i], y[i] = px, py
				break
			}
		}
	}
	in := problem.NewCoordInstance(fmt.Sprintf("clustered-%d", n), problem.Euc2D, x, y, nil)
	return in, fmt.Sprintf("%d points in %d Gaussian clusters (sigma %.0f) in [0,%d]^2, seed %d", n, k, sigma, side, seed)
}

// circle places n points on a circle in angular order, with a description.
func circle(n int) (*problem.Instance, string, error) {
	if n > MaxCircle {
		return nil, "", fmt.Errorf("gen: circle supports n up to %d (its radius grows as n²), got %d", MaxCircle, n)
	}
	r := CircleRadius(n)
	x, y := make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * float64(i) / float64(n)
		x[i] = math.Round(r + r*math.Cos(a))
		y[i] = math.Round(r + r*math.Sin(a))
	}
	in := problem.NewCoordInstance(fmt.Sprintf("circle-%d", n), problem.Euc2D, x, y, nil)
	return in, fmt.Sprintf("%d points on a circle of radius %.0f in angular order", n, r), nil
}

// grid places n points on a rows × cols grid (GridShape), with a description.
func grid(n int) (*problem.Instance, string, error) {
	rows, cols, err := GridShape(n)
	if err != nil {
		return nil, "", err
	}
	x, y := make([]float64, n), make([]float64, n)
	for r := 0; r < rows; r++ {
		for c := 0; c < cols; c++ {
			x[r*cols+c], y[r*cols+c] = float64(c*GridSpacing), float64(r*GridSpacing)
		}
	}
	in := problem.NewCoordInstance(fmt.Sprintf("grid-%dx%d", rows, cols), problem.Euc2D, x, y, nil)
	return in, fmt.Sprintf("%d×%d grid, spacing %d", rows, cols, GridSpacing), nil
}

// OptimalTour returns the known optimal tour of Generate(kind, n, seed): angular for circle, a serpentine for grid.
func OptimalTour(kind string, n int) ([]int, error) {
	switch kind {
	case "circle":
		if n < 1 || n > MaxCircle {
			return nil, fmt.Errorf("gen: circle supports n from 1 to %d, got %d", MaxCircle, n)
		}
		return problem.IdentityTour(n), nil
	case "grid":
		rows, cols, err := GridShape(n)
		if err != nil {
			return nil, err
		}
		return gridTour(rows, cols), nil
	}
	return nil, fmt.Errorf("gen: no known optimal tour for kind %q", kind)
}

// GridShape returns Generate's grid for n points: near square, rows even, both at least 2, so a tour of unit steps exists.
func GridShape(n int) (rows, cols int, err error) {
	if n < 4 || n%2 != 0 {
		return 0, 0, fmt.Errorf("gen: grid needs an even n of at least 4 (rows × cols with an even side, so the optimum is n·%d), got %d", GridSpacing, n)
	}
	best := 2 // n is even, so 2 × n/2 always works
	for r := 3; r*r <= n; r++ {
		if n%r == 0 && (r%2 == 0 || (n/r)%2 == 0) {
			best = r
		}
	}
	rows, cols = best, n/best
	if rows%2 != 0 {
		rows, cols = cols, rows
	}
	if rows < 2 || cols < 2 {
		return 0, 0, fmt.Errorf("gen: grid of %d points has no layout with both sides at least 2", n)
	}
	return rows, cols, nil
}

// gridTour walks row 0, snakes through columns 1.. of the other rows and comes back down column 0, one spacing a step.
func gridTour(rows, cols int) []int {
	t := make([]int, 0, rows*cols)
	for c := 0; c < cols; c++ {
		t = append(t, c)
	}
	for r := 1; r < rows; r++ {
		if r%2 == 1 {
			for c := cols - 1; c >= 1; c-- {
				t = append(t, r*cols+c)
			}
		} else {
			for c := 1; c < cols; c++ {
				t = append(t, r*cols+c)
			}
		}
	}
	for r := rows - 1; r >= 1; r-- {
		t = append(t, r*cols)
	}
	return t
}

// CircleRadius is the radius Generate uses for n points on a circle. The
// angular tour is optimal under TSPLIB's rounded distances because of the
// following bound. On the exact regular n-gon with chords c1 (neighbours)
// < c2 (two apart) ≤ every longer chord, any tour other than the angular
// one has at least two edges that are not c1 (n-1 neighbour edges already
// force the last one), so it is at least n·c1 + 2(c2-c1) long. Rounding
// each coordinate to an integer moves a point by at most √½ and nint adds
// at most ½, so every TSPLIB distance is within 2 of the exact chord: the
// angular tour is below n·(c1+2) and any other above n·c1 + 2(c2-c1) -
// 2n. With c2 - c1 = 2r(sin 2π/n - sin π/n) ≥ 2n no other tour is
// shorter. The radius is at least 1000 so small instances draw well.
func CircleRadius(n int) float64 {
	r := 1000.0
	if n >= 4 {
		fn := float64(n)
		need := fn / (math.Sin(2*math.Pi/fn) - math.Sin(math.Pi/fn))
		r = max(r, math.Ceil(need*1.01))
	}
	return r
}

// squareSide is the side of the uniform and clustered instances' square: 1000 units per point spacing.
func squareSide(n int) int64 {
	return 1000 * int64(math.Ceil(math.Sqrt(float64(n))))
}

// pointSet remembers integer points to avoid duplicates.
type pointSet map[[2]int64]struct{}

func newPointSet(n int) pointSet { return make(pointSet, n) }

func (s pointSet) add(x, y int64) bool {
	k := [2]int64{x, y}
	if _, ok := s[k]; ok {
		return false
	}
	s[k] = struct{}{}
	return true
}
