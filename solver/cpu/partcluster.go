package cpu

import (
	"os"
	"strconv"
	"time"

	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// The cluster pass of the partition search on clustered instances: the
// tour is cut at its long edges (those between clusters) into runs, each
// run contracted to its two end cities joined by a fixed edge, and an
// iterated local search on those ends alone reorders and turns the runs
// (the order of the clusters), their insides unchanged.

// trial knobs (env), removed before commit
func envF(name string, def float64) float64 {
	if v, err := strconv.ParseFloat(os.Getenv(name), 64); err == nil {
		return v
	}
	return def
}

var (
	clusterEdgeRatio = envF("CL_RATIO", 4)
	clusterKicks     = envF("CL_KICKS", 50)
	clusterEvery     = int64(envF("CL_EVERY", 2))
	clusterK         = int(envF("CL_K", 8))
	clusterSeg       = int(envF("CL_SEG", 30))
)

// clusterSub is the contracted tour of a cluster pass: its cities are
// the runs' ends in tour order; end j is city of[j], the first city of
// its run when first[j] (else the last), and the run starts at tour
// position from[j] and holds size[j] cities.
type clusterSub struct {
	of, from, size []int32
	first          []bool
	edges          [][2]int
}

// longEdge reports whether the tour edge (a, b) lies between clusters:
// longer than clusterEdgeRatio times either end's nearest candidate, and
// not fixed.
func (pr *partRun) longEdge(a, b int32) bool {
	if pr.fixed != nil && (pr.fixed[2*a] == b || pr.fixed[2*a+1] == b) {
		return false
	}
	k := pr.nb[0].K
	nn := func(c int32) int64 {
		if g := pr.gnbd[0]; g != nil {
			return int64(g[int(c)*k])
		}
		return pr.d.At(c, pr.nb[0].List[int(c)*k])
	}
	return float64(pr.d.At(a, b)) > clusterEdgeRatio*float64(max(nn(a), nn(b)))
}

// contract cuts the tour at its long edges into runs and returns their
// ends; nil where fewer than 8 ends result.
func (pr *partRun) contract() *clusterSub {
	n := len(pr.t)
	var cuts []int32 // positions i whose edge to i+1 is long
	for i := range n {
		j := i + 1
		if j == n {
			j = 0
		}
		if pr.longEdge(pr.t[i], pr.t[j]) {
			cuts = append(cuts, int32(i))
		}
	}
	if len(cuts) < 4 {
		return nil
	}
	cs := &clusterSub{}
	for q, c := range cuts {
		from := c + 1
		if int(from) == n {
			from = 0
		}
		next := cuts[(q+1)%len(cuts)]
		size := next - c
		if size <= 0 {
			size += int32(n)
		}
		cs.of = append(cs.of, pr.t[from])
		cs.from, cs.size, cs.first = append(cs.from, from), append(cs.size, size), append(cs.first, true)
		if size > 1 {
			j := len(cs.of)
			cs.edges = append(cs.edges, [2]int{j - 1, j})
			cs.of = append(cs.of, pr.t[next])
			cs.from, cs.size, cs.first = append(cs.from, from), append(cs.size, size), append(cs.first, false)
		}
	}
	if len(cs.of) < 8 {
		return nil
	}
	return cs
}

// clusterPass runs the cluster pass and returns the change of length
// (never positive).
func (pr *partRun) clusterPass() int64 {
	r, c := pr.r, pr.r.c
	tstart := time.Now()
	cs := pr.contract()
	if cs == nil {
		return 0
	}
	m := len(cs.of)
	x, y := make([]float64, m), make([]float64, m)
	for j, ct := range cs.of {
		x[j], y[j] = r.in.X[ct], r.in.Y[ct]
	}
	sub := r.in.WithCoords(r.in.Name, x, y, nil)
	d := tour.LazyDist(sub)
	nb := neighbor.Quadrant(sub, min(clusterK, m-1))
	id := make([]int32, m)
	for j := range id {
		id[j] = int32(j)
	}
	s := newLS(d, nb.List, nb.K, id)
	s.nbd = nbDists(d, nb.List, m, nb.K, nil)
	s.setMoves(pr.moves(len(pr.k5)-1, 0))
	s.setFixed(cs.edges)
	s.r = newRNG(r.p.Seed, uint64(pr.round)<<8^1<<43)
	length0 := s.length
	base := s.moves
	stop := func() bool {
		c.moves[0].v.Add(s.moves - base)
		base = s.moves
		return c.done()
	}
	s.pushAll()
	if s.optimize(stop) {
		s.record = true
		kicks := int(clusterKicks * float64(m))
		for kk := 0; kk < kicks; kk++ {
			if kk%kicksPerCheck == 0 && stop() {
				break
			}
			if _, ok := s.tryKick(clusterSeg, r.o.cfg.acceptEqual, stop); !ok {
				break
			}
		}
	}
	for s.q.Len() > 0 {
		s.pop()
	}
	c.moves[0].v.Add(s.moves - base)
	delta := s.length - length0
	if os.Getenv("CL_DEBUG") != "" {
		println("cluster pass round", pr.round, "ends", m, "runs", len(cs.of)-len(cs.edges), "delta", delta, "secs", time.Since(tstart).Seconds(), "len", pr.length+min(delta, 0))
	}
	if delta < 0 {
		pr.expand(cs, s.tour)
		pr.length += delta
	}
	return min(delta, 0)
}

// expand writes the tour of runs given by order (the contracted tour's
// cities) into pr.t, each run's inside as it was.
func (pr *partRun) expand(cs *clusterSub, order []int32) {
	n, m := len(pr.t), len(order)
	old := append([]int32(nil), pr.t...)
	// start where the contracted tour enters a run: not between the two
	// ends of one run
	q := 0
	for ; q < m; q++ {
		a, b := order[(q+m-1)%m], order[q]
		if !(cs.from[a] == cs.from[b] && cs.first[a] != cs.first[b]) {
			break
		}
	}
	at := 0
	for i := 0; i < m; i++ {
		j := order[(q+i)%m]
		from, size := int(cs.from[j]), int(cs.size[j])
		if cs.first[j] {
			for k := range size {
				pr.t[at] = old[(from+k)%n]
				at++
			}
		} else {
			for k := range size {
				pr.t[at] = old[(from+size-1-k)%n]
				at++
			}
		}
		if size > 1 {
			i++ // the run's other end, next in the contracted tour
		}
	}
}
