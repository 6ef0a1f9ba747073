package route

import (
	"cmp"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver"
)

// MaxOpenCities is the most cities OpenInstance takes ((N+1)² distances).
const MaxOpenCities = 5000

// OpenInstance returns an EXPLICIT instance of in's cities plus one at distance 0 from all, whose tours are in's open
// paths of the same length (drawn at the centroid).
func OpenInstance(in *solver.Instance) (*solver.Instance, error) {
	n := in.N
	if n > MaxOpenCities || n > math.MaxInt32 {
		return nil, fmt.Errorf("an open path of %d cities: at most %d (its matrix of distances is built in memory)", n, MaxOpenCities)
	}
	m := n + 1
	w := make([]int32, m*m)
	for i := range n {
		for j := i + 1; j < n; j++ {
			d := in.Dist(i, j)
			if d > math.MaxInt32 {
				return nil, fmt.Errorf("an open path: the distance of cities %d and %d is beyond the matrix's int32", i+1, j+1)
			}
			w[i*m+j], w[j*m+i] = int32(d), int32(d)
		}
	}
	out := &solver.Instance{Name: in.Name, Comment: in.Comment, Path: in.Path, N: m, Metric: solver.Explicit, Matrix: w, ScaleExp: in.ScaleExp,
		FixedEdges: slices.Clone(in.FixedEdges)}
	if in.HasCoords() {
		out.X, out.Y = centroidAppended(in.X), centroidAppended(in.Y)
	}
	return out, nil
}

// centroidAppended is v with its mean appended.
func centroidAppended(v []float64) []float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return append(slices.Clone(v), s/float64(max(len(v), 1)))
}

// WithEnds returns a copy of in with the edge a–b also fixed, so its tours less that edge are the paths from a to b.
func WithEnds(in *solver.Instance, a, b int) (*solver.Instance, error) {
	if a < 0 || a >= in.N || b < 0 || b >= in.N {
		return nil, fmt.Errorf("ends %d,%d: cities are 1..%d", a+1, b+1, in.N)
	}
	if a == b {
		return nil, fmt.Errorf("ends %d,%d: a path from a city to itself is a tour", a+1, b+1)
	}
	out := *in
	out.FixedEdges = append(slices.Clone(in.FixedEdges), [2]int{a, b})
	return &out, nil
}

// PathOfOpenTour returns the open path a tour of OpenInstance(in) gives: the cities after the extra one (n).
func PathOfOpenTour(t []int, n int) ([]int, error) {
	if err := solver.ValidateTour(t, n+1); err != nil {
		return nil, err
	}
	k := slices.Index(t, n)
	return append(slices.Clone(t[k+1:]), t[:k]...), nil
}

// PathBetween returns the path from a to b that t, a tour using a–b, gives.
func PathBetween(t []int, a, b int) ([]int, error) {
	n := len(t)
	ia, ib := slices.Index(t, a), slices.Index(t, b)
	if ia < 0 || ib < 0 {
		return nil, fmt.Errorf("the tour lacks city %d or %d", a+1, b+1)
	}
	p := make([]int, 0, n)
	switch {
	case t[(ia+n-1)%n] == b: // … b a …: a walks forward to b
		for k := range n {
			p = append(p, t[(ia+k)%n])
		}
	case t[(ia+1)%n] == b: // … a b …: a walks backward to b
		for k := range n {
			p = append(p, t[(ia-k+n)%n])
		}
	default:
		return nil, fmt.Errorf("the tour does not use the edge %d-%d", a+1, b+1)
	}
	return p, nil
}

// FinishPath checks that p is a path through every city (from a to b when a ≥ 0, fixed edges kept) and returns its exact length.
func FinishPath(in *solver.Instance, p []int, a, b int) (int64, error) {
	if err := solver.ValidateTour(p, in.N); err != nil {
		return 0, fmt.Errorf("path: %v", err)
	}
	if a >= 0 && (p[0] != a || p[len(p)-1] != b) {
		return 0, fmt.Errorf("path: from %d to %d, want from %d to %d", p[0]+1, p[len(p)-1]+1, a+1, b+1)
	}
	pos := make([]int, in.N)
	for i, c := range p {
		pos[c] = i
	}
	for _, e := range in.FixedEdges {
		if d := pos[e[0]] - pos[e[1]]; d != 1 && d != -1 {
			return 0, fmt.Errorf("path: does not use the fixed edge %d-%d", e[0]+1, e[1]+1)
		}
	}
	return solver.PathLength(in, p), nil
}

// Route is how an instance becomes the one an engine runs on, and its tours the route's: a tour, an open path or a path
// between two ends. Every front end builds routes with New.
type Route struct {
	Orig *solver.Instance // the instance read
	In   *solver.Instance // the instance the engine runs on
	Open bool             // a path with both ends free
	A, B int              // the ends (0-based), -1 when free
}

