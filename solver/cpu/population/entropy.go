package population

import "math"

// edgeFreq counts the edges of a population, each at both its ends, and
// judges EAX children by Nagata and Kobayashi's entropy-preserving
// selection: among the children shorter than their parent, those that
// keep the population's edge entropy come first, by gain; the others by
// gain per entropy lost. A population judged so keeps rare edges longer
// than one that takes the largest gain, and converges later.
type edgeFreq struct {
	pop float64
	at  [][]edgeCount
}

type edgeCount struct{ to, n int32 }

// newEdgeFreq counts the edges of tours, of n cities each.
func newEdgeFreq(n int, tours [][]int32) *edgeFreq {
	f := &edgeFreq{pop: float64(len(tours)), at: make([][]edgeCount, n)}
	for _, t := range tours {
		for i, c := range t {
			f.bump(c, t[(i+1)%len(t)], 1)
		}
	}
	return f
}

// count returns how many tours have the edge x-y.
func (f *edgeFreq) count(x, y int32) int32 {
	for _, e := range f.at[x] {
		if e.to == y {
			return e.n
		}
	}
	return 0
}

// bump adds d to the count of the edge x-y.
func (f *edgeFreq) bump(x, y, d int32) {
	for _, p := range [2][2]int32{{x, y}, {y, x}} {
		s := f.at[p[0]]
		i := 0
		for i < len(s) && s[i].to != p[1] {
			i++
		}
		if i == len(s) {
			s = append(s, edgeCount{to: p[1]})
		}
		s[i].n += d
		if s[i].n <= 0 {
			s[i] = s[len(s)-1]
			s = s[:len(s)-1]
		}
		f.at[p[0]] = s
	}
}

// change applies a child's change to the counts.
func (f *edgeFreq) change(gone, come [][2]int32) {
	for _, e := range gone {
		f.bump(e[0], e[1], -1)
	}
	for _, e := range come {
		f.bump(e[0], e[1], 1)
	}
}

// h is an edge's share of the entropy when c tours have it.
func (f *edgeFreq) h(c int32) float64 {
	if c <= 0 {
		return 0
	}
	p := float64(c) / f.pop
	return -p * math.Log(p)
}

// Score is the recomb.Judge: delta is negative.
func (f *edgeFreq) Score(delta int64, gone, come [][2]int32) float64 {
	var dh float64
	for _, e := range gone {
		c := f.count(e[0], e[1])
		dh += f.h(c-1) - f.h(c)
	}
	for _, e := range come {
		c := f.count(e[0], e[1])
		dh += f.h(c+1) - f.h(c)
	}
	if dh >= 0 {
		return float64(-delta) * 1e9
	}
	return float64(delta) / dh
}
