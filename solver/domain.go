package solver

import "github.com/tsplab/tsplab/solver/problem"

// The problem itself is defined in solver/problem; these names let engines and front ends use it as solver's own.
type (
	// Instance is one symmetric TSP instance (problem.Instance).
	Instance = problem.Instance
	// Metric is a TSPLIB95 EDGE_WEIGHT_TYPE.
	Metric = problem.Metric
	// PointList is what a point-list file gave beyond the distances.
	PointList = problem.PointList
)

// The edge weight types (problem.Metric says what each is).
const (
	Explicit    = problem.Explicit
	Euc2D       = problem.Euc2D
	Ceil2D      = problem.Ceil2D
	Att         = problem.Att
	Geo         = problem.Geo
	Man2D       = problem.Man2D
	Max2D       = problem.Max2D
	Euc3D       = problem.Euc3D
	Man3D       = problem.Man3D
	Max3D       = problem.Max3D
	GreatCircle = problem.GreatCircle
	EarthRadius = problem.EarthRadius
	// EstimateMinN is the least size Instance.EstimateOptimum estimates.
	EstimateMinN = problem.EstimateMinN
)

// NewCoordInstance is problem.NewCoordInstance.
func NewCoordInstance(name string, m Metric, x, y, z []float64) *Instance {
	return problem.NewCoordInstance(name, m, x, y, z)
}

// OfCities is problem.OfCities.
func OfCities[C ~int | ~int32](in *Instance, name string, cities []C) *Instance {
	return problem.OfCities(in, name, cities)
}

// NewMatrixInstance is problem.NewMatrixInstance.
func NewMatrixInstance(name string, n int, matrix []int32) *Instance {
	return problem.NewMatrixInstance(name, n, matrix)
}

// ValidateTour is problem.ValidateTour.
func ValidateTour(t []int, n int) error { return problem.ValidateTour(t, n) }

// PathLength is problem.PathLength.
func PathLength(in *Instance, p []int) int64 { return problem.PathLength(in, p) }

// GapPercent is problem.GapPercent.
func GapPercent(length, optimum int64) (float64, bool) { return problem.GapPercent(length, optimum) }

// IdentityTour is problem.IdentityTour.
func IdentityTour(n int) []int { return problem.IdentityTour(n) }

// SameCycle is problem.SameCycle.
func SameCycle(a, b []int) bool { return problem.SameCycle(a, b) }

// GroupDigits is problem.GroupDigits.
func GroupDigits(s string) string { return problem.GroupDigits(s) }

// Plural is problem.Plural.
func Plural(n int64, noun string, pl ...string) string { return problem.Plural(n, noun, pl...) }

// TourLength is problem.TourLength.
func TourLength[C problem.City](in *Instance, t []C) int64 { return problem.TourLength(in, t) }
