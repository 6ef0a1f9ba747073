package recomb

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/problem"
)

// eaxFor returns an EAX on 8 nearest candidates of in.
func eaxFor(in *problem.Instance) *EAX {
	nb := neighbor.Nearest(in, 8)
	return &EAX{NB: nb.List, K: nb.K, Fixed: in.FixedEdges}
}

// checkImproved asserts what Improve must give: a permutation of the
// reported exact length, no longer than a.
func checkImproved(t *testing.T, in *problem.Instance, a, out []int32, st EAXStats) {
	t.Helper()
	ci := make([]int, len(out))
	for i, c := range out {
		ci[i] = int(c)
	}
	if err := problem.ValidateTour(ci, in.N); err != nil {
		t.Fatalf("eax: %v", err)
	}
	if l := length(in, out); l != st.Length {
		t.Fatalf("eax: length %d, reported %d", l, st.Length)
	}
	if st.Length > length(in, a) {
		t.Fatalf("eax: %d longer than a's %d", st.Length, length(in, a))
	}
	if st.Taken == 0 && !slices.Equal(out, a) {
		t.Fatalf("eax: nothing taken, yet the tour changed")
	}
}

// TestABCycles checks that the AB-cycles split the edges where the tours
// differ: each such edge of a and of b in exactly one cycle, a's and b's
// alternating, and no shared edge in any.
func TestABCycles(t *testing.T) {
	in := instance(t, 400, 3)
	r := rand.New(rand.NewPCG(3, 3))
	e := eaxFor(in)
	for trial := range 20 {
		a, b := randomTour(in.N, r), randomTour(in.N, r)
		if trial%2 == 0 {
			b = slices.Clone(a)
			perturb(b, 10, r)
		}
		e.grow(in.N)
		e.setLinks(a, b)
		e.buildCycles(r)
		ea, eb := edgeSet(a), edgeSet(b)
		seen := map[[2]int32]int{}
		for i := range e.starts {
			c := e.cycle(i)
			if len(c) < 4 || len(c)%2 != 0 {
				t.Fatalf("trial %d: cycle of %d cities", trial, len(c))
			}
			for j := range c {
				k := key(c[j], c[(j+1)%len(c)])
				inA, inB := ea[k], eb[k]
				if j%2 == 0 && (!inA || inB) || j%2 == 1 && (!inB || inA) {
					t.Fatalf("trial %d: cycle %d edge %d (%v) in a %v, in b %v", trial, i, j, k, inA, inB)
				}
				seen[k]++
			}
		}
		for k := range ea {
			if !eb[k] && seen[k] != 1 {
				t.Fatalf("trial %d: a's edge %v in %d cycles", trial, k, seen[k])
			}
		}
		for k := range eb {
			if !ea[k] && seen[k] != 1 {
				t.Fatalf("trial %d: b's edge %v in %d cycles", trial, k, seen[k])
			}
		}
		// the walks leave no place behind: the next call starts clear
		for c, p := range e.pos {
			if p != [2]int32{-1, -1} {
				t.Fatalf("trial %d: city %d keeps places %v after the cycles", trial, c, p)
			}
		}
	}
}

// TestEAXGains: on alike 2-opt local optima the AB-cycles shorten the
// tour, and every tour is a valid one of its reported length.
func TestEAXGains(t *testing.T) {
	in := instance(t, 1000, 4)
	nb := neighbor.Nearest(in, 8)
	r := rand.New(rand.NewPCG(4, 4))
	e := eaxFor(in)
	out := make([]int32, in.N)
	var gained int64
	for trial := range 8 {
		a, b := randomTour(in.N, r), randomTour(in.N, r)
		twoOpt(in, a, nb)
		twoOpt(in, b, nb)
		la := length(in, a)
		st := e.Improve(in, a, b, la, uint64(trial), out)
		checkImproved(t, in, a, out, st)
		gained += la - st.Length
		t.Logf("%+v gain %d", st, la-st.Length)
		// identical tours have no cycles
		if st := e.Improve(in, a, slices.Clone(a), la, 1, out); st.Cycles != 0 || st.Length != la {
			t.Fatalf("identical tours: %+v", st)
		}
	}
	if gained == 0 {
		t.Error("no gain from the AB-cycles of 8 pairs of 2-opt optima")
	}
}

