package tour

import (
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// OrOpt improves a in place by first-improvement Or-opt over the candidate
// lists nb with don't-look bits (Johnson & McGeoch 1997, section 3.3): the
// segments of 1–3 cities from a queued city go next to a candidate of
// either end; it returns the total delta (≤ 0) and the moves evaluated.
func OrOpt(in *solver.Instance, a *Array, nb *neighbor.Lists) (delta, evaluated int64) {
	return OrOptUntil(in, a, nb, nil)
}

// OrOptUntil is OrOpt that also ends, with a valid tour and the exact
// delta of the moves made so far, once stop (nil: never) reports true; it
// looks every stopEvery cities.
func OrOptUntil(in *solver.Instance, a *Array, nb *neighbor.Lists, stop func() bool) (delta, evaluated int64) {
	n := a.Len()
	if n < 8 || nb == nil || nb.K == 0 {
		return 0, 0
	}
	o := orDescent{a: a, nb: nb, d: LazyDist(in), q: NewQueue(n)}
	// Whole passes repeat until one finds nothing, as in TwoOpt.
	for improved := true; improved; {
		improved = false
		for _, c := range a.Tour {
			o.q.Push(int32(c))
		}
		for pops := 1; o.q.Len() > 0; pops++ {
			if stop != nil && pops%stopEvery == 0 && stop() {
				return o.delta, o.evaluated
			}
			if o.improve(int(o.q.Pop())) {
				improved = true
			}
		}
	}
	return o.delta, o.evaluated
}

// orDescent is one Or-opt descent's state.
type orDescent struct {
	a                *Array
	nb               *neighbor.Lists
	d                *Dist
	q                Queue
	delta, evaluated int64
}

func (o *orDescent) at(x, y int) int64 { return o.d.At(int32(x), int32(y)) }

// improve tries the segments that start at c; it applies the first
// improving move and reports whether it did.
func (o *orDescent) improve(c int) bool {
	a := o.a
	for l := 1; l <= 3; l++ {
		i := a.Pos[c]
		s, e := c, a.At(i+l-1)
		p, q := a.At(i-1), a.At(i+l)
		g := o.at(p, s) + o.at(e, q) - o.at(p, q) // what removing the segment saves
		if g <= 0 {
			continue
		}
		if o.insert(i, l, s, s, e, p, q, g) || o.insert(i, l, e, s, e, p, q, g) {
			return true
		}
	}
	return false
}

// inSeg reports whether city x lies in the l cities from position i.
func (o *orDescent) inSeg(x, i, l int) bool {
	off := o.a.Pos[x] - i
	if off < 0 {
		off += o.a.Len()
	}
	return off < l
}

// insert tries to put the segment s..e (l cities from position i, between
// p and q; removing it saves g) next to a candidate x of its end z, on
// either of x's tour edges; it applies the first improving move.
func (o *orDescent) insert(i, l, z, s, e, p, q int, g int64) bool {
	a := o.a
	for _, x32 := range o.nb.Of(z) {
		x := int(x32)
		if o.at(z, x) >= g {
			break
		}
		if o.inSeg(x, i, l) {
			continue
		}
		for side := 0; side < 2; side++ {
			// the edge (u, v) = (x, next x) or (prev x, x)
			u, v := x, a.Next(x)
			if side == 1 {
				u, v = a.Prev(x), x
			}
			if u == p || o.inSeg(u, i, l) || o.inSeg(v, i, l) {
				continue
			}
			// s next to u (forward) or e next to u (reversed)
			rev := l > 1 && (z == s) == (side == 1)
			o.evaluated++
			dl := DeltaInsertEdges(o.d, int32(p), int32(s), int32(e), int32(q), int32(u), int32(v), rev)
			if dl >= 0 {
				continue
			}
			a.OrOpt(i, l, u, rev)
			o.delta += dl
			for _, y := range [...]int{p, q, s, e, u, v} {
				o.q.Push(int32(y))
			}
			return true
		}
	}
	return false
}
