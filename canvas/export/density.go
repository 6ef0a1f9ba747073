package export

import (
	"image"
	"image/color"
	"math"
	"runtime"
	"slices"
	"sync"

	"github.com/tsplab/tsplab/solver/problem"
)

// StepBudget bounds the pixels a frame steps along tour edges; beyond it long edges are sampled (see Rasterizer).
const StepBudget = 3_000_000

// Densities, in cities per visible pixel, where dots change: squares up to SparseDots,
// then fading pixels beneath the tour until FadedDots.
const (
	SparseDots = 0.01
	FadedDots  = 0.05
)

// DenseTour is the tour's mean overlap above which the best tour beneath it is not drawn: it would be covered.
const DenseTour = 0.5

// The layers of a frame, each a buffer of per-pixel counts.
const (
	layerOptimal = iota
	layerDots
	layerBest
	layerTour
	numLayers
)

// gatherBatch is how many cities' pixels accumulate loads at a time.
const gatherBatch = 256

// parallelSteps is the pixels to step from which several goroutines draw the edges.
const parallelSteps = 2_000_000

// lutMax is the largest per-pixel count the tone maps tell apart.
const lutMax = 1023

// blend is one tone-map entry: a premultiplied colour and 256 minus its alpha.
type blend struct{ r, g, b, inv uint32 }

// FrameStats describes the level of detail of the last frame drawn.
type FrameStats struct {
	Inside   int     // cities inside the image
	Density  float64 // cities per pixel of the visible part of the instance
	Overlap  float64 // tour pixels stepped per visible pixel (edges per pixel)
	Steps    int64   // pixels stepped along edges, at most about StepBudget
	Sampled  int     // edges longer than this many pixels were sampled; 0: none were
	DotAlpha float64 // alpha of a one-city dot (0: dots left out)
	DotsOver bool    // whether dots were drawn over the tour
	// HeatCells is how many cells of the heat map of recent changes were tinted (see HeatGrid).
	HeatCells int
}

// Rasterizer draws scenes into RGBA images at a level of detail chosen from the view's density: edges add to per-pixel
// counts, tone-mapped so a million-city tour shows structure; cities fade out as they crowd; past StepBudget long edges are
// sampled by a hash of their cities, stable from frame to frame. It is not safe for concurrent use.
type Rasterizer struct {
	boundsOf *problem.Instance
	boundsN  int
	bounds   Bounds
	wx, wy   []float64 // world coordinates of each city (WorldXY)

	pts []pixel // pixel position of each city, clamped to ±clampLimit

	w, h       int
	workers    int                   // goroutines of the step at hand
	rowWorkers int                   // goroutines compositing rows
	accWorkers int                   // goroutines that drew the edges, each into its buffers
	acc        [numLayers][][]uint16 // per layer, per worker: counts per pixel
	cnt        []int64               // edges sampled per length (threshold)
	lut        [numLayers][]blend
	used       [numLayers]bool
	box        image.Rectangle   // the pixels the cities' bounding box covers
	succ       []int32           // the city after each in the tour, when a best tour is drawn
	bestBox    []image.Rectangle // per worker: the pixels the best tour's own edges cover
	stats      FrameStats
	wg         sync.WaitGroup
	heat       heatMap
	open       bool // the frame's scene is a path: no closing edge
}

// pixel is a city's position in the image, x beside y: one cache miss a city.
type pixel struct{ x, y int32 }

// in reports whether p lies in the w×h image.
func (p pixel) in(w, h int) bool { return uint32(p.x) < uint32(w) && uint32(p.y) < uint32(h) }

// clampLimit keeps projected coordinates far outside an image yet exact in int32 clipping.
const clampLimit = 1 << 24

// Bounds returns BoundsOf(in), cached for the last instance drawn.
func (r *Rasterizer) Bounds(in *problem.Instance) Bounds {
	r.cache(in)
	return r.bounds
}

