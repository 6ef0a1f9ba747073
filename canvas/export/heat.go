package export

import (
	"image"
	"math"

	"github.com/tsplab/tsplab/solver/problem"
)

// Heat map of recent changes: the midpoints of new edges stay HeatSnapshots snapshots, each HeatDecay times the next,
// binned into HeatCellPx cells; above HeatLimit cities it is not drawn, and a Done scene clears it.
const (
	HeatCellPx    = 12
	HeatSnapshots = 16
	HeatDecay     = 0.85
	HeatLimit     = 250_000
	// heatPoints bounds the midpoints kept from one snapshot; more are subsampled evenly.
	heatPoints = 4096
	heatAlpha  = 0.4 // the tint's alpha on the hottest cell
)

// heatMap is the Rasterizer's memory of the last snapshots.
type heatMap struct {
	of       *problem.Instance
	last     []int       // the last current tour seen
	prevSucc []int32     // the city after each in last
	succ     []int32     // scratch: the city after each in the new tour
	batches  [][]float64 // newest last: x, y pairs of changed edges' midpoints
	grid     []float32   // scratch: the frame's cells
	cells    int         // cells tinted in the last frame, for FrameStats
}

// updateHeat takes the scene's tour into the heat map (open: a path, no closing edge).
func (r *Rasterizer) updateHeat(in *problem.Instance, tour []int, open, on bool) {
	hm := &r.heat
	if !on || len(tour) != in.N || in.N > HeatLimit || in.N < 2 {
		hm.of, hm.last, hm.batches = nil, nil, hm.batches[:0]
		return
	}
	if len(hm.last) == len(tour) && &hm.last[0] == &tour[0] && hm.of == in {
		return // the same snapshot drawn again: the view changed
	}
	n := in.N
	hm.succ = successors(hm.succ, tour, n, open)
	if hm.of != in || len(hm.prevSucc) != n {
		hm.batches = hm.batches[:0]
	} else {
		var pts []float64
		if len(hm.batches) == HeatSnapshots {
			pts = hm.batches[0][:0] // reuse the oldest
			copy(hm.batches, hm.batches[1:])
			hm.batches = hm.batches[:HeatSnapshots-1]
		}
		prev := tour[n-1]
		if open {
			prev = -1
		}
		for _, c := range tour {
			a, d := prev, c
			prev = c
			if uint(a) >= uint(n) || uint(d) >= uint(n) || int(hm.prevSucc[a]) == d || int(hm.prevSucc[d]) == a {
				continue
			}
			pts = append(pts, (r.wx[a]+r.wx[d])/2, (r.wy[a]+r.wy[d])/2)
		}
		if k := len(pts) / 2; k > heatPoints {
			// Evenly spaced along the tour, at a bounded cost a frame.
			for i := 0; i < heatPoints; i++ {
				j := i * k / heatPoints
				pts[2*i], pts[2*i+1] = pts[2*j], pts[2*j+1]
			}
			pts = pts[:2*heatPoints]
		}
		hm.batches = append(hm.batches, pts)
	}
	hm.prevSucc, hm.succ = hm.succ, hm.prevSucc
	hm.of, hm.last = in, tour
}

// drawHeat tints dst's cells where the kept snapshots changed the tour, seen through t.
func (r *Rasterizer) drawHeat(dst *image.RGBA, t Transform, st Style) {
	hm := &r.heat
	hm.cells = 0
	if hm.of == nil || st.Heat.A == 0 || len(hm.batches) == 0 {
		return
	}
	frame := dst.Rect
	gw, gh := (frame.Dx()+HeatCellPx-1)/HeatCellPx, (frame.Dy()+HeatCellPx-1)/HeatCellPx
	if cap(hm.grid) < gw*gh {
		hm.grid = make([]float32, gw*gh)
	}
	grid := hm.grid[:gw*gh]
	clear(grid)
	w := float32(1)
	for b := len(hm.batches) - 1; b >= 0; b-- {
		pts := hm.batches[b]
		for i := 0; i+1 < len(pts); i += 2 {
			px, py := t.Apply(pts[i], pts[i+1])
			if px < 0 || py < 0 || px >= float64(frame.Dx()) || py >= float64(frame.Dy()) {
				continue
			}
			grid[int(py)/HeatCellPx*gw+int(px)/HeatCellPx] += w
		}
		w *= HeatDecay
	}
	hottest := float32(0)
	for _, v := range grid {
		hottest = max(hottest, v)
	}
	if hottest < 0.5 {
		return // less than one changed edge's worth left anywhere
	}
	for cy := 0; cy < gh; cy++ {
		for cx := 0; cx < gw; cx++ {
			v := grid[cy*gw+cx]
			if v < 0.05*hottest {
				continue
			}
			hm.cells++
			rect := image.Rect(cx*HeatCellPx, cy*HeatCellPx, (cx+1)*HeatCellPx, (cy+1)*HeatCellPx).Add(frame.Min).Intersect(frame)
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