// New returns the route on in for e: a tour, an open path (open) or a path from a to b; an engine that cannot keep fixed
// ends is refused by name.
func New(in *solver.Instance, e solver.Engine, open bool, a, b int) (*Route, error) {
	rt := &Route{Orig: in, In: in, Open: open, A: -1, B: -1}
	switch {
	case open && a >= 0:
		return nil, fmt.Errorf("a path with both ends free, or one from A to B: not both")
	case open:
		op, err := OpenInstance(in)
		if err != nil {
			return nil, err
		}
		rt.In = op
	case a >= 0:
		ends, err := WithEnds(in, a, b)
		if err != nil {
			return nil, err
		}
		if e != nil && !solver.KeepsFixedEdges(e) {
			return nil, fmt.Errorf("%s/%s does not keep fixed edges, which a path between fixed ends is made with: use auto or pop (CPU or GPU), or 2opt-ils or 3opt-ils on the CPU", e.Name(), e.Backend())
		}
		ends.Optimum, ends.OptimumSource = 0, "" // the optimum is a tour's
		rt.In, rt.A, rt.B = ends, a, b
	}
	return rt, nil
}

// ParseEnds reads "A,B", two cities as the file names them (Instance.CityLabel), as 0-based cities; a name may hold commas.
func ParseEnds(s string, in *solver.Instance) (a, b int, err error) {
	if !strings.Contains(s, ",") {
		return 0, 0, fmt.Errorf("%q: want two city ids or names A,B", s)
	}
	city := cityIndex(in)
	var first error
	for i := range len(s) {
		if s[i] != ',' {
			continue
		}
		a, errA := endCity(s[:i], in, city)
		b, errB := endCity(s[i+1:], in, city)
		if errA == nil && errB == nil {
			if a == b {
				return 0, 0, fmt.Errorf("%q: a path from a city to itself is a tour", s)
			}
			return a, b, nil
		}
		if first == nil {
			first = cmp.Or(errA, errB)
		}
	}
	return 0, 0, fmt.Errorf("%q: %v", s, first)
}

// cityIndex maps each city's label (Instance.CityLabel) to the city.
func cityIndex(in *solver.Instance) map[string]int {
	m := make(map[string]int, in.N)
	for i := range in.N {
		m[in.CityLabel(i)] = i
	}
	return m
}

// endCity is the city f names: its label, or an integer id.
func endCity(f string, in *solver.Instance, city map[string]int) (int, error) {
	f = strings.Trim(strings.TrimSpace(f), `"'`)
	if c, ok := city[f]; ok {
		return c, nil
	}
	id, err := strconv.ParseInt(f, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a city of %s", f, in.Name)
	}
	for i := range in.N {
		if in.CityNames == nil && in.Points.ID(i) == id {
			return i, nil
		}
	}
	return 0, fmt.Errorf("id %d is not a city of %s", id, in.Name)
}

// IsPath reports whether the route is a path rather than a tour.
func (rt *Route) IsPath() bool { return rt.Open || rt.A >= 0 }

// Start returns t, a tour or path of Orig, as a tour of In (an open route's closed through the extra city).
func (rt *Route) Start(t []int) []int {
	if t == nil || !rt.Open {
		return t
	}
	return append(slices.Clone(t), rt.Orig.N)
}

// PathOf returns the path of Orig that t, a tour of In, gives, checked only as needed (the live view).
func (rt *Route) PathOf(t []int) ([]int, error) {
	switch {
	case rt.Open:
		return PathOfOpenTour(t, rt.Orig.N)
	case rt.A >= 0:
		return PathBetween(t, rt.A, rt.B)
	}
	return t, nil
}

// Length is a tour of In of length l on Orig (a path lacks the ends' edge).
func (rt *Route) Length(l int64) int64 {
	if rt.A >= 0 && l > 0 {
		return l - rt.Orig.Dist(rt.A, rt.B)
	}
	return l
}

// Account is the route's part of a result's account (nil for a tour).
func (rt *Route) Account() *solver.RouteAccount {
	switch {
	case rt.Open:
		return &solver.RouteAccount{Open: true}
	case rt.A >= 0:
		return &solver.RouteAccount{From: rt.Orig.CityLabel(rt.A), To: rt.Orig.CityLabel(rt.B)}
	}
	return nil
}

// pathValue is the file-unit length of the path a tour of In of length v gives (0 stays 0).
func (rt *Route) pathValue(v float64) float64 {
	if v == 0 {
		return 0
	}
	scale := math.Pow10(rt.Orig.ScaleExp)
	return rt.Orig.LengthValue(rt.Length(int64(math.Round(v * scale))))
}

// Finish turns the engine's result on In into the route's: the path, validated and measured (FinishPath).
func (rt *Route) Finish(res solver.Result) (solver.Result, error) {
	if !rt.IsPath() {
		return res, nil
	}
	path, err := rt.PathOf(res.Tour)
	if err != nil {
		return res, err
	}
	l, err := FinishPath(rt.Orig, path, rt.A, rt.B)
	if err != nil {
		return res, err
	}
	if rt.Open && l != res.Length {
		return res, fmt.Errorf("open path of length %d from a tour of length %d", l, res.Length)
	}
	res.Tour, res.Length = path, l
	res.Account.Route = rt.Account()
	if e := res.Account.EAX; e != nil && rt.A >= 0 {
		// the populations' lengths are the tours', through the ends' edge
		c := *e
		c.FirstBest, c.Best = rt.pathValue(e.FirstBest), rt.pathValue(e.Best)
		res.Account.EAX = &c
	}
	return res, nil
}
