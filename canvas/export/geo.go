package export

import (
	"math"
	"slices"
	"sync/atomic"

	"github.com/tsplab/tsplab/solver/problem"
)

// geoFrame is a lat,lon instance's equirectangular map: centred opposite the widest gap in longitude, x scaled by the
// cosine of the cities' middle latitude.
type geoFrame struct {
	center float64 // the map's central meridian, degrees
	k      float64 // the cosine of the standard parallel
}

// lastFrame keeps the last lat,lon instance's frame: WorldXY asks once a city, so no lock.
var lastFrame atomic.Pointer[instanceFrame]

type instanceFrame struct {
	in *problem.Instance
	n  int
	f  geoFrame
}

// isLatLon reports whether in is a lat,lon point list (GreatCircle), drawn on a geoFrame.
func isLatLon(in *problem.Instance) bool {
	return in.Metric == problem.GreatCircle && len(in.X) == in.N && len(in.Y) == in.N
}

// isGeo reports whether in is a TSPLIB GEO instance (X latitude, Y longitude), drawn unscaled as TSPLIB's maps are.
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

// newGeoFrame centres the map opposite the widest longitude gap, scaled at the middle latitude.
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
	lo, hi := slices.Min(lat), slices.Max(lat)
	k := math.Max(math.Cos((lo+hi)/2*math.Pi/180), 0.1)
	return geoFrame{center: wrap180(seam + 180), k: k}
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

// seamCut reports whether the short way from a to b crosses the map's edge, and its x and latitude there.
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

// seamEnds are the two parts of an edge cut at the map's edge, each ended at the cities' box bx.
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

// toBoxEdge is where the segment from (x, y) in b towards (tx, ty) leaves b's x range, else (tx, ty).
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
