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
// (the order of the clusters), their insides unchanged. The pieces'
// searches never see that order: a piece holds a few dozen clusters, and
// its kicks reach a few clusters along the tour.

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
	clusterMaxGap    = int64(envF("CL_MAXGAP", 32))
	clusterK         = int(envF("CL_K", 8))
	clusterSeg       = int(envF("CL_SEG", 30))
	clusterPar       = envF("CL_PAR", 1) > 0
)

// clusterSub is the contracted tour of a cluster pass: its cities are
// the runs' ends in tour order; end j is city of[j], the first city of
// its run when first[j] (else the last), and the run starts at tour
// position from[j] and holds size[j] cities. Its instance's distances
// are d, its candidate lists nb with their distances nbd, and edges the
// fixed edges between the two ends of each run.
type clusterSub struct {
	of, from, size []int32
	first          []bool
	edges          [][2]int
	d              *tour.Dist
	nb             *neighbor.Lists
	nbd            []int32
}

// clusterDue tells whether this round ends with a cluster pass: on a
// clustered instance, at the rounds the last pass's outcome set
// (clusterSchedule).
func (pr *partRun) clusterDue() bool { return pr.clustered && pr.round >= pr.clusterNext }

// clusterSchedule sets the round of the next cluster pass: two rounds on
// after a pass that gained, else twice the last gap, at most
// clusterMaxGap (a pass that found the clusters' order as good as its
// search gets it mostly finds nothing the rounds after).
func (pr *partRun) clusterSchedule(gained bool) {
	if gained || pr.clusterGap == 0 {
		pr.clusterGap = 2
	} else {
		pr.clusterGap = min(2*pr.clusterGap, clusterMaxGap)
	}
	pr.clusterNext = pr.round + pr.clusterGap
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
		if pr.longEdge(pr.t[i], pr.t[(i+1)%n]) {
			cuts = append(cuts, int32(i))
		}
	}
	if len(cuts) < 4 {
		return nil
	}
	cs := &clusterSub{}
	for q, c := range cuts {
		from := (c + 1) % int32(n)
		next := cuts[(q+1)%len(cuts)]
		size := next - c
		if size <= 0 {
			size += int32(n)
		}
		cs.add(pr.t[from], from, size, true)
		if size > 1 {
			j := len(cs.of)
			cs.edges = append(cs.edges, [2]int{j - 1, j})
			cs.add(pr.t[next], from, size, false)
		}
	}
	if len(cs.of) < 8 {
		return nil
	}
	return cs
}

// add appends the end city ct of the run of size cities from position
// from, its first city when first.
func (cs *clusterSub) add(ct, from, size int32, first bool) {
	cs.of = append(cs.of, ct)
	cs.from = append(cs.from, from)
	cs.size = append(cs.size, size)
	cs.first = append(cs.first, first)
}

// prepare builds the contracted instance's distances and candidate
// lists (quadrant lists: the ends' nearest are mostly their own run's).
func (cs *clusterSub) prepare(pr *partRun) {
	in := pr.r.in
	m := len(cs.of)
	x, y := make([]float64, m), make([]float64, m)
	for j, ct := range cs.of {
		x[j], y[j] = in.X[ct], in.Y[ct]
	}
	sub := in.WithCoords(in.Name, x, y, nil)
	cs.d = tour.LazyDist(sub)
	cs.nb = neighbor.Quadrant(sub, min(clusterK, m-1))
	cs.nbd = nbDists(cs.d, cs.nb.List, m, cs.nb.K, nil)
}

// clusterPass runs the cluster pass, one search per worker from the
// contracted tour (each its own random stream), keeps the best and
// returns the change of length (never positive).
func (pr *partRun) clusterPass() int64 {
	tstart := time.Now()
	cs := pr.contract()
	if cs == nil {
		pr.clusterSchedule(false)
		return 0
	}
	cs.prepare(pr)
	w := pr.r.w
	if !clusterPar {
		w = 1
	}
	res := make([]*ls, w)
	pr.pool(w, func(wk, _ int) { res[wk] = pr.searchContracted(cs, wk) })
	best := res[0]
	for _, s := range res[1:] {
		if s.length < best.length {
			best = s
		}
	}
	delta := best.length - cs.d.Length(ident(len(cs.of)))
	pr.clusterSchedule(delta < 0)
	if os.Getenv("CL_DEBUG") != "" {
		println("cluster pass round", pr.round, "ends", len(cs.of), "delta", delta, "secs", time.Since(tstart).Seconds(), "next", pr.clusterNext)
	}
	if delta >= 0 {
		return 0
	}
	pr.expand(cs, best.tour)
	pr.length += delta
	return delta
}

// ident is the tour 0, 1, …, m-1.
func ident(m int) []int32 {
	t := make([]int32, m)
	for j := range t {
		t[j] = int32(j)
	}
	return t
}

// searchContracted runs worker wk's iterated local search on the
// contracted tour cs from its order in the tour: a descent, then
// clusterKicks kicks per city, and returns it.
func (pr *partRun) searchContracted(cs *clusterSub, wk int) *ls {
	r, c := pr.r, pr.r.c
	m := len(cs.of)
	s := newLS(cs.d, cs.nb.List, cs.nb.K, ident(m))
	s.nbd = cs.nbd
	mv := pr.moves(0, 0)
	mv.k5 = nil
	s.setMoves(mv)
	s.setFixed(cs.edges)
	s.r = newRNG(r.p.Seed, uint64(pr.round)<<8^uint64(wk)^1<<43)
	base := s.moves
	stop := func() bool {
		c.moves[wk].v.Add(s.moves - base)
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
	c.moves[wk].v.Add(s.moves - base)
	return s
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
		if cs.from[a] != cs.from[b] || cs.first[a] == cs.first[b] {
			break
		}
	}
	at := 0
	for i := 0; i < m; i++ {
		j := order[(q+i)%m]
		from, size := int(cs.from[j]), int(cs.size[j])
		for k := range size {
			if cs.first[j] {
				pr.t[at] = old[(from+k)%n]
			} else {
				pr.t[at] = old[(from+size-1-k)%n]
			}
			at++
		}
		if size > 1 {
			i++ // the run's other end, next in the contracted tour
		}
	}
}