// cache keeps in's bounds and world coordinates.
func (r *Rasterizer) cache(in *problem.Instance) {
	if in == r.boundsOf && in != nil && in.N == r.boundsN {
		return
	}
	r.boundsOf, r.bounds, r.boundsN = in, BoundsOf(in), 0
	r.wx, r.wy = r.wx[:0], r.wy[:0]
	if in == nil {
		return
	}
	r.boundsN = in.N
	if in.HasCoords() {
		for i := 0; i < in.N; i++ {
			x, y := WorldXY(in, i)
			r.wx, r.wy = append(r.wx, x), append(r.wy, y)
		}
	}
}

// Stats returns the level of detail of the last frame.
func (r *Rasterizer) Stats() FrameStats { return r.stats }

// parallel runs f(k, lo, hi) over [0, n) split into r.workers parts.
func (r *Rasterizer) parallel(n int, f func(k, lo, hi int)) {
	if r.workers == 1 {
		f(0, 0, n)
		return
	}
	for k := range r.workers {
		r.wg.Go(func() { f(k, n*k/r.workers, n*(k+1)/r.workers) })
	}
	r.wg.Wait()
}

// Render draws s into dst through v (without coordinates: the background alone).
func (r *Rasterizer) Render(dst *image.RGBA, s Scene, v View, st Style) {
	in := s.Instance
	r.stats = FrameStats{}
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	if in == nil || !in.HasCoords() || in.N == 0 || w == 0 || h == 0 {
		fill(dst, st.Background)
		return
	}
	r.cache(in)
	r.open = s.Path
	t := NewTransform(r.bounds, v, w, h)
	r.workers = 1
	if in.N >= 20000 {
		r.workers = min(runtime.GOMAXPROCS(0), 4)
	}
	r.project(t, w, h)
	r.rowWorkers = min(runtime.GOMAXPROCS(0), 4, max(1, w*h/100_000))
	area := r.frame(t, w, h, st)

	tours, rad, sampled := r.layers(s, w, h, area, st)
	for len(r.bestBox) < r.workers {
		r.bestBox = append(r.bestBox, image.Rectangle{})
	}
	steps := make([]int64, r.workers)
	r.parallel(r.workers, func(k, _, _ int) {
		steps[k] = r.accumulate(k, tours, rad, sampled)
	})
	for _, v := range steps {
		r.stats.Steps += v
	}
	r.accWorkers, r.workers = r.workers, r.rowWorkers
	order := [...]int{layerOptimal, layerDots, layerBest, layerTour}
	if r.stats.DotsOver {
		order = [...]int{layerOptimal, layerBest, layerTour, layerDots}
	}
	r.parallel(h, func(_, lo, hi int) { r.composite(dst, lo, hi, order, st.Background) })
	r.updateHeat(in, tours[layerTour], s.Path, st.Heat.A != 0 && !s.Done)
	r.drawHeat(dst, t, st)
	r.stats.HeatCells = r.heat.cells
	if s.Path {
		r.drawEnds(dst, tours, st)
	}
}

// EndRadius is the half-width of the squares marking a path's ends.
const EndRadius = 4

// drawEnds marks the ends of the path drawn with hollow squares of the tour's colour.
func (r *Rasterizer) drawEnds(dst *image.RGBA, tours [numLayers][]int, st Style) {
	t := tours[layerTour]
	if t == nil {
		t = tours[layerBest]
	}
	if len(t) < 2 {
		return
	}
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	for _, c := range []int{t[0], t[len(t)-1]} {
		if uint(c) >= uint(len(r.pts)) {
			continue
		}
		p := r.pts[c]
		for y := max(int(p.y)-EndRadius, 0); y <= min(int(p.y)+EndRadius, h-1); y++ {
			for x := max(int(p.x)-EndRadius, 0); x <= min(int(p.x)+EndRadius, w-1); x++ {
				clr := st.Tour
				if max(x-int(p.x), int(p.x)-x) < EndRadius-1 && max(y-int(p.y), int(p.y)-y) < EndRadius-1 {
					clr = st.Background
				}
				dst.SetRGBA(dst.Rect.Min.X+x, dst.Rect.Min.Y+y, clr)
			}
		}
	}
}

