package export

import (
	"image"
	"math"

	"github.com/tsplab/tsplab/solver"
)

// Heat map of recent changes: where the search is working. Each time the
// Rasterizer is given a new current tour of the same instance (a new
// slice: a new snapshot, not a redraw of the same one), the edges that
// were not in the previous tour add heat to the cell of a HeatGrid ×
// HeatGrid grid over the instance that holds their midpoint, and all heat
// decays by HeatDecay. Cells are tinted Style.Heat with an alpha that grows
// with their share of the hottest cell's heat. Above HeatLimit cities the
// map is not kept: finding the changed edges reads every edge's
// predecessor at random, which would cost a large frame more than its
// budget.
const (
	HeatGrid  = 48
	HeatDecay = 0.85
	HeatLimit = 250_000
	heatAlpha = 0.4 // the tint's alpha on the hottest cell
)

// heatMap is the Rasterizer's memory of the last snapshot.
type heatMap struct {
	of       *solver.Instance
	last     []int     // the last current tour seen
	prevSucc []int32   // the city after each in last
	succ     []int32   // scratch: the city after each in the new tour
	heat     []float32 // HeatGrid × HeatGrid, row 0 at the bottom (world y)
	cells    int       // cells with heat, for FrameStats
}

// update takes the scene's current tour into the heat map.
func (r *Rasterizer) updateHeat(in *solver.Instance, tour []int, on bool) {
	hm := &r.heat
	if !on || len(tour) != in.N || in.N > HeatLimit || in.N < 2 {
		*hm = heatMap{prevSucc: hm.prevSucc, succ: hm.succ, heat: hm.heat}
		clear(hm.heat)
		hm.of, hm.last = nil, nil
		return
	}
	if len(hm.last) == len(tour) && &hm.last[0] == &tour[0] && hm.of == in {
		return // the same snapshot drawn again: the view changed
	}
	n := in.N
	if cap(hm.succ) < n {
		hm.succ = make([]int32, n)
	}
	hm.succ = hm.succ[:n]
	prev := tour[n-1]
	for _, c := range tour {
		if uint(prev) < uint(n) && uint(c) < uint(n) {
			hm.succ[prev] = int32(c)
		}
		prev = c
	}
	if len(hm.heat) != HeatGrid*HeatGrid {
		hm.heat = make([]float32, HeatGrid*HeatGrid)
	}
	if hm.of != in || len(hm.prevSucc) != n {
		clear(hm.heat)
	} else {
		b := r.bounds
		sx := float64(HeatGrid) / math.Max(b.Width(), 1e-300)
		sy := float64(HeatGrid) / math.Max(b.Height(), 1e-300)
		for i := range hm.heat {
			hm.heat[i] *= HeatDecay
		}
		prev := tour[n-1]
		for _, c := range tour {
			a, d := prev, c
			prev = c
			if uint(a) >= uint(n) || uint(d) >= uint(n) || int(hm.prevSucc[a]) == d || int(hm.prevSucc[d]) == a {
				continue
			}
			mx, my := (r.wx[a]+r.wx[d])/2, (r.wy[a]+r.wy[d])/2
			cx := min(max(int((mx-b.MinX)*sx), 0), HeatGrid-1)
			cy := min(max(int((my-b.MinY)*sy), 0), HeatGrid-1)
			hm.heat[cy*HeatGrid+cx]++
		}
	}
	hm.prevSucc, hm.succ = hm.succ, hm.prevSucc
	hm.of, hm.last = in, tour
}

// drawHeat tints dst's pixels of the heated cells, seen through t.
func (r *Rasterizer) drawHeat(dst *image.RGBA, t Transform, st Style) {
	hm := &r.heat
	hm.cells = 0
	if hm.of == nil || st.Heat.A == 0 {
		return
	}
	hottest := float32(0)
	for _, v := range hm.heat {
		hottest = max(hottest, v)
	}
	if hottest < 0.5 {
		return // less than one changed edge's worth left anywhere
	}
	b := r.bounds
	cw, ch := b.Width()/HeatGrid, b.Height()/HeatGrid
	frame := dst.Rect
	for cy := 0; cy < HeatGrid; cy++ {
		for cx := 0; cx < HeatGrid; cx++ {
			v := hm.heat[cy*HeatGrid+cx]
			if v < 0.05*hottest {
				continue
			}
			hm.cells++
			x0, y0 := t.Apply(b.MinX+float64(cx)*cw, b.MinY+float64(cy+1)*ch)
			x1, y1 := t.Apply(b.MinX+float64(cx+1)*cw, b.MinY+float64(cy)*ch)
			rect := image.Rect(int(math.Floor(x0)), int(math.Floor(y0)), int(math.Ceil(x1)), int(math.Ceil(y1))).Intersect(frame)
			a := uint32(256 * heatAlpha * math.Sqrt(float64(v/hottest)))
			tint(dst, rect, st.Heat.R, st.Heat.G, st.Heat.B, a)
		}
	}
}

// tint blends colour (r, g, b) with alpha a/256 over rect of dst.
func tint(dst *image.RGBA, rect image.Rectangle, r, g, b uint8, a uint32) {
	inv := 256 - a
	pr, pg, pb := uint32(r)*a, uint32(g)*a, uint32(b)*a
	for y := rect.Min.Y; y < rect.Max.Y; y++ {
		o := dst.PixOffset(rect.Min.X, y)
		row := dst.Pix[o : o+4*rect.Dx()]
		for i := 0; i+3 < len(row); i += 4 {
			row[i] = uint8((uint32(row[i])*inv + pr) >> 8)
			row[i+1] = uint8((uint32(row[i+1])*inv + pg) >> 8)
			row[i+2] = uint8((uint32(row[i+2])*inv + pb) >> 8)
		}
	}
}
