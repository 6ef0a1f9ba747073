package problem

import (
	"fmt"
	"math"
	"strconv"
)

// Metric is a TSPLIB95 EDGE_WEIGHT_TYPE.
type Metric int

// The supported edge weight types (TSPLIB95 section 2).
const (
	Explicit Metric = iota
	Euc2D
	Ceil2D
	Att
	Geo
	Man2D
	Max2D
	Euc3D
	Man3D
	Max3D
	// GreatCircle is the great-circle distance in metres between degree coordinates (X longitude, Y latitude) on a
	// sphere of EarthRadius, times 10^ScaleExp, rounded; not a TSPLIB type.
	GreatCircle
)

// EarthRadius is GreatCircle's sphere radius in metres (the IUGG mean).
const EarthRadius = 6371008.8

var metricNames = [...]string{"EXPLICIT", "EUC_2D", "CEIL_2D", "ATT", "GEO", "MAN_2D", "MAX_2D", "EUC_3D", "MAN_3D", "MAX_3D", "GREAT_CIRCLE"}

// String returns the TSPLIB keyword of m ("GREAT_CIRCLE" for GreatCircle).
func (m Metric) String() string {
	if m < 0 || int(m) >= len(metricNames) {
		return fmt.Sprintf("Metric(%d)", int(m))
	}
	return metricNames[m]
}

// ParseMetric returns the Metric named by a TSPLIB EDGE_WEIGHT_TYPE
// keyword; GREAT_CIRCLE, which TSPLIB lacks, is not one.
func ParseMetric(s string) (Metric, bool) {
	for i, n := range metricNames[:GreatCircle] {
		if n == s {
			return Metric(i), true
		}
	}
	return 0, false
}

// Is3D reports whether m uses three coordinates.
func (m Metric) Is3D() bool { return m == Euc3D || m == Man3D || m == Max3D }

// Instance is one symmetric TSP instance, cities 0..N-1 in file order.
type Instance struct {
	Name    string // NAME
	Comment string // COMMENT
	Path    string // file it was read from, if any
	N       int    // DIMENSION
	Metric  Metric // EDGE_WEIGHT_TYPE

	// X, Y (and Z) are the coordinates; an EXPLICIT instance's are its DISPLAY_DATA_SECTION, for drawing only, or nil.
	X, Y, Z []float64

	// Matrix is an EXPLICIT instance's full N×N distances, row-major (nil otherwise).
	Matrix []int32

	// FixedEdges are the FIXED_EDGES_SECTION pairs (0-based).
	FixedEdges [][2]int

	// Optimum is the known optimal tour length, known when OptimumSource is set or Optimum > 0 (so 0 is told from none).
	Optimum int64
	// OptimumSource says where Optimum came from (a file path, "--optimum").
	OptimumSource string

	// ScaleExp: a distance unit is 10^-ScaleExp of the file's own (metres for GreatCircle), 0 for TSPLIB files;
	// point lists are scaled to keep six significant digits.
	ScaleExp int

	// Points holds what a point list gave beyond the distances (nil otherwise).
	Points *PointList

	// CityNames are a cost matrix header's city names, nil otherwise.
	CityNames []string

	// geo holds GEO and GreatCircle coordinates in radians, geoCos their cosines
	geoLat, geoLon, geoCos []float64
	// gcScale is EarthRadius times 10^ScaleExp, for GreatCircle.
	gcScale float64
}

// PointList is what a point-list file gave beyond the distances.
type PointList struct {
	// IDs are the points' ids in city order (nil: none, city i is i+1, or names).
	IDs []int64
	// Labels are the ids as written when one is not an integer.
	Labels []string
	// Cols are the two coordinate columns as written.
	Cols [2][]float64
	// Names are the header's column names (nil without a header).
	Names []string
	// Text is the coordinates' text as written, so a tour written as points gives them unchanged.
	Text CoordText
}

// ID returns the id of city i: the file's, or i+1 when it gave none.
func (p *PointList) ID(i int) int64 {
	if p == nil || p.IDs == nil {
		return int64(i) + 1
	}
	return p.IDs[i]
}

// Label returns city i's id as written: its name, else its number.
func (p *PointList) Label(i int) string {
	if p != nil && p.Labels != nil {
		return p.Labels[i]
	}
	return strconv.FormatInt(p.ID(i), 10)
}