// layers picks the frame's tours, dot radius, sampling threshold, buffers, workers and tone maps.
func (r *Rasterizer) layers(s Scene, w, h int, area float64, st Style) (tours [numLayers][]int, rad, sampled int) {
	tours = sceneTours(s, s.Instance.N)
	drawn := tours[layerTour] != nil || tours[layerBest] != nil
	rad, dotAlpha := r.dotStyle(drawn, st)

	r.resize(w, h)
	sampled, sums := r.threshold(tours, w, h)
	if tours[layerBest] != nil && float64(sums[layerTour])/area > DenseTour {
		// The best tour would lie under the tour everywhere: leave it out.
		tours[layerBest], sums[layerBest] = nil, 0
		if sampled > 0 {
			sampled, sums = r.threshold(tours, w, h)
		}
	}
	r.stats.Sampled = sampled
	for l := range r.used {
		r.used[l] = tours[l] != nil
	}
	r.used[layerDots] = dotAlpha > 0
	var total int64
	for _, v := range sums {
		total += v
	}
	r.stats.Overlap = float64(total) / area
	// Few steps are cheaper on one goroutine than summing buffers.
	if total < parallelSteps && len(r.pts) < 4*parallelSteps {
		r.workers = 1
	}
	r.ensure()
	r.toneMaps(st, sums, area, drawn, dotAlpha)
	r.bestSuccessors(s, s.Instance.N)
	return tours, rad, sampled
}

// frame sets the city density over the visible part of the instance's box and returns that area in pixels (at least 1).
func (r *Rasterizer) frame(t Transform, w, h int, st Style) float64 {
	x0, y0 := t.Apply(r.bounds.MinX, r.bounds.MaxY)
	x1, y1 := t.Apply(r.bounds.MaxX, r.bounds.MinY)
	area := (math.Min(x1, float64(w)) - math.Max(x0, 0) + 1) * (math.Min(y1, float64(h)) - math.Max(y0, 0) + 1)
	area = math.Max(area, 1)
	r.stats.Density = float64(r.stats.Inside) / area
	pad := max(st.CityRadius, 0) + 1
	r.box = image.Rect(int(math.Floor(x0))-pad, int(math.Floor(y0))-pad, int(math.Ceil(x1))+pad+1, int(math.Ceil(y1))+pad+1).Intersect(image.Rect(0, 0, w, h))
	return area
}

// sceneTours is the scene's tours by layer, a wrong-length tour or a best equal to the tour left out.
func sceneTours(s Scene, n int) [numLayers][]int {
	var tours [numLayers][]int
	if len(s.Optimal) == n {
		tours[layerOptimal] = s.Optimal
	}
	if len(s.Tour) == n {
		tours[layerTour] = s.Tour
	}
	if len(s.Best) == n && !sameTour(s.Best, s.Tour) {
		tours[layerBest] = s.Best
	}
	return tours
}

// dotStyle picks how cities are drawn at the frame's density: the squares' radius and the dots' alpha.
func (r *Rasterizer) dotStyle(drawn bool, st Style) (rad int, alpha float64) {
	rho := r.stats.Density
	alpha = 1.0
	switch {
	case rho <= SparseDots:
		rad = st.CityRadius
		r.stats.DotsOver = true
	case drawn:
		alpha = math.Max(0, math.Log(FadedDots/rho)/math.Log(FadedDots/SparseDots))
	default:
		r.stats.DotsOver = true
	}
	r.stats.DotAlpha = alpha
	return rad, alpha
}

// toneMaps sets each used layer's colour table from its steps per pixel of the visible area.
func (r *Rasterizer) toneMaps(st Style, sums [numLayers]int64, area float64, drawn bool, dotAlpha float64) {
	if r.used[layerDots] {
		m := 0.0
		if !drawn {
			m = r.stats.Density
		}
		r.setLUT(layerDots, st.City, st.City, dotAlpha, m)
	}
	if r.used[layerOptimal] {
		r.setLUT(layerOptimal, st.Optimal, st.Optimal, 1, float64(sums[layerOptimal])/area)
	}
	if r.used[layerBest] {
		r.setLUT(layerBest, st.Best, st.Best, 1, float64(sums[layerBest])/area)
	}
	if r.used[layerTour] {
		r.setLUT(layerTour, st.Tour, st.Dense, 1, float64(sums[layerTour])/area)
	}
}