// TestEAXBestCycle: the child is the shortest of all the cycles'
// children, each found by trying it alone, for unrelated and for nearby
// 2-opt optima.
func TestEAXBestCycle(t *testing.T) {
	for _, n := range []int{200, 1000, 3000} {
		r := rand.New(rand.NewPCG(uint64(n), 7))
		for trial := range 12 {
			in, a, b := optimaPair(t, n, uint64(n+trial), n/20) // nearby, as a converged population's
			if trial%2 == 0 {
				// unrelated, as a new population's
				nb := neighbor.Nearest(in, 8)
				a, b = randomTour(in.N, r), randomTour(in.N, r)
				twoOpt(in, a, nb)
				twoOpt(in, b, nb)
			}
			e := eaxFor(in)
			la := length(in, a)
			st := e.Improve(in, a, b, la, uint64(trial), make([]int32, in.N))
			// every gaining cycle of the same walks, alone
			e.setLinks(a, b)
			e.buildCycles(rand.New(rand.NewPCG(uint64(trial), 0x656178)))
			best, tried := int64(0), 0
			for ci := range e.starts {
				if e.cycleGain(in, ci) <= 0 {
					continue
				}
				e.undo = e.undo[:0]
				delta, ok := e.apply(in, ci, nil)
				e.revert()
				tried++
				if ok && delta < best {
					best = delta
				}
			}
			if got := st.Length - la; got != best || st.Tried != tried {
				t.Fatalf("n %d, pair %d: child %+d after %d trials, trying each of %d cycles %+d", n, trial, got, st.Tried, tried, best)
			}
		}
	}
}

// TestEAXKeepsFixedEdges: the joins never remove a fixed edge, and
// parents with the fixed edges give a child with them.
func TestEAXKeepsFixedEdges(t *testing.T) {
	in := instance(t, 300, 6)
	for i := 0; i < 90; i += 3 {
		in.FixedEdges = append(in.FixedEdges, [2]int{i, i + 1})
	}
	r := rand.New(rand.NewPCG(6, 7))
	e := eaxFor(in)
	out := make([]int32, in.N)
	taken := 0
	for trial := range 20 {
		ps := [2][]int32{fixedRandomTour(in, r), fixedRandomTour(in, r)}
		st := e.Improve(in, ps[0], ps[1], length(in, ps[0]), uint64(trial), out)
		checkImproved(t, in, ps[0], out, st)
		taken += st.Taken
		ci := make([]int, len(out))
		for i, c := range out {
			ci[i] = int(c)
		}
		if err := in.CheckFixedEdges(ci); err != nil {
			t.Fatalf("trial %d: %v", trial, err)
		}
	}
	if taken == 0 {
		t.Error("no cycle taken in 20 pairs of random tours")
	}
}

// TestEAXDone: once Done reports true, Improve tries no more cycles and
// returns the first parent; Done turning true at any later call, between
// the joins of a trial too, leaves a child that is a tour of the length
// Improve reports, no longer than a.
func TestEAXDone(t *testing.T) {
	in := instance(t, 1000, 5)
	nb := neighbor.Nearest(in, 8)
	r := rand.New(rand.NewPCG(5, 5))
	a, b := randomTour(in.N, r), randomTour(in.N, r)
	twoOpt(in, a, nb)
	twoOpt(in, b, nb)
	la := length(in, a)
	out := make([]int32, in.N)
	e := eaxFor(in)
	all := 0
	e.Done = func() bool { all++; return false }
	if st := e.Improve(in, a, b, la, 1, out); st.Taken == 0 || all < 3 {
		t.Fatalf("want a trial with joins and a cycle taken between two 2-opt optima: %+v, %d calls of Done", st, all)
	}
	for k := range all {
		calls := 0
		e.Done = func() bool { calls++; return calls > k }
		st := e.Improve(in, a, b, la, 1, out)
		if k == 0 && (st.Tried != 0 || st.Taken != 0 || st.Length != la || !slices.Equal(out, a) || calls != 1) {
			t.Errorf("done from the start: %+v, %d calls of Done, child equal to a: %v", st, calls, slices.Equal(out, a))
		}
		checkImproved(t, in, a, out, st)
	}
}

