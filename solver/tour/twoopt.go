package tour

import (
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// TwoOpt improves a in place to a 2-opt local optimum by first
// improvement over the candidate lists nb with don't-look bits (Bentley
// 1992; Johnson & McGeoch 1997 section 3.3), trying for each tour edge
// (x, y) the candidates c with d(x, c) < d(x, y); it returns the total
// delta (≤ 0) and the moves evaluated.
func TwoOpt(in *solver.Instance, a *Array, nb *neighbor.Lists) (delta, evaluated int64) {
	return TwoOptUntil(in, a, nb, nil)
}

// stopEvery is how many queue pops the descents make between two looks at
// their stop function: milliseconds on a million cities, and no cost.
const stopEvery = 1024

// TwoOptUntil is TwoOpt that also ends, with a valid tour and the exact
// delta of the moves made so far, once stop (nil: never) reports true; it
// looks every stopEvery cities.
func TwoOptUntil(in *solver.Instance, a *Array, nb *neighbor.Lists, stop func() bool) (delta, evaluated int64) {
	n := a.Len()
	if n < 4 || nb == nil || nb.K == 0 {
		return 0, 0
	}
	dist := LazyDist(in)
	q := NewQueue(n)
	// Don't-look bits miss moves next to cities that changed while
	// asleep: whole passes repeat until one finds nothing.
	for improved := true; improved; {
		improved = false
		for _, c := range a.Tour {
			q.Push(int32(c))
		}
		for pops := 1; q.Len() > 0; pops++ {
			if stop != nil && pops%stopEvery == 0 && stop() {
				return delta, evaluated
			}
			g, ev := twoOptCity(a, dist, nb, &q, int(q.Pop()))
			evaluated += ev
			if g < 0 {
				delta += g
				improved = true
			}
		}
	}
	return delta, evaluated
}

// twoOptCity applies the first improving 2-opt move that adds an edge
// from x to one of its candidates nearer than a tour neighbour, queueing
// the four cities it touches; it returns the move's delta (0: none) and
// the moves evaluated.
func twoOptCity(a *Array, dist *Dist, nb *neighbor.Lists, q *Queue, x int) (delta, evaluated int64) {
	for _, succ := range [2]bool{true, false} {
		var y int
		if succ {
			y = a.Next(x)
		} else {
			y = a.Prev(x)
		}
		dxy := dist.At(int32(x), int32(y))
		for _, c32 := range nb.Of(x) {
			c := int(c32)
			dxc := dist.At(int32(x), c32)
			if dxc >= dxy {
				break
			}
			var d int
			if succ {
				d = a.Next(c)
			} else {
				d = a.Prev(c)
			}
			if c == y || d == x {
				continue
			}
			evaluated++
			// Remove (x, y) and (c, d), add (x, c) and (y, d).
			g := dxc + dist.At(int32(y), int32(d)) - dxy - dist.At(c32, int32(d))
			if g >= 0 {
				continue
			}
			if succ {
				a.Apply2Opt(a.Pos[x], a.Pos[c])
			} else {
				a.Apply2Opt(a.Pos[y], a.Pos[d])
			}
			for _, v := range [4]int{x, y, c, d} {
				q.Push(int32(v))
			}
			return g, evaluated
		}
	}
	return 0, evaluated
}