// CityLabel is how the instance's file names city i: a point list's id or
// name as written, a cost matrix's header name, else TSPLIB's id i+1.
func (in *Instance) CityLabel(i int) string {
	if in.CityNames != nil {
		return in.CityNames[i]
	}
	return in.Points.Label(i)
}

// Named reports whether the file names the cities (non-integer ids or a matrix header).
func (in *Instance) Named() bool {
	return in.CityNames != nil || in.Points != nil && in.Points.Labels != nil
}

// HasCoords reports whether the instance has coordinates to draw.
func (in *Instance) HasCoords() bool { return len(in.X) == in.N && in.N > 0 }

// HasOptimum reports whether a known optimum is attached.
func (in *Instance) HasOptimum() bool { return in.Optimum > 0 || in.OptimumSource != "" }

// Gap returns how far length lies above the known optimum, in percent (false when unknown; an optimum of 0 gives 0 for 0).
func (in *Instance) Gap(length int64) (float64, bool) {
	switch {
	case !in.HasOptimum():
		return 0, false
	case in.Optimum == 0:
		return 0, length == 0
	}
	return GapPercent(length, in.Optimum)
}

// BHHConstant is the plane's Beardwood–Halton–Hammersley constant (Johnson, McGeoch and Rothberg, SODA 1996):
// an optimal tour of N uniform points in area A is about BHHConstant·√(N·A).
const BHHConstant = 0.7124

// EstimateMinN is the fewest cities EstimateOptimum estimates for: below it the boundary lengthens tours by over a percent.
const EstimateMinN = 10_000

// EstimateOptimum estimates the optimal tour length as BHHConstant·√(N·A) over the cities' bounding box; no bound.
// False below EstimateMinN cities, for metrics other than EUC_2D or CEIL_2D, or an empty box.
func (in *Instance) EstimateOptimum() (float64, bool) {
	if in == nil || in.N < EstimateMinN || in.Metric != Euc2D && in.Metric != Ceil2D || !in.HasCoords() {
		return 0, false
	}
	x0, x1, y0, y1 := in.X[0], in.X[0], in.Y[0], in.Y[0]
	for i := range in.N {
		x0, x1 = min(x0, in.X[i]), max(x1, in.X[i])
		y0, y1 = min(y0, in.Y[i]), max(y1, in.Y[i])
	}
	a := (x1 - x0) * (y1 - y0)
	if !(a > 0) || math.IsInf(a, 0) {
		return 0, false
	}
	return BHHConstant * math.Sqrt(float64(in.N)*a), true
}

// Prepare precomputes what the distance function needs (GEO radians); call it again after changing coordinates.
func (in *Instance) Prepare() {
	switch in.Metric {
	case Geo:
		in.geoLat = make([]float64, in.N)
		in.geoLon = make([]float64, in.N)
		for i := 0; i < in.N; i++ {
			in.geoLat[i] = geoRadians(in.X[i])
			in.geoLon[i] = geoRadians(in.Y[i])
		}
	case GreatCircle:
		in.geoLat = make([]float64, in.N)
		in.geoLon = make([]float64, in.N)
		in.geoCos = make([]float64, in.N)
		for i := 0; i < in.N; i++ {
			in.geoLon[i] = in.X[i] * (math.Pi / 180)
			in.geoLat[i] = in.Y[i] * (math.Pi / 180)
			in.geoCos[i] = math.Cos(in.geoLat[i])
		}
		in.gcScale = EarthRadius * math.Pow10(in.ScaleExp)
	}
}

// WithCoords returns an instance of in's metric and scale over the cities at x, y (and z).
func (in *Instance) WithCoords(name string, x, y, z []float64) *Instance {
	sub := &Instance{Name: name, N: len(x), Metric: in.Metric, X: x, Y: y, Z: z, ScaleExp: in.ScaleExp}
	sub.Prepare()
	return sub
}

// OfCities is the instance of in's cities in the order given, named name,
// their coordinates copied and measured as in's are.
func OfCities[C ~int | ~int32](in *Instance, name string, cities []C) *Instance {
	m := len(cities)
	x, y := make([]float64, m), make([]float64, m)
	var z []float64
	if in.Z != nil {
		z = make([]float64, m)
	}
	for k, c := range cities {
		x[k], y[k] = in.X[c], in.Y[c]
		if z != nil {
			z[k] = in.Z[c]
		}
	}
	return in.WithCoords(name, x, y, z)
}