// bestSuccessors fills r.succ with the tour's successors when the best tour is drawn where it differs.
func (r *Rasterizer) bestSuccessors(s Scene, n int) {
	if !r.used[layerBest] || !r.used[layerTour] {
		r.succ = r.succ[:0]
		return
	}
	r.succ = successors(r.succ, s.Tour, n, s.Path)
}

// successors is succ, grown to n, holding each city's successor in tour (-1 after an open path's last city).
func successors(succ []int32, tour []int, n int, open bool) []int32 {
	if cap(succ) < n {
		succ = make([]int32, n)
	}
	succ = succ[:n]
	prev := tour[n-1]
	for _, c := range tour {
		if uint(prev) < uint(n) && uint(c) < uint(n) {
			succ[prev] = int32(c)
		}
		prev = c
	}
	if open && uint(prev) < uint(n) {
		succ[prev] = -1
	}
	return succ
}

// openLayer reports whether layer l is drawn as a path (a Path scene's tour and best).
func (r *Rasterizer) openLayer(l int) bool {
	return r.open && (l == layerTour || l == layerBest)
}

// sameTour reports whether a and b are the same tour slice or equal.
func sameTour(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	return len(a) == 0 || &a[0] == &b[0] || slices.Equal(a, b)
}

// setLUT fills layer l's tone map from lo to hi as counts grow past the mean overlap m, peak the alpha of one count.
func (r *Rasterizer) setLUT(l int, lo, hi color.RGBA, peak, m float64) {
	if cap(r.lut[l]) < lutMax+1 {
		r.lut[l] = make([]blend, lutMax+1)
	}
	lut := r.lut[l][:lutMax+1]
	lut[0] = blend{inv: 256}
	for c := 1; c <= lutMax; c++ {
		a, t := 1.0, 0.0
		if m > 0.5 {
			a = math.Min(1, math.Max(0.3, math.Log1p(float64(c))/math.Log1p(3*m)))
			t = math.Min(1, math.Max(0, math.Log(float64(c)/(2*m))/math.Log(8)))
		}
		a *= peak
		ai := uint32(math.Round(a * 256))
		mix := func(x, y uint8) uint32 { return uint32(math.Round(float64(x)*(1-t) + float64(y)*t)) }
		lut[c] = blend{r: mix(lo.R, hi.R) * ai, g: mix(lo.G, hi.G) * ai, b: mix(lo.B, hi.B) * ai, inv: 256 - ai}
	}
	r.lut[l] = lut
}

// resize sets the frame size and the number of workers' buffers.
func (r *Rasterizer) resize(w, h int) {
	if w != r.w || h != r.h {
		r.w, r.h = w, h
		r.acc = [numLayers][][]uint16{}
	}
}

// ensure allocates the layers' count buffers; composite zeroes them after each frame.
func (r *Rasterizer) ensure() {
	for l := range r.acc {
		if !r.used[l] {
			continue
		}
		for len(r.acc[l]) < r.workers {
			r.acc[l] = append(r.acc[l], make([]uint16, r.w*r.h))
		}
	}
}

// project fills r.pts with each city's pixel and counts those inside the w×h image.
func (r *Rasterizer) project(t Transform, w, h int) {
	n := len(r.wx)
	if cap(r.pts) < n {
		r.pts = make([]pixel, n)
	}
	r.pts = r.pts[:n]
	counts := make([]int, r.workers)
	r.parallel(n, func(k, lo, hi int) {
		c := 0
		for i := lo; i < hi; i++ {
			px, py := t.Apply(r.wx[i], r.wy[i])
			p := pixel{int32(math.Floor(clamp(px, -clampLimit, clampLimit) + 0.5)), int32(math.Floor(clamp(py, -clampLimit, clampLimit) + 0.5))}
			r.pts[i] = p
			if p.in(w, h) {
				c++
			}
		}
		counts[k] = c
	})
	for _, c := range counts {
		r.stats.Inside += c
	}
}

