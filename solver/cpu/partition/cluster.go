package partition

import (
	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver/cpu/localsearch"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// The cluster pass of the partition search on clustered instances: the
// tour is cut at its long edges (those between clusters) into runs, each
// run contracted to its end cities, its inside a fixed edge between them,
// and an iterated local search on the contracted tour reorders and turns
// the runs (the order of the clusters), their insides unchanged. The
// pieces' searches hardly change that order: a piece holds a few dozen
// clusters, and its kicks reach a few clusters along the tour.

// Cluster pass settings (docs/DECISIONS.md#cluster-pass).
const (
	// clusterEdgeRatio: a tour edge longer than this many times either
	// end's nearest candidate lies between clusters (3 and 6 were no
	// better on C100k.1, 2 cut ten times as many runs and was behind).
	clusterEdgeRatio = 4
	// clusterEnds is the cities kept at each end of a run, its inside
	// contracted to a fixed edge (2, 3 and 5 took more time for no
	// gain: the pieces' searches move the ends).
	clusterEnds = 1
	// clusterKicks is the kicks per contracted city of each worker's
	// search: the clusters' order settles within a few, and a pass
	// takes a small part of a round (10 was behind on 16 cores).
	clusterKicks = 40
	// clusterMaxGap bounds the rounds between passes.
	clusterMaxGap = 32
	// clusterK is the contracted tour's quadrant candidates per city,
	// clusterSeg the longest segment of its kicks.
	clusterK   = 8
	clusterSeg = 30
)

// clusterSub is the contracted tour of a cluster pass: the cities at
// the ends of the runs in tour order, city j being the instance's of[j]
// at tour position pos[j]; inner[j] is the city at the other end of the
// run's contracted inside from j (-1: none), which the fixed edge
// (j, inner[j]) stands for, and it lies ahead of j in the tour when
// ahead[j]. Its instance's distances are d, its candidate lists nb with
// their distances nbd.
type clusterSub struct {
	of, pos, inner []int32
	ahead          []bool
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
	if pr.fixedEdge(a, b) {
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

// contract cuts the tour at its long edges into runs and returns the
// contracted tour: each run's clusterEnds cities at either end, its
// inside (when any) a fixed edge; nil where fewer than 8 cities result.
func (pr *partRun) contract() *clusterSub {
	n := len(pr.t)
	var cuts []int // positions i whose edge to i+1 is long
	for i := range n {
		if pr.longEdge(pr.t[i], pr.t[(i+1)%n]) {
			cuts = append(cuts, i)
		}
	}
	if len(cuts) < 4 {
		return nil
	}
	cs := &clusterSub{}
	c := clusterEnds
	for q, cut := range cuts {
		size := cuts[(q+1)%len(cuts)] - cut
		if size <= 0 {
			size += n
		}
		from := cut + 1
		if size <= 2*c {
			for k := range size {
				cs.add(pr, (from+k)%n, -1, false)
			}
			continue
		}
		for k := range c - 1 {
			cs.add(pr, (from+k)%n, -1, false)
		}
		j := int32(len(cs.of))
		cs.edges = append(cs.edges, [2]int{int(j), int(j) + 1})
		cs.add(pr, (from+c-1)%n, j+1, true)
		cs.add(pr, (from+size-c)%n, j, false)
		for k := size - c + 1; k < size; k++ {
			cs.add(pr, (from+k)%n, -1, false)
		}
	}
	if len(cs.of) < 8 {
		return nil
	}
	cs.fixEnds(pr)
	return cs
}

// fixEnds adds the instance's fixed edges between consecutive cities of
// the contracted tour to its fixed edges.
func (cs *clusterSub) fixEnds(pr *partRun) {
	if pr.fixed == nil {
		return
	}
	m := len(cs.of)
	for j, a := range cs.of {
		k := (j + 1) % m
		b := cs.of[k]
		if cs.inner[j] != int32(k) && pr.fixedEdge(a, b) {
			cs.edges = append(cs.edges, [2]int{j, k})
		}
	}
}

// add appends the city at tour position at, its inside partner inner
// ahead of it or not.
func (cs *clusterSub) add(pr *partRun, at int, inner int32, ahead bool) {
	cs.of = append(cs.of, pr.t[at])
	cs.pos = append(cs.pos, int32(at))
	cs.inner = append(cs.inner, inner)
	cs.ahead = append(cs.ahead, ahead)
}

// prepare builds the contracted instance's distances and candidate
// lists (quadrant lists: the ends' nearest are mostly their own run's).
func (cs *clusterSub) prepare(pr *partRun) {
	in := pr.env.In
	m := len(cs.of)
	x, y := make([]float64, m), make([]float64, m)
	for j, ct := range cs.of {
		x[j], y[j] = in.X[ct], in.Y[ct]
	}
	sub := in.WithCoords(in.Name, x, y, nil)
	cs.d = tour.LazyDist(sub)
	cs.nb = neighbor.Quadrant(sub, min(clusterK, m-1))
	cs.nbd = localsearch.NeighborDists(cs.d, cs.nb.List, m, cs.nb.K, nil)
}

// clusterPass runs the cluster pass, one search per worker from the
// contracted tour (each its own random stream), keeps the best and
// returns the change of length (never positive).
func (pr *partRun) clusterPass() int64 {
	cs := pr.contract()
	if cs == nil {
		pr.clusterSchedule(false)
		return 0
	}
	cs.prepare(pr)
	w := pr.env.Workers
	res := make([]*ls, w)
	pr.pool(w, func(wk, _ int) { res[wk] = pr.searchContracted(cs, wk) })
	best := res[0]
	for _, s := range res[1:] {
		if s.Length() < best.Length() {
			best = s
		}
	}
	delta := best.Length() - cs.d.Length(ident(len(cs.of)))
	pr.clusterSchedule(delta < 0)
	if delta >= 0 {
		return 0
	}
	pr.expand(cs, best.Tour())
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
	r, c := pr.env, pr.env.Control
	m := len(cs.of)
	s := localsearch.New(cs.d, cs.nb.List, cs.nb.K, ident(m))
	s.SetNeighbors(cs.nb.List, cs.nb.K, cs.nbd)
	mv := pr.moves(0, 0)
	mv.FiveOpt = nil
	s.SetMoves(mv)
	s.SetFixed(cs.edges)
	s.SetRand(newRNG(r.Seed, uint64(pr.round)<<8^uint64(wk)^runctl.StreamCluster))
	base := s.Evaluated()
	stop := func() bool {
		c.Moves[wk].V.Add(s.Evaluated() - base)
		base = s.Evaluated()
		return c.Done()
	}
	s.PushAll()
	if s.Optimize(stop) {
		s.SetJournal(true)
		kicks := int(clusterKicks * float64(m))
		for kk := 0; kk < kicks; kk++ {
			if kk%runctl.KicksPerCheck == 0 && stop() {
				break
			}
			if _, ok := s.TryKick(clusterSeg, r.Opts.AcceptEqual, stop); !ok {
				break
			}
		}
	}
	s.ClearQueue()
	c.Moves[wk].V.Add(s.Evaluated() - base)
	return s
}

// expand writes the tour of the contracted cities in order into pr.t,
// each fixed edge replaced by the run's inside it stands for.
func (pr *partRun) expand(cs *clusterSub, order []int32) {
	n, m := len(pr.t), len(order)
	old := append([]int32(nil), pr.t...)
	at := 0
	for i, j := range order {
		pr.t[at] = cs.of[j]
		at++
		if cs.inner[j] != order[(i+1)%m] {
			continue
		}
		step := -1
		if cs.ahead[j] {
			step = 1
		}
		for p := int(cs.pos[j]) + step; ; p += step {
			p = (p + n) % n
			if p == int(cs.pos[cs.inner[j]]) {
				break
			}
			pr.t[at] = old[p]
			at++
		}
	}
}