// BenchmarkEAX50k: one child of two 2-opt optima of 50,000 cities that
// differ in a few hundred places, as an EAX population's members do.
func BenchmarkEAX50k(b *testing.B) {
	in, p, q := optimaPair(b, 50000, 11, 2000)
	lp := length(in, p)
	e := eaxFor(in)
	out := make([]int32, in.N)
	var st EAXStats
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st = e.Improve(in, p, q, lp, uint64(i), out)
	}
	b.ReportMetric(float64(st.Tried), "tried")
	b.ReportMetric(float64(lp-st.Length), "gain")
}

// TestEAXSubtours: for every AB-cycle of random tour pairs (whose cycles
// pass cities twice), the subtours label finds from the pieces of the
// first tour match those found by walking every city, and so do the
// cities comp assigns to each.
func TestEAXSubtours(t *testing.T) {
	for _, n := range []int{8, 9, 20, 60, 200} {
		in := instance(t, n, uint64(n))
		r := rand.New(rand.NewPCG(uint64(n), 9))
		e := eaxFor(in)
		e.grow(n)
		checked := 0
		for trial := range 30 {
			a, b := randomTour(n, r), randomTour(n, r)
			e.setLinks(a, b)
			e.buildCycles(rand.New(rand.NewPCG(uint64(trial), 1)))
			for ci := range e.starts {
				c := e.cycle(ci)
				e.undo = e.undo[:0]
				e.exchange(in, c)
				got := e.label(c)
				// walk the links from each city not yet seen: each walk is
				// one subtour, with the size, the cities and the pieces
				// label gives it
				check := func(stage string, want int) {
					seen := make([]bool, n)
					walks := 0
					for v := range n {
						if seen[v] {
							continue
						}
						walks++
						id := e.comp(int32(v))
						var walked []int32
						prev, cur := int32(-1), int32(v)
						for {
							seen[cur] = true
							walked = append(walked, cur)
							if e.comp(cur) != id {
								t.Fatalf("n %d, %s: cities %d and %d share a subtour, comp says %d and %d", n, stage, v, cur, id, e.comp(cur))
							}
							nx := e.link[cur][0]
							if nx == prev {
								nx = e.link[cur][1]
							}
							prev, cur = cur, nx
							if cur == int32(v) {
								break
							}
						}
						if e.subSize[id] != len(walked) {
							t.Fatalf("n %d, %s, cycle of %d: subtour %d has %d cities, label says %d", n, stage, len(c), id, len(walked), e.subSize[id])
						}
						pieces := e.piecesOf(nil, id)
						slices.Sort(pieces)
						slices.Sort(walked)
						if !slices.Equal(pieces, walked) {
							t.Fatalf("n %d, %s: subtour %d's pieces hold %v, its walk %v", n, stage, id, pieces, walked)
						}
					}
					if want != walks {
						t.Fatalf("n %d, %s, cycle of %d: label finds %d subtours, walking %d", n, stage, len(c), want, walks)
					}
				}
				check("labelled", got)
				for left := got; left > 1; left-- {
					if _, ok := e.join(in, nil); !ok {
						break
					}
					check("joined", left-1)
				}
				e.revert()
				checked++
			}
		}
		if checked == 0 {
			t.Fatalf("n %d: no cycles", n)
		}
	}
}