// edgeLen returns the pixels an edge from p to q steps in a w×h image (0 when wholly beyond one side).
func edgeLen(p, q pixel, w, h int) int {
	if (p.x < 0 && q.x < 0) || (p.y < 0 && q.y < 0) || (p.x >= int32(w) && q.x >= int32(w)) || (p.y >= int32(h) && q.y >= int32(h)) {
		return 0
	}
	return int(min(max(abs32(q.x-p.x), abs32(q.y-p.y)), int32(w+h)))
}

func abs32(v int32) int32 {
	if v < 0 {
		return -v
	}
	return v
}

// thresholdSample is how many edges of each tour threshold looks at.
const thresholdSample = 1 << 15

// threshold returns the edge length beyond which edges are sampled to step about StepBudget pixels (0: none),
// and each layer's unsampled pixels, estimated from a sample of edges.
func (r *Rasterizer) threshold(tours [numLayers][]int, w, h int) (int, [numLayers]int64) {
	var sums [numLayers]int64
	maxLen := w + h
	if cap(r.cnt) < maxLen+1 {
		r.cnt = make([]int64, maxLen+1)
	}
	cnt := r.cnt[:maxLen+1]
	clear(cnt)
	m := uint(len(r.pts))
	for l, tour := range tours {
		n := len(tour)
		if n == 0 {
			continue
		}
		q := max(1, n/thresholdSample)
		for i := 0; i < n; i += q {
			if i == 0 && r.openLayer(l) {
				continue // a path has no closing edge
			}
			a, b := tour[(i+n-1)%n], tour[i]
			if uint(a) >= m || uint(b) >= m {
				continue
			}
			s := edgeLen(r.pts[a], r.pts[b], w, h)
			cnt[s] += int64(q)
			sums[l] += int64(s) * int64(q)
		}
	}
	var total int64
	for _, v := range sums {
		total += v
	}
	if total <= StepBudget {
		return 0, sums
	}
	// cost(T) = Σ_{s<T} s·cnt[s] + T·Σ_{s≥T} cnt[s] grows with T: the largest T in budget.
	var above int64
	for _, c := range cnt[1:] {
		above += c
	}
	var below int64
	T := 1
	for ; T < maxLen; T++ {
		if below+int64(T+1)*(above-cnt[T]) > StepBudget {
			break
		}
		below += int64(T) * cnt[T]
		above -= cnt[T]
	}
	return T, sums
}

// edgeHash mixes an edge's cities, either order, into 32 bits (splitmix64's finaliser).
func edgeHash(a, b int) uint32 {
	if a > b {
		a, b = b, a
	}
	z := uint64(a)<<32 ^ uint64(b) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return uint32(z ^ z>>31)
}

// accumulate adds worker k's share of the cities and edges to its buffers and returns the pixels stepped.
func (r *Rasterizer) accumulate(k int, tours [numLayers][]int, rad, sampled int) int64 {
	if r.used[layerDots] {
		r.accDots(k, rad)
	}
	var steps int64
	for l, tour := range tours {
		if tour != nil {
			steps += r.accTour(k, l, tour, sampled)
		}
	}
	return steps
}

// accDots adds worker k's cities to the dots' buffer: pixels, or squares of radius rad.
func (r *Rasterizer) accDots(k, rad int) {
	w, h := r.w, r.h
	acc := r.acc[layerDots][k]
	n := len(r.pts)
	for i := n * k / r.workers; i < n*(k+1)/r.workers; i++ {
		p := r.pts[i]
		x, y := int(p.x), int(p.y)
		if rad == 0 {
			if p.in(w, h) {
				acc[y*w+x]++
			}
			continue
		}
		for yy := max(y-rad, 0); yy <= min(y+rad, h-1); yy++ {
			for xx := max(x-rad, 0); xx <= min(x+rad, w-1); xx++ {
				acc[yy*w+xx] = 1
			}
		}
	}
}