// NewCoordInstance builds a coordinate instance. z may be nil for 2-D metrics.
func NewCoordInstance(name string, m Metric, x, y, z []float64) *Instance {
	in := &Instance{Name: name, N: len(x), Metric: m, X: x, Y: y, Z: z}
	in.Prepare()
	return in
}

// NewMatrixInstance builds an EXPLICIT instance from a full n×n row-major matrix.
func NewMatrixInstance(name string, n int, matrix []int32) *Instance {
	return &Instance{Name: name, N: n, Metric: Explicit, Matrix: matrix}
}

// nint rounds to the nearest integer as TSPLIB95 does: (int)(x + 0.5).
func nint(x float64) int64 { return int64(x + 0.5) }

const (
	geoPI  = 3.141592
	geoRRR = 6378.388
)

func geoRadians(v float64) float64 {
	deg := float64(int64(v))
	min := v - deg
	return geoPI * (deg + 5.0*min/3.0) / 180.0
}

// Dist returns the TSPLIB95 distance between cities i and j (0-based).
func (in *Instance) Dist(i, j int) int64 {
	switch in.Metric {
	case Euc2D:
		dx, dy := in.X[i]-in.X[j], in.Y[i]-in.Y[j]
		return nint(math.Sqrt(dx*dx + dy*dy))
	case Explicit:
		return int64(in.Matrix[i*in.N+j])
	case Ceil2D:
		dx, dy := in.X[i]-in.X[j], in.Y[i]-in.Y[j]
		return int64(math.Ceil(math.Sqrt(dx*dx + dy*dy)))
	case Att:
		dx, dy := in.X[i]-in.X[j], in.Y[i]-in.Y[j]
		r := math.Sqrt((dx*dx + dy*dy) / 10.0)
		t := nint(r)
		if float64(t) < r {
			return t + 1
		}
		return t
	case Geo:
		if i == j {
			return 0
		}
		q1 := math.Cos(in.geoLon[i] - in.geoLon[j])
		q2 := math.Cos(in.geoLat[i] - in.geoLat[j])
		q3 := math.Cos(in.geoLat[i] + in.geoLat[j])
		return int64(geoRRR*math.Acos(0.5*((1.0+q1)*q2-(1.0-q1)*q3)) + 1.0)
	case Man2D:
		return nint(math.Abs(in.X[i]-in.X[j]) + math.Abs(in.Y[i]-in.Y[j]))
	case Max2D:
		return max(nint(math.Abs(in.X[i]-in.X[j])), nint(math.Abs(in.Y[i]-in.Y[j])))
	case Euc3D:
		dx, dy, dz := in.X[i]-in.X[j], in.Y[i]-in.Y[j], in.Z[i]-in.Z[j]
		return nint(math.Sqrt(dx*dx + dy*dy + dz*dz))
	case Man3D:
		return nint(math.Abs(in.X[i]-in.X[j]) + math.Abs(in.Y[i]-in.Y[j]) + math.Abs(in.Z[i]-in.Z[j]))
	case Max3D:
		return max(nint(math.Abs(in.X[i]-in.X[j])), nint(math.Abs(in.Y[i]-in.Y[j])), nint(math.Abs(in.Z[i]-in.Z[j])))
	case GreatCircle:
		return in.greatCircle(i, j)
	}
	panic("solver: unknown metric " + in.Metric.String())
}

// DistMatrix returns the full n×n int32 distance matrix, or nil past maxEntries.
func (in *Instance) DistMatrix(maxEntries int) []int32 {
	if in.Matrix != nil {
		return in.Matrix
	}
	n := in.N
	if n*n > maxEntries {
		return nil
	}
	m := make([]int32, n*n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			d := int32(in.Dist(i, j))
			m[i*n+j], m[j*n+i] = d, d
		}
	}
	return m
}

// greatCircle is the haversine distance of i and j in 10^-ScaleExp metres, rounded.
func (in *Instance) greatCircle(i, j int) int64 {
	sl := math.Sin((in.geoLat[i] - in.geoLat[j]) / 2)
	so := math.Sin((in.geoLon[i] - in.geoLon[j]) / 2)
	h := sl*sl + in.geoCos[i]*in.geoCos[j]*so*so
	return nint(2 * in.gcScale * math.Asin(math.Sqrt(min(h, 1))))
}
