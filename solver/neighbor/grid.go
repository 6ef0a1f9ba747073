package neighbor

import (
	"math"

	"github.com/tsplab/tsplab/solver/problem"
)

// PointSet is a shrinking set of cities answering "nearest member to c": a grid searched ring by ring (Bentley 1992's
// semidynamic point sets) for Euclidean-like instances, else a scan.
type PointSet struct {
	in      *problem.Instance
	members []int32 // compact list of members (linear mode and rebuilds)
	where   []int32 // index of a city in members, -1 if absent

	grid bool
	// grid mode
	minX, minY, cell float64
	nx, ny           int
	cells            [][]int32
	slot             []int32 // index of a city inside its cell
	cellOf           []int32
}

// NewPointSet returns a set holding the given cities.
func NewPointSet(in *problem.Instance, cities []int32) *PointSet {
	s := &PointSet{in: in, members: append([]int32(nil), cities...), where: make([]int32, in.N)}
	for i := range s.where {
		s.where[i] = -1
	}
	for i, c := range s.members {
		s.where[c] = int32(i)
	}
	s.grid = EuclidLike(in)
	if s.grid {
		s.slot = make([]int32, in.N)
		s.cellOf = make([]int32, in.N)
		s.rebuild()
	}
	return s
}

// Len returns the number of members.
func (s *PointSet) Len() int { return len(s.members) }

// Has reports whether c is a member.
func (s *PointSet) Has(c int) bool { return s.where[c] >= 0 }

func (s *PointSet) rebuild() {
	m := len(s.members)
	if m == 0 {
		s.cells = nil
		return
	}
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, c := range s.members {
		x, y := s.in.X[c], s.in.Y[c]
		minX, maxX = min(minX, x), max(maxX, x)
		minY, maxY = min(minY, y), max(maxY, y)
	}
	w, h := maxX-minX, maxY-minY
	cells := max(1, m/2)
	var cell float64
	switch {
	case w <= 0 && h <= 0:
		cell = 1
	case w <= 0 || h <= 0:
		cell = max(w, h) / float64(cells)
	default:
		cell = math.Sqrt(w * h / float64(cells))
	}
	s.minX, s.minY, s.cell = minX, minY, cell
	s.nx = min(int(w/cell)+1, cells+1)
	s.ny = min(int(h/cell)+1, cells+1)
	s.cells = make([][]int32, s.nx*s.ny)
	for _, c := range s.members {
		k := s.cellIndex(s.in.X[c], s.in.Y[c])
		s.cellOf[c] = int32(k)
		s.slot[c] = int32(len(s.cells[k]))
		s.cells[k] = append(s.cells[k], c)
	}
}

func (s *PointSet) cellXY(x, y float64) (int, int) {
	cx := int((x - s.minX) / s.cell)
	cy := int((y - s.minY) / s.cell)
	return min(max(cx, 0), s.nx-1), min(max(cy, 0), s.ny-1)
}

func (s *PointSet) cellIndex(x, y float64) int {
	cx, cy := s.cellXY(x, y)
	return cy*s.nx + cx
}

// Remove deletes c from the set (a no-op if absent).
func (s *PointSet) Remove(c int) {
	i := s.where[c]
	if i < 0 {
		return
	}
	last := s.members[len(s.members)-1]
	s.members[i] = last
	s.where[last] = i
	s.members = s.members[:len(s.members)-1]
	s.where[c] = -1
	if !s.grid {
		return
	}
	k := s.cellOf[c]
	cl := s.cells[k]
	j := s.slot[c]
	lc := cl[len(cl)-1]
	cl[j] = lc
	s.slot[lc] = j
	s.cells[k] = cl[:len(cl)-1]
	if len(s.members) > 0 && len(s.members)*4 < len(s.cells) {
		s.rebuild()
	}
}

// Nearest returns a member nearest to c by the exact metric (-1: none), ties by the set's history (repeatable).
func (s *PointSet) Nearest(c int) int {
	if !s.grid {
		best, bd := -1, int64(math.MaxInt64)
		for _, m := range s.members {
			if int(m) == c {
				continue
			}
			if d := s.in.Dist(c, int(m)); d < bd {
				best, bd = int(m), d
				if d == 0 {
					break // a coincident city: nothing is nearer
				}
			}
		}
		return best
	}
	if len(s.members) == 0 || (len(s.members) == 1 && int(s.members[0]) == c) {
		return -1
	}
	x, y := s.in.X[c], s.in.Y[c]
	cx, cy := s.cellXY(x, y)
	best, bd := -1, math.Inf(1)
	maxR := max(s.nx, s.ny)
	for r := 0; r <= maxR; r++ {
		// Cells in ring r are at least (r-1)*cell away from (x, y).
		if best >= 0 {
			lb := float64(r-1) * s.cell
			if lb > 0 && lb*lb > bd {
				break
			}
		}
		for gy := cy - r; gy <= cy+r; gy++ {
			if gy < 0 || gy >= s.ny {
				continue
			}
			step := 2 * r
			if gy == cy-r || gy == cy+r || r == 0 {
				step = 1
			}
			for gx := cx - r; gx <= cx+r; gx += step {
				if gx < 0 || gx >= s.nx {
					continue
				}
				for _, m := range s.cells[gy*s.nx+gx] {
					if int(m) == c {
						continue
					}
					dx, dy := s.in.X[m]-x, s.in.Y[m]-y
					if d := dx*dx + dy*dy; d < bd {
						best, bd = int(m), d
						if d == 0 {
							return best // a coincident city: nothing is nearer
						}
					}
				}
			}
		}
	}
	return best
}
