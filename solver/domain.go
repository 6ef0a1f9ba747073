package solver

import "github.com/tsplab/tsplab/solver/problem"

// The problem itself (instances, their distances, tours, lengths and units)
// is defined in solver/problem, which imports nothing of this module; these
// names let engines and front ends use it as solver's own.
type (
	// Instance is one symmetric TSP instance (problem.Instance).
	Instance = problem.Instance
	// Metric is a TSPLIB95 EDGE_WEIGHT_TYPE.
	Metric = problem.Metric
	// PointList is what a point-list file gave beyond the distances.
	PointList = problem.PointList
	// CoordText holds the text of a point list's coordinates as written.
	CoordText = problem.CoordText
	// City is a city's number in a tour: int or int32.
	City = problem.City
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

// The problem's functions under solver's names (solver/problem says what
// each does).
var (
	ParseMetric       = problem.ParseMetric
	NewCoordInstance  = problem.NewCoordInstance
	NewMatrixInstance = problem.NewMatrixInstance
	ValidateTour      = problem.ValidateTour
	PathLength        = problem.PathLength
	GapPercent        = problem.GapPercent
	IdentityTour      = problem.IdentityTour
	SameCycle         = problem.SameCycle
	FixedPartners     = problem.FixedPartners
	GroupDigits       = problem.GroupDigits
	Plural            = problem.Plural
)

// TourLength returns the exact length of the closed tour t
// (problem.TourLength).
func TourLength[C City](in *Instance, t []C) int64 { return problem.TourLength(in, t) }
