package gen

import (
	"math"
	"runtime"
	"sync"
)

// cellGrid buckets points by square cells for nearest-point queries.
type cellGrid struct {
	size   float64 // cell side in pixels
	gw, gh int
	start  []int32   // cell c holds slots start[c]..start[c+1]
	x, y   []float64 // the points in cell order
	id     []int32   // the point in each slot
}

// newCellGrid buckets the points into cells of about one point each.
func newCellGrid(px, py []float64, w, h int) *cellGrid {
	n := len(px)
	size := math.Max(math.Sqrt(float64(w)*float64(h)/float64(n)), 0.25)
	g := &cellGrid{size: size, gw: int(float64(w)/size) + 1, gh: int(float64(h)/size) + 1}
	g.start = make([]int32, g.gw*g.gh+1)
	cell := make([]int32, n)
	for i := range n {
		c := g.cellOf(px[i], py[i])
		cell[i] = int32(c)
		g.start[c+1]++
	}
	for c := 1; c < len(g.start); c++ {
		g.start[c] += g.start[c-1]
	}
	fill := append([]int32(nil), g.start[:len(g.start)-1]...)
	g.x, g.y, g.id = make([]float64, n), make([]float64, n), make([]int32, n)
	for i := range n {
		s := fill[cell[i]]
		fill[cell[i]]++
		g.x[s], g.y[s], g.id[s] = px[i], py[i], int32(i)
	}
	return g
}

func (g *cellGrid) cellOf(x, y float64) int {
	cx := min(max(int(x/g.size), 0), g.gw-1)
	cy := min(max(int(y/g.size), 0), g.gh-1)
	return cy*g.gw + cx
}

// nearest returns the point nearest to (x, y), ring by ring of cells.
func (g *cellGrid) nearest(x, y float64) int32 {
	cx := min(max(int(x/g.size), 0), g.gw-1)
	cy := min(max(int(y/g.size), 0), g.gh-1)
	best, bestD := int32(-1), math.Inf(1)
	for r := 0; r <= max(g.gw, g.gh); r++ {
		for yy := cy - r; yy <= cy+r; yy++ {
			if yy < 0 || yy >= g.gh {
				continue
			}
			step := 1
			if yy != cy-r && yy != cy+r {
				step = 2 * r // only the ring's left and right cells
			}
			for xx := cx - r; xx <= cx+r; xx += max(step, 1) {
				if xx < 0 || xx >= g.gw {
					continue
				}
				c := yy*g.gw + xx
				for s := g.start[c]; s < g.start[c+1]; s++ {
					dx, dy := g.x[s]-x, g.y[s]-y
					if d := dx*dx + dy*dy; d < bestD {
						best, bestD = g.id[s], d
					}
				}
			}
		}
		// Points beyond ring r lie at least r cells from (x, y).
		if reach := float64(r) * g.size; best >= 0 && bestD <= reach*reach {
			break
		}
	}
	return best
}

// relax moves each point to its Voronoi cell's darkness-weighted centroid steps times, on a grid of samples.
func relax(d []float32, w, h int, px, py []float64, steps int) {
	n := len(px)
	ss := int(math.Ceil(math.Sqrt(16 * float64(n) / float64(w*h))))
	ss = min(max(ss, 2), 4)
	for k := range steps {
		g := newCellGrid(px, py, w, h)
		// The first steps move points far and need no fine samples.
		fine := ss
		if k < steps-2 {
			fine = 1
		}
		sum := centroids(g, d, w, h, fine, n)
		for i := range n {
			if sw := sum[3*i]; sw > 0 {
				px[i], py[i] = sum[3*i+1]/sw, sum[3*i+2]/sw
			}
		}
	}
}

// centroids sums each point's nearest samples' weights in bands on all cores, added in a fixed order (deterministic).
func centroids(g *cellGrid, d []float32, w, h, ss, n int) []float64 {
	k := min(runtime.GOMAXPROCS(0), h)
	parts := make([][]float64, k)
	var wg sync.WaitGroup
	for b := range k {
		wg.Go(func() {
			acc := make([]float64, 3*n)
			for y := h * b / k; y < h*(b+1)/k; y++ {
				for x := range w {
					wt := float64(d[y*w+x])
					if wt == 0 {
						continue
					}
					for sy := range ss {
						fy := float64(y) + (float64(sy)+0.5)/float64(ss)
						for sx := range ss {
							fx := float64(x) + (float64(sx)+0.5)/float64(ss)
							i := g.nearest(fx, fy)
							acc[3*i] += wt
							acc[3*i+1] += wt * fx
							acc[3*i+2] += wt * fy
						}
					}
				}
			}
			parts[b] = acc
		})
	}
	wg.Wait()
	for _, p := range parts[1:] {
		for i, v := range p {
			parts[0][i] += v
		}
	}
	return parts[0]
}
