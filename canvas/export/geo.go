package export

import (
	"math"
	"slices"
	"sync/atomic"

	"github.com/tsplab/tsplab/solver/problem"
)

// geoFrame is how a lat,lon instance is drawn: an equirectangular map
// whose longitudes count from the meridian opposite the widest gap
// between the cities' longitudes, so that no group of cities is cut at
// ±180° (islands either side of the antimeridian stay together), and
// whose x is scaled by the cosine of the cities' middle latitude (the
// standard parallel runs through them).
type geoFrame struct {
	center float64 // the map's central meridian, degrees
	k      float64 // the cosine of the standard parallel
}

// lastFrame keeps the frame of the last lat,lon instance drawn: WorldXY
// is asked once a city, so it is read without a lock.
var lastFrame atomic.Pointer[instanceFrame]

type instanceFrame struct {
	in *problem.Instance
	n  int
	f  geoFrame
}

// isLatLon reports whether in is drawn on a geoFrame: a lat,lon point
// list (GreatCircle: X longitude, Y latitude, in degrees).
func isLatLon(in *problem.Instance) bool {
	return in.Metric == problem.GreatCircle && len(in.X) == in.N && len(in.Y) == in.N
}

// isGeo reports whether in is a TSPLIB GEO instance (X latitude, Y
// longitude), drawn on a geoFrame without the latitude's scaling, as
// TSPLIB's maps are.
func isGeo(in *problem.Instance) bool {
	return in.Metric == problem.Geo && len(in.X) == in.N && len(in.Y) == in.N
}

// frameOf is in's geoFrame.
func frameOf(in *problem.Instance) geoFrame {
	if c := lastFrame.Load(); c != nil && c.in == in && c.n == in.N {
		return c.f
	}
	var f geoFrame
	if isGeo(in) {
		f = newGeoFrame(in.Y, in.X)
		f.k = 1
	} else {
		f = newGeoFrame(in.X, in.Y)
	}
	lastFrame.Store(&instanceFrame{in: in, n: in.N, f: f})
	return f
}

// newGeoFrame centres the map opposite the widest gap between the
// longitudes lon and scales it at the middle of the latitudes lat.
func newGeoFrame(lon, lat []float64) geoFrame {
	if len(lon) == 0 {
		return geoFrame{k: 1}
	}
	l := make([]float64, len(lon))
	for i, v := range lon {
		l[i] = wrap180(v)
	}
	slices.Sort(l)
	gap, seam := l[0]+360-l[len(l)-1], l[len(l)-1]+(l[0]+360-l[len(l)-1])/2
	for i := 1; i < len(l); i++ {
		if g := l[i] - l[i-1]; g > gap {
			gap, seam = g, l[i-1]+g/2
		}
	}
	lo, hi := span(lat)
	k := math.Max(math.Cos((lo+hi)/2*math.Pi/180), 0.1)
	return geoFrame{center: wrap180(seam + 180), k: k}
}

// span is the least and greatest of v (not empty).
func span(v []float64) (lo, hi float64) {
	lo, hi = v[0], v[0]
	for _, x := range v[1:] {
		lo, hi = min(lo, x), max(hi, x)
	}
	return lo, hi
}

// wrap180 brings an angle in degrees into [-180, 180).
func wrap180(d float64) float64 {
	d = math.Mod(d+180, 360)
	if d < 0 {
		d += 360
	}
	return d - 180
}

// xy is the map position of longitude lon and latitude lat.
func (f geoFrame) xy(lon, lat float64) (x, y float64) {
	return wrap180(lon-f.center) * f.k, lat
}

// seamCut reports whether the edge from city a to city b, drawn the short
// way round the globe, crosses the map's edge (the meridian opposite its
// centre), and where: the map's x of that edge where a's part ends (±180
// scaled), and the latitude there. b's part starts at -x.
func seamCut(in *problem.Instance, a, b int) (x, lat float64, cut bool) {
	if !isLatLon(in) {
		return 0, 0, false
	}
	f := frameOf(in)
	xa := wrap180(in.X[a] - f.center)
	d := wrap180(in.X[b] - in.X[a]) // the short way, east positive
	end := xa + d
	if end >= -180 && end < 180 {
		return 0, 0, false
	}
	s := math.Copysign(180, d)
	t := (s - xa) / d
	return s * f.k, in.Y[a] + t*(in.Y[b]-in.Y[a]), true
}

// seamEnds are the two parts of an edge from city a to city b cut at the
// map's edge (seamCut), each ended where it leaves the cities' box b
// along x: a's part ends at (x0, y0), b's part starts at (x1, y1).
func seamEnds(in *problem.Instance, bx Bounds, a, b int) (x0, y0, x1, y1 float64, cut bool) {
	x, lat, cut := seamCut(in, a, b)
	if !cut {
		return 0, 0, 0, 0, false
	}
	ax, ay := WorldXY(in, a)
	bxw, byw := WorldXY(in, b)
	x0, y0 = toBoxEdge(bx, ax, ay, x, lat)
	x1, y1 = toBoxEdge(bx, bxw, byw, -x, lat)
	return x0, y0, x1, y1, true
}

// toBoxEdge is where the segment from (x, y), inside box b, towards (tx,
// ty) leaves b's x range, or (tx, ty) when it does not.
func toBoxEdge(b Bounds, x, y, tx, ty float64) (float64, float64) {
	edge := b.MaxX
	if tx < x {
		edge = b.MinX
	}
	if tx >= b.MinX && tx <= b.MaxX || tx == x {
		return tx, ty
	}
	t := (edge - x) / (tx - x)
	return edge, y + t*(ty-y)
}
