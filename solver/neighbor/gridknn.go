package neighbor

import (
	"context"
	"math"

	"github.com/tsplab/tsplab/solver/internal/parallel"
	"github.com/tsplab/tsplab/solver/problem"
)

// gridPerCell is the cities per cell GridNearestContext aims at: the nine cells around a city hold enough for k ≤ 8.
const gridPerCell = 2

// gridMaxCost bounds the query cost per city up to which the grid is kept; crowded cities take the k-d tree.
const gridMaxCost = 8

// cityGrid holds the cities bucketed in square cells, coordinates copied contiguously (cell c: pts[start[c]:start[c+1]]).
type cityGrid struct {
	x0, y0, side float64
	nx, ny       int
	start        []int32
	pts          []kdPoint
}

// newCityGrid buckets the instance's cities by a counting sort.
func newCityGrid(in *problem.Instance) *cityGrid {
	n := in.N
	x0, x1, y0, y1 := in.X[0], in.X[0], in.Y[0], in.Y[0]
	for i := range n {
		x0, x1 = min(x0, in.X[i]), max(x1, in.X[i])
		y0, y1 = min(y0, in.Y[i]), max(y1, in.Y[i])
	}
	w, h := max(x1-x0, 1e-9), max(y1-y0, 1e-9)
	side := math.Sqrt(w * h * gridPerCell / float64(n))
	g := &cityGrid{x0: x0, y0: y0, side: side}
	g.nx = min(int(w/side)+1, n+1)
	g.ny = min(int(h/side)+1, n+1)
	cell := make([]int32, n)
	g.start = make([]int32, g.nx*g.ny+1)
	for i := range n {
		c := g.cellOf(in.X[i], in.Y[i])
		cell[i] = int32(c)
		g.start[c+1]++
	}
	for c := 1; c < len(g.start); c++ {
		g.start[c] += g.start[c-1]
	}
	g.pts = make([]kdPoint, n)
	fill := append([]int32(nil), g.start[:len(g.start)-1]...)
	for i := range n {
		c := cell[i]
		g.pts[fill[c]] = kdPoint{x: in.X[i], y: in.Y[i], id: int32(i)}
		fill[c]++
	}
	return g
}

// even reports whether the cells' squared counts sum to at most gridMaxCost per city (uniform: about 3).
func (g *cityGrid) even() bool {
	var sum int64
	for c := 0; c+1 < len(g.start); c++ {
		m := int64(g.start[c+1] - g.start[c])
		sum += m * m
	}
	return sum <= gridMaxCost*int64(len(g.pts))
}

// cellXY returns the column and row of the cell holding (x, y).
func (g *cityGrid) cellXY(x, y float64) (int, int) {
	cx := min(max(int((x-g.x0)/g.side), 0), g.nx-1)
	cy := min(max(int((y-g.y0)/g.side), 0), g.ny-1)
	return cx, cy
}

func (g *cityGrid) cellOf(x, y float64) int {
	cx, cy := g.cellXY(x, y)
	return cy*g.nx + cx
}

// query keeps in h p's nearest cities, ring by ring, until no farther ring can beat them.
func (g *cityGrid) query(p kdPoint, cx, cy int, h *sortedKeep) {
	// the distance from p to its cell's nearest side
	inner := min(p.x-(g.x0+float64(cx)*g.side), g.x0+float64(cx+1)*g.side-p.x,
		p.y-(g.y0+float64(cy)*g.side), g.y0+float64(cy+1)*g.side-p.y)
	inner = max(inner, 0)
	for r := 0; ; r++ {
		g.ring(p, cx, cy, r, h)
		reach := float64(r)*g.side + inner
		if len(h.d) == h.max && h.d[len(h.d)-1] < reach*reach {
			return
		}
		if cx-r <= 0 && cy-r <= 0 && cx+r >= g.nx-1 && cy+r >= g.ny-1 {
			return // every cell seen
		}
	}
}

// ring offers h the cells' cities at Chebyshev distance r from (cx, cy).
func (g *cityGrid) ring(p kdPoint, cx, cy, r int, h *sortedKeep) {
	for y := max(cy-r, 0); y <= min(cy+r, g.ny-1); y++ {
		step := 1
		if y != cy-r && y != cy+r {
			step = 2 * r // the two side cells of a middle row
		}
		for x := cx - r; x <= cx+r; x += max(step, 1) {
			if x < 0 || x >= g.nx {
				continue
			}
			c := y*g.nx + x
			h.keepAll(g.pts[g.start[c]:g.start[c+1]], p.x, p.y, p.id)
		}
	}
}

// GridNearestContext is NearestContext from a uniform grid for evenly spread 2-D Euclidean-like instances (the same lists,
// faster); others get NearestContext's. It returns ctx's error when ctx is done.
func GridNearestContext(ctx context.Context, in *problem.Instance, k int) (*Lists, error) {
	n := in.N
	k = min(max(k, 0), max(n-1, 0))
	if k == 0 || !EuclidLike(in) {
		return NearestContext(ctx, in, k)
	}
	g, err := Await(ctx, func() *cityGrid { return newCityGrid(in) })
	if err != nil {
		return nil, err
	}
	if !g.even() {
		return NearestContext(ctx, in, k)
	}
	nb := &Lists{K: k, List: make([]int32, n*k)}
	// Cell by cell: a goroutine's queries stay in one region of memory.
	err = parallel.ForContext(ctx, g.nx*g.ny, func(lo, hi int) {
		keep := newSortedKeep(k)
		var buf []distEntry
		for c := lo; c < hi; c++ {
			cx, cy := c%g.nx, c/g.nx
			for _, p := range g.pts[g.start[c]:g.start[c+1]] {
				keep.reset()
				g.query(p, cx, cy, &keep)
				row := nb.List[int(p.id)*k : (int(p.id)+1)*k]
				buf = exactOrder(in.Metric, &keep, row, buf)
			}
		}
	})
	if err != nil {
		return nil, err
	}
	return nb, nil
}

// exactOrder writes h's cities into row by exact distance, ties by index, from the kept squared distances.
func exactOrder(m problem.Metric, h *sortedKeep, row []int32, buf []distEntry) []distEntry {
	es := buf[:0]
	for x, d2 := range h.d {
		es = insertByDist(es, distEntry{planeDist(m, d2), h.id[x]})
	}
	for x, e := range es {
		row[x] = e.id
	}
	return es
}

// planeDist is in's distance of two cities at squared plane distance d2.
func planeDist(m problem.Metric, d2 float64) int64 {
	switch m {
	case problem.Ceil2D:
		return int64(math.Ceil(math.Sqrt(d2)))
	case problem.Att:
		r := math.Sqrt(d2 / 10.0)
		t := int64(r + 0.5)
		if float64(t) < r {
			t++
		}
		return t
	}
	return int64(math.Sqrt(d2) + 0.5)
}
