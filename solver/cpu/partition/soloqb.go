package partition

import (
	"cmp"
	"math"
	"slices"
)

// quickBoruvka is a start tour for chained LK of the cities whose x and
// y are side by side in xy, built as Applegate, Cook
// and Rohe build theirs: pass after pass, the cities in order of x take
// each the nearest city that can still join them (both of degree below
// two, in different paths), found on a grid of buckets, until one path
// holds every city; its ends close the tour. nil without coordinates.
// LK descends further from it than from a greedy tour (linkern: pla85900
// 144.0 M against 145.6 M, C100k.0 109.5 M against 112.0 M).
func quickBoruvka(xy []float64) []int32 {
	n := len(xy) / 2
	if xy == nil || n < 8 {
		return nil
	}
	q := newQBGrid(xy, n)
	if q == nil {
		return nil
	}
	order := make([]int32, n)
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(xy[2*a], xy[2*b]); c != 0 {
			return c
		}
		return int(a - b)
	})
	return q.join(order)
}

// qbGrid is quickBoruvka's grid of buckets over the cities' bounding
// square, each bucket the cities in it still of degree below two, so
// that a city's nearest partner is found from the buckets about it.
type qbGrid struct {
	xy          []float64 // x and y of each city side by side
	lox, loy, w float64   // the grid's corner and a bucket's side
	g           int       // buckets a side
	buckets     [][]int32
}

// newQBGrid puts the n cities of xy in buckets of about two cities
// each; nil when the cities share one point, which leaves no grid.
func newQBGrid(xy []float64, n int) *qbGrid {
	lox, loy, hix, hiy := math.Inf(1), math.Inf(1), math.Inf(-1), math.Inf(-1)
	for c := range n {
		x, y := xy[2*c], xy[2*c+1]
		lox, loy, hix, hiy = min(lox, x), min(loy, y), max(hix, x), max(hiy, y)
	}
	g := max(1, int(math.Sqrt(float64(n)/2))) // about two cities a bucket
	w := max(hix-lox, hiy-loy) / float64(g) * (1 + 1e-9)
	if w <= 0 {
		return nil
	}
	q := &qbGrid{xy: xy, lox: lox, loy: loy, w: w, g: g, buckets: make([][]int32, g*g)}
	for c := range int32(n) {
		i, j := q.cell(c)
		q.buckets[j*g+i] = append(q.buckets[j*g+i], c)
	}
	return q
}

// cell is the column and row of city c's bucket.
func (q *qbGrid) cell(c int32) (int, int) {
	return min(q.g-1, int((q.xy[2*c]-q.lox)/q.w)), min(q.g-1, int((q.xy[2*c+1]-q.loy)/q.w))
}

// drop takes c out of its bucket once it is of degree two, as it can
// join no more edges.
func (q *qbGrid) drop(c int32) {
	i, j := q.cell(c)
	b := q.buckets[j*q.g+i]
	k := slices.Index(b, c)
	b[k] = b[len(b)-1]
	q.buckets[j*q.g+i] = b[:len(b)-1]
}

// join links the cities pass after pass in order, each to its nearest
// partner that can still join it, until one path holds every city, and
// returns that path from an end.
func (q *qbGrid) join(order []int32) []int32 {
	n := len(order)
	adj := make([][2]int32, n)
	deg := make([]uint8, n)
	other := make([]int32, n) // a path's end: the path's other end
	for i := range other {
		other[i] = int32(i)
	}
	for edges := 0; edges < n-1; {
		for _, v := range order {
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
	// the one path, from an end
	a := int32(-1)
	for c := range int32(n) {
		if deg[c] < 2 {
			a = c
			break
		}
	}
	t := make([]int32, 0, n)
	for prev, c := int32(-1), a; len(t) < n; {
		t = append(t, c)
		next := adj[c][0]
		if next == prev {
			next = adj[c][1]
		}
		prev, c = c, next
	}
	return t
}

// nearest is the city nearest v among those still in a bucket, other
// than v and ov, the other end of v's path (an edge to it would close a
// cycle), searched ring by ring of buckets out from v's; -1 if none.
func (q *qbGrid) nearest(v, ov int32) int32 {
	g, w := q.g, q.w
	ci, cj := q.cell(v)
	best, bd := int32(-1), math.Inf(1)
	for r := 0; r < g; r++ {
		// every bucket at ring r lies at least (r-1)·w away
		if best >= 0 && float64(r-1)*w > bd {
			break
		}
		for j := cj - r; j <= cj+r; j++ {
			if j < 0 || j >= g {
				continue
			}
			for i := ci - r; i <= ci+r; i++ {
				if i < 0 || i >= g || (j != cj-r && j != cj+r && i != ci-r && i != ci+r) {
					continue
				}
				for _, u := range q.buckets[j*g+i] {
					if u == v || u == ov {
						continue
					}
					dx, dy := q.xy[2*u]-q.xy[2*v], q.xy[2*u+1]-q.xy[2*v+1]
					if d := dx*dx + dy*dy; d < bd*bd || best < 0 {
						best, bd = u, math.Sqrt(d)
					}
				}
			}
		}
	}
	return best
}