// accTour adds worker k's slice of layer l's edges; for the best tour it records their box.
func (r *Rasterizer) accTour(k, l int, tour []int, sampled int) int64 {
	dash := 0
	if l == layerOptimal {
		dash = 4
	}
	var succ []int32
	if l == layerBest && len(r.succ) == len(r.pts) {
		succ = r.succ
	}
	n := len(tour)
	box := [4]int32{int32(r.w), int32(r.h), -1, -1} // x0, y0, x1, y1
	steps := r.traceTour(r.acc[l][k], tour, n*k/r.workers, n*(k+1)/r.workers, succ, sampled, dash, r.openLayer(l), &box)
	if l == layerBest {
		switch {
		case succ == nil:
			r.bestBox[k] = r.box
		case box[2] < 0:
			r.bestBox[k] = image.Rectangle{} // no edge of its own
		default:
			r.bestBox[k] = image.Rectangle{Min: image.Pt(int(box[0]), int(box[1])), Max: image.Pt(int(box[2])+1, int(box[3])+1)}
		}
	}
	return steps
}

// traceTour plots the edges into tour[lo..hi) into acc (with succ only those succ lacks; open: not the edge into tour[0])
// and returns the pixels stepped.
func (r *Rasterizer) traceTour(acc []uint16, tour []int, lo, hi int, succ []int32, sampled, dash int, open bool, box *[4]int32) int64 {
	w, h, pts := r.w, r.h, r.pts
	m := uint(len(pts))
	n := len(tour)
	var steps int64
	a := tour[(lo+n-1)%n]
	if open && lo == 0 {
		a = -1 // no city before a path's first: its edge is skipped below
	}
	var p pixel
	if uint(a) < m {
		p = pts[a]
	}
	bx0, by0, bx1, by1 := box[0], box[1], box[2], box[3]
	// Cities are gathered in batches first, so their independent cache misses overlap.
	var batch [gatherBatch]pixel
	for lo < hi {
		cities := tour[lo:min(lo+gatherBatch, hi)]
		lo += len(cities)
		for i, b := range cities {
			if uint(b) < m {
				batch[i] = pts[b]
			}
		}
		for i, b := range cities {
			if uint(b) >= m || uint(a) >= m {
				a, p = b, batch[i]
				continue
			}
			q := batch[i]
			if succ != nil {
				if int(succ[a]) == b || int(succ[b]) == a {
					a, p = b, q
					continue
				}
				bx0, bx1 = min(bx0, p.x, q.x), max(bx1, p.x, q.x)
				by0, by1 = min(by0, p.y, q.y), max(by1, p.y, q.y)
			}
			wgt := uint32(1)
			if sampled > 0 {
				if s := edgeLen(p, q, w, h); s > sampled {
					if uint64(edgeHash(a, b)&0xffff)*uint64(s) >= uint64(sampled)<<16 {
						a, p = b, q
						continue
					}
					wgt = uint32((s + sampled/2) / sampled)
				}
			}
			steps += plotEdge(acc, w, h, p, q, wgt, dash)
			a, p = b, q
		}
	}
	*box = [4]int32{bx0, by0, bx1, by1}
	return steps
}

// plotEdge adds wgt along p to q (not its last pixel), clipped; it returns the pixels stepped.
func plotEdge(acc []uint16, w, h int, p, q pixel, wgt uint32, dash int) int64 {
	if !p.in(w, h) || !q.in(w, h) {
		return plotClipped(acc, w, h, float64(p.x), float64(p.y), float64(q.x), float64(q.y), wgt, dash)
	}
	if dx, dy := q.x-p.x, q.y-p.y; uint32(dx+1) <= 2 && uint32(dy+1) <= 2 {
		// An edge to a neighbouring pixel: its first pixel alone, as plotLine.
		if dx|dy == 0 {
			return 0
		}
		o := int(p.y)*w + int(p.x)
		acc[o] = uint16(min(uint32(acc[o])+wgt, 0xffff))
		return 1
	}
	return plotLine(acc, w, int(p.x), int(p.y), int(q.x), int(q.y), wgt, dash)
}

// plotLine adds wgt to the counts along the line from (x0, y0) to (x1, y1) but its last pixel, dashed when dash > 0,
// and returns the pixels stepped. Both ends must lie inside the image.
func plotLine(acc []uint16, w, x0, y0, x1, y1 int, wgt uint32, dash int) int64 {
	lw := newLineWalk(x0, y0, x1, y1, 1, w)
	o, e := lw.o, lw.n/2
	for i := 0; i < lw.n; i++ {
		if dash <= 0 || (i/dash)&1 == 0 {
			acc[o] = uint16(min(uint32(acc[o])+wgt, 0xffff))
		}
		o += lw.major
		e -= lw.m
		if e < 0 {
			e += lw.n
			o += lw.minor
		}
	}
	return int64(lw.n)
}

