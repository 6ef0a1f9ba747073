package gpu

import (
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// globalOrOpt improves a in place with first-improvement Or-opt over the
// candidate lists nb and don't-look bits (Johnson & McGeoch 1997, section
// 3.3): for each queued city c, the segments of 1–3 cities starting at c
// go next to a candidate of either end, in the orientation that joins
// that end to it. It is or-ils's move between windows, beside tour.TwoOpt:
// a window never sees a candidate that lies in another window. It returns
// the total delta (≤ 0) and the moves evaluated.
func globalOrOpt(in *solver.Instance, a *tour.Array, nb *neighbor.Lists, stop func() bool) (delta, evaluated int64) {
	n := a.Len()
	if n < 8 || nb == nil || nb.K == 0 {
		return 0, 0
	}
	d := tour.LazyDist(in)
	at := func(x, y int) int64 { return d.At(int32(x), int32(y)) }
	q := tour.NewQueue(n)
	push := func(c int) { q.Push(int32(c)) }
	// improve tries the segments that start at c; it applies the first
	// improving move and reports whether it did.
	improve := func(c int) bool {
		for l := 1; l <= 3; l++ {
			i := a.Pos[c]
			s, e := c, a.At(i+l-1)
			p, q := a.At(i-1), a.At(i+l)
			g := at(p, s) + at(e, q) - at(p, q) // what removing the segment saves
			if g <= 0 {
				continue
			}
			inSeg := func(x int) bool {
				o := a.Pos[x] - i
				if o < 0 {
					o += n
				}
				return o < l
			}
			for end := 0; end < 2; end++ {
				z := s // the end joined to the candidate
				if end == 1 {
					z = e
				}
				for _, x32 := range nb.Of(z) {
					x := int(x32)
					if at(z, x) >= g {
						break
					}
					if inSeg(x) {
						continue
					}
					for side := 0; side < 2; side++ {
						// the edge (u, v) = (x, next x) or (prev x, x)
						u, v := x, a.Next(x)
						if side == 1 {
							u, v = a.Prev(x), x
						}
						if u == p || inSeg(u) || inSeg(v) {
							continue
						}
						// s next to u (forward) or e next to u (reversed)
						rev := l > 1 && (z == s) == (side == 1)
						evaluated++
						dl := tour.DeltaInsertEdges(d, int32(p), int32(s), int32(e), int32(q), int32(u), int32(v), rev)
						if dl >= 0 {
							continue
						}
						a.OrOpt(i, l, u, rev)
						delta += dl
						for _, y := range [...]int{p, q, s, e, u, v} {
							push(y)
						}
						return true
					}
				}
			}
		}
		return false
	}
	// Don't-look bits miss moves next to cities that changed while asleep:
	// whole passes repeat until one finds nothing (as tour.TwoOpt does).
	for improved := true; improved; {
		improved = false
		for _, c := range a.Tour {
			push(c)
		}
		for pops := 1; q.Len() > 0; pops++ {
			if stop != nil && pops%1024 == 0 && stop() {
				return delta, evaluated
			}
			c := int(q.Pop())
			if improve(c) {
				improved = true
			}
		}
	}
	return delta, evaluated
}
