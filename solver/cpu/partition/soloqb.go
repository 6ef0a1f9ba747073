package partition

import (
	"math"
	"slices"

	"github.com/tsplab/tsplab/solver/internal/radix"
)

// quickBoruvka is a start tour for chained LK of the cities at pts,
// built as Applegate, Cook
// and Rohe build theirs: pass after pass, the cities in order of x take
// each the nearest city that can still join them (both of degree below
// two, in different paths), found on a grid of buckets, until one path
// holds every city; its ends close the tour. nil without coordinates.
// LK descends further from it than from a greedy tour (linkern: pla85900
// 144.0 M against 145.6 M, C100k.0 109.5 M against 112.0 M).
func quickBoruvka(pts []point) []int32 {
	n := len(pts)
	if n < 8 {
		return nil
	}
	q := newQBGrid(pts)
	if q == nil {
		return nil
	}
	return q.join()
}

// qbGrid is quickBoruvka's grid of buckets over the cities' bounding
// square, each bucket the cities in it still of degree below two, so
// that a city's nearest partner is found from the buckets about it. It
// numbers the cities by their rank in order of x (ties by id), the order
// of the passes, so that they read its arrays in order.
type qbGrid struct {
	xy   []float64 // x and y of each rank side by side
	id   []int32   // the city of each rank
	cell []int32   // each rank's bucket
	w    float64   // a bucket's side
	g    int       // buckets a side
	// bucket b is held[at[b] : at[b]+size[b]]: its ranks still of
	// degree below two, in the order of their cities' ids
	held, at, size []int32
}

// newQBGrid puts the cities of pts in buckets of about two cities
// each; nil when the cities share one point, which leaves no grid.
func newQBGrid(pts []point) *qbGrid {
	n := len(pts)
	lox, loy, hix, hiy := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for c := range n {
		x, y := pts[c].x, pts[c].y
		lox, loy, hix, hiy = min(lox, x), min(loy, y), max(hix, x), max(hiy, y)
	}
	g := max(1, int(math.Sqrt(float64(n)/2))) // about two cities a bucket
	w := max(hix-lox, hiy-loy) / float64(g) * (1 + 1e-9)
	if w <= 0 {
		return nil
	}
	q := &qbGrid{xy: make([]float64, 2*n), id: qbByX(pts), cell: make([]int32, n), w: w, g: g,
		held: make([]int32, n), at: make([]int32, g*g+1), size: make([]int32, g*g)}
	rank := make([]int32, n)
	for r, c := range q.id {
		rank[c] = int32(r)
		x, y := pts[c].x, pts[c].y
		q.xy[2*r], q.xy[2*r+1] = x, y
		q.cell[r] = int32(min(g-1, int((y-loy)/w))*g + min(g-1, int((x-lox)/w)))
	}
	for _, b := range q.cell {
		q.at[b+1]++
	}
	for b := range g * g {
		q.at[b+1] += q.at[b]
	}
	for _, r := range rank {
		b := q.cell[r]
		q.held[q.at[b]+q.size[b]] = r
		q.size[b]++
	}
	return q
}

// qbByX is the cities of pts in order of x, ties by id: their x's bits
// as keys that order as the numbers, radix-sorted.
func qbByX(pts []point) []int32 {
	n := len(pts)
	keys, order := make([]uint64, n), make([]int32, n)
	for c := range n {
		x := pts[c].x
		if x == 0 {
			x = 0 // -0 as +0, which compare equal
		}
		b := math.Float64bits(x)
		if b>>63 == 1 {
			b = ^b // negative: the larger the magnitude, the lower
		} else {
			b |= 1 << 63
		}
		keys[c], order[c] = b, int32(c)
	}
	radix.Sort(keys, 64, order)
	return order
}

// drop takes rank v out of its bucket once it is of degree two, as it
// can join no more edges.
func (q *qbGrid) drop(v int32) {
	b := q.cell[v]
	held := q.held[q.at[b] : q.at[b]+q.size[b]]
	k := slices.Index(held, v)
	held[k] = held[len(held)-1]
	q.size[b]--
}

// join links the cities pass after pass in order of x, each to its
// nearest partner that can still join it, until one path holds every
// city, and returns that path from its end of the lower id.
func (q *qbGrid) join() []int32 {
	n := len(q.id)
	adj := make([][2]int32, n)
	deg := make([]uint8, n)
	other := make([]int32, n) // a path's end: the path's other end
	for i := range other {
		other[i] = int32(i)
	}
	for edges := 0; edges < n-1; {
		for v := range int32(n) {
			if deg[v] == 2 || edges == n-1 {
				continue
			}
			u := q.nearest(v, other[v])
			if u < 0 {
				continue
			}
			adj[v][deg[v]], adj[u][deg[u]] = u, v
			deg[v]++
			deg[u]++
			ev, eu := other[v], other[u] // the joined path's ends
			other[ev], other[eu] = eu, ev
			edges++
			for _, c := range [2]int32{v, u} {
				if deg[c] == 2 {
					q.drop(c)
				}
			}
		}
	}
	a := int32(-1)
	for v := range int32(n) {
		if deg[v] < 2 && (a < 0 || q.id[v] < q.id[a]) {
			a = v
		}
	}
	t := make([]int32, 0, n)
	for prev, v := int32(-1), a; len(t) < n; {
		t = append(t, q.id[v])
		next := adj[v][0]
		if next == prev {
			next = adj[v][1]
		}
		prev, v = v, next
	}
	return t
}

// nearest is the rank nearest v among those still in a bucket, other
// than v and ov, the other end of v's path (an edge to it would close a
// cycle), searched ring by ring of buckets out from v's; -1 if none.
func (q *qbGrid) nearest(v, ov int32) int32 {
	g := q.g
	ci, cj := int(q.cell[v])%g, int(q.cell[v])/g
	vx, vy := q.xy[2*v], q.xy[2*v+1]
	best, bd := int32(-1), math.Inf(1)
	look := func(i, j int) {
		b := j*g + i
		for _, u := range q.held[q.at[b] : q.at[b]+q.size[b]] {
			if u == v || u == ov {
				continue
			}
			dx, dy := q.xy[2*u]-vx, q.xy[2*u+1]-vy
			if d := dx*dx + dy*dy; d < bd*bd || best < 0 {
				best, bd = u, math.Sqrt(d)
			}
		}
	}
	for r := 0; r < g; r++ {
		// every bucket at ring r lies at least (r-1)·w away
		if best >= 0 && float64(r-1)*q.w > bd {
			break
		}
		// ring r's buckets row by row, as a scan of its square would
		// meet them, so that ties go to the same city
		i0, i1 := max(0, ci-r), min(g-1, ci+r)
		for j := max(0, cj-r); j <= min(g-1, cj+r); j++ {
			if j == cj-r || j == cj+r {
				for i := i0; i <= i1; i++ {
					look(i, j)
				}
				continue
			}
			if ci-r >= 0 {
				look(ci-r, j)
			}
			if r > 0 && ci+r < g {
				look(ci+r, j)
			}
		}
	}
	return best
}