// plotClipped clips the segment to the w×h image and plots what is left (plotLine).
func plotClipped(acc []uint16, w, h int, x0, y0, x1, y1 float64, wgt uint32, dash int) int64 {
	ix0, iy0, ix1, iy1, ok := clipToPixels(x0, y0, x1, y1, w, h)
	if !ok {
		return 0
	}
	return plotLine(acc, w, ix0, iy0, ix1, iy1, wgt, dash)
}

// composite paints rows [y0, y1) of dst, blends the layers' counts over it in order and zeroes them.
func (r *Rasterizer) composite(dst *image.RGBA, y0, y1 int, order [numLayers]int, bg color.RGBA) {
	w := r.w
	bgRow := make([]byte, w*4)
	bgRow[0], bgRow[1], bgRow[2], bgRow[3] = bg.R, bg.G, bg.B, bg.A
	for n := 4; n < len(bgRow); n *= 2 {
		copy(bgRow[n:], bgRow[:n])
	}
	var boxes [numLayers]image.Rectangle
	for l := range boxes {
		boxes[l] = r.box
	}
	if r.used[layerBest] {
		var b image.Rectangle
		for _, bb := range r.bestBox[:r.accWorkers] {
			b = b.Union(bb)
		}
		boxes[layerBest] = b.Intersect(r.box)
	}
	for y := y0; y < y1; y++ {
		row := dst.Pix[y*dst.Stride : y*dst.Stride+w*4]
		copy(row, bgRow)
		for _, l := range order {
			if !r.used[l] || y < boxes[l].Min.Y || y >= boxes[l].Max.Y {
				continue
			}
			bx0, bx1 := boxes[l].Min.X, boxes[l].Max.X
			pix := row[bx0*4 : bx1*4]
			base := y*w + bx0
			bufs := r.acc[l][:r.accWorkers]
			row := bufs[0][base : base+bx1-bx0]
			for _, b := range bufs[1:] {
				// Sum the other workers' counts into the first's.
				rb := b[base : base+bx1-bx0]
				rb = rb[:len(row)]
				for x, v := range rb {
					row[x] = uint16(min(uint32(row[x])+uint32(v), 0xffff))
				}
				clear(rb)
			}
			blendRow(pix, row, r.lut[l][:lutMax+1])
		}
	}
}

// blendRow blends one layer's row of counts over a row of pixels and zeroes the counts.
func blendRow(pix []byte, row []uint16, lut []blend) {
	pix = pix[:len(row)*4]
	for x, c := range row {
		if c == 0 {
			continue
		}
		row[x] = 0
		e := lut[min(c, lutMax)]
		p := pix[x*4 : x*4+4 : x*4+4]
		p[0] = uint8((uint32(p[0])*e.inv + e.r) >> 8)
		p[1] = uint8((uint32(p[1])*e.inv + e.g) >> 8)
		p[2] = uint8((uint32(p[2])*e.inv + e.b) >> 8)
		p[3] = 255
	}
}

// clip clips a segment to [0, xmax] × [0, ymax] (Liang–Barsky); ok is false when nothing is left.
func clip(x0, y0, x1, y1, xmax, ymax float64) (cx0, cy0, cx1, cy1 float64, ok bool) {
	dx, dy := x1-x0, y1-y0
	t0, t1 := 0.0, 1.0
	for _, e := range [4][2]float64{{-dx, x0}, {dx, xmax - x0}, {-dy, y0}, {dy, ymax - y0}} {
		switch p, q := e[0], e[1]; {
		case p == 0 && q < 0:
			return 0, 0, 0, 0, false // parallel to this side and beyond it
		case p < 0:
			t0 = max(t0, q/p)
		case p > 0:
			t1 = min(t1, q/p)
		}
	}
	if t0 > t1 {
		return 0, 0, 0, 0, false
	}
	return x0 + t0*dx, y0 + t0*dy, x0 + t1*dx, y0 + t1*dy, true
}
