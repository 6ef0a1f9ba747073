// Package partition is the partition search of the CPU iterated local
// search: all workers improve one tour at once, each on a piece of it.
package partition

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/localsearch"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// The partition search improves one tour with all workers at once: each
// round cuts the tour at a shifting offset into segments (paths with fixed
// ends) or, on region rounds, the plane into cells (region.go); each
// worker runs the iterated local search on its piece as a sub-instance and
// writes it back where it is shorter, and a descent over the cities next to
// other pieces follows. With fewer than partOneEach cities a worker, each
// piece is searched by several workers and the best result kept. The auto
// engine runs it from strategy.PartitionMinN cities with coordinates.

// Partition search settings (docs/DECISIONS.md#partition-layout).
const (
	// partSegment is the segment size aimed at: segments are as many as
	// the workers (or a multiple) when they hold about this many cities
	// each, else one per worker (partOneEach) or fewer, each searched by
	// several workers.
	partSegment = 5000
	// partLKSegment is partSegment where chained LK searches the pieces:
	// larger pieces gained more on two workers from 85,900 to a million
	// cities (docs/DECISIONS.md#solo-lk)
	partLKSegment = 20000
	// partOneEach is the smallest segment of the layout of one segment
	// per worker: from partOneEach to partSegment cities a worker, the
	// tour is cut into as many segments as workers, each searched by one
	// (time slices ending together), rather than into fewer, larger
	// segments each searched by several workers, the best search kept
	// and the others' work lost: ahead on d18512
	// (docs/DECISIONS.md#partition-layout).
	partOneEach = 1000
	// partMinSegment is the smallest segment worth a sub-instance.
	partMinSegment = 64
	// partMinTask is the shortest time slice of one segment's search
	// when the workers take the segments in turn (a million cities: 200
	// segments for 16 workers); up to partLongTaskMaxN cities
	// partLongTask, as there the single-core descent between the pieces
	// and the regions' merge take a smaller share of longer rounds
	// (docs/DECISIONS.md#partition-layout).
	partMinTask      = 50 * time.Millisecond
	partLongTask     = 100 * time.Millisecond
	partLongTaskMaxN = 2_000_000
	// partWideMaxN is the largest instance whose pieces take their
	// candidates from lists of twice the neighbours: at 10,000,000
	// cities those take seconds of a 2-core run and 640 MB.
	partWideMaxN = 2_000_000
)

// Env is what a partition search reads of the run it serves, handed to
// it when it starts: the instance, the settings, the plan's values, the
// run's control and kick counters, and the path improver beside it.
type Env struct {
	In      *solver.Instance
	Seed    uint64 // the run's seed, behind every random stream
	Workers int
	Opts    Options
	// Crowded: the run's plan found so many cities a worker that each
	// segment is prepared right before its search and no descent over the
	// whole tour follows a round (fused)
	Crowded bool
	// EarlyMinN is the size from which the search has its early phase
	// beside a path improver (besideEarly; DefaultEarlyMinN by default)
	EarlyMinN int
	Control   *runctl.Control
	KicksDone []runctl.Counter // the workers' kicks, shared with the run
	// Aid carries the path improver beside the workers (Paths, PathShare)
	Aid solver.Aid
}

// Options are the settings of the iterated local search a partition
// search runs on its pieces, and of the pieces themselves.
type Options struct {
	Kicks int // kicks per worker of the run (0: until the time limit)
	RKBI  int // >0: random-k-best-improvement pivoting among this many
	// the move set: Or-opt, the 3-opt chain of Depth steps after the
	// first, the pure 3-opt moves with it, and the deep move
	OrOpt, ThreeOpt, Or3 bool
	Depth                int
	Move                 Move
	MaxSeg               int  // kick segment length bound
	AcceptEqual          bool // accept a kick that ties
	Candidates           ListKind
	Seg                  int     // cities of a segment (0: Segment)
	KicksPerCity         float64 // kicks per city of a segment per round
	SliceMS              int     // milliseconds of a round's searches (0: by kicks)
	Shape                Shape
	// DeepPerCity is the kicks per city made with moves of depth 1 before
	// they take Depth's steps
	DeepPerCity float64
	// Solo: chained Lin–Kernighan over the whole tour in place of the
	// pieces (solo.go) or in each piece (solopiece.go), where soloMode
	// says so
	Solo SoloMode
}

// SoloMode says when one worker's partition search is chained
// Lin–Kernighan over the whole tour instead (solo.go).
type SoloMode int

const (
	// SoloAuto: from soloAutoMinN to soloAutoMaxN cities, unless the
	// instance is clustered, has fixed edges or is crowded, over the
	// whole tour on soloMaxWorkers without a path improver beside, else
	// in the pieces, also beside an improver
	// (docs/DECISIONS.md#solo-lk)
	SoloAuto SoloMode = iota
	SoloOff
	SoloLK // over the whole tour on any workers whatever the instance, unless it has fixed edges
	// SoloPieces: each piece searched once by chained LK (solopiece.go)
	SoloPieces
)

// soloAutoMinN and soloAutoMaxN bound the cities SoloAuto takes chained
// LK on: from where the auto engine's one worker runs the partition
// search (a partition search forced on fewer cities keeps its pieces),
// to twice the sizes measured (to 1,000,000 cities on one worker and on
// two, 2,000,000 at 60 and 120 s).
const (
	soloAutoMinN = 50_000
	soloAutoMaxN = 2_000_000
	// soloMaxWorkers: on more workers chained LK in the pieces gains
	// more (docs/DECISIONS.md#solo-lk)
	soloMaxWorkers = 1
)

// soloMode is how the search of env takes chained LK (Options.Solo), nb
// and nbOdd its nearest and quadrant lists: over the whole tour (SoloLK),
// in each piece (SoloPieces) or not at all (SoloOff).
func soloMode(env *Env, nb, nbOdd *neighbor.Lists, d *tour.Dist) SoloMode {
	switch env.Opts.Solo {
	case SoloLK:
		if len(env.In.FixedEdges) > 0 { // solo.go keeps no fixed edge of a whole tour
			return SoloOff
		}
		return SoloLK
	case SoloOff, SoloPieces:
		return env.Opts.Solo
	}
	// a clustered instance gains from the cluster pass of the pieces'
	// search (docs/DECISIONS.md#cluster-pass), and lost with chained LK
	if len(env.In.FixedEdges) > 0 || env.In.N < soloAutoMinN || env.In.N > soloAutoMaxN || env.Crowded || nbOdd == nb ||
		clustered(listSum(d, nb, nil), listSum(d, nbOdd, nil)) {
		return SoloOff
	}
	// the aid's improver takes stretches beside the workers unless it
	// takes none (firstShare; the instance is not clustered here)
	beside := env.Aid.Paths != nil && (env.Aid.PathShare > 0 || !besideSmall(env.In.N, false))
	if env.Workers <= soloMaxWorkers && !beside {
		return SoloLK
	}
	return SoloPieces
}

// The typed values of the settings the partition search tells apart.
type (
	// Move is the deep move after 2-opt and Or-opt.
	Move int8
	// ListKind is the kind of the run's candidate lists.
	ListKind int8
	// Shape is the partition search's pieces.
	Shape int8
)

const (
	MoveChain Move = iota // a chain of 2-opt steps (ThreeOpt, Depth)
	MoveLK5               // the sequential 5-opt move (localsearch/kopt.go)
	MoveAdapt             // by round, whichever gained more per second
)

const (
	ListNearest  ListKind = iota // the k nearest cities
	ListQuadrant                 // k/4 nearest per quadrant
	ListUnion                    // nearest and quadrant lists merged
	ListMixed                    // nearest on even workers, quadrant on odd ones
	ListAlpha                    // alpha-nearness of a Held–Karp ascent
)

const (
	ShapeAuto      Shape = iota // the one that gained more per second
	ShapePath                   // segments of consecutive positions
	ShapeRegion                 // cells of the plane
	ShapeAlternate              // the two by turns
)

// totalKicks sums the workers' kicks.
func (r *Env) totalKicks() int64 { return runctl.SumCounters(r.KicksDone) }

// frac is the fraction of the kick budget spent (0 without one).
func (r *Env) frac() float64 {
	if r.Opts.Kicks <= 0 {
		return 0
	}
	return float64(r.totalKicks()) / float64(int64(r.Opts.Kicks)*int64(r.Workers))
}

// partRun is the state of one partition search, split by concern: the
// tour and the round's pieces here, each other concern in a part of its
// own (embedded, so that its fields read as the run's).
type partRun struct {
	env    *Env
	ctx    context.Context    // ends with the run: at the deadline or a cancel
	nb     [2]*neighbor.Lists // the lists alternate between rounds
	t      []int32            // the tour: position → city
	length int64
	d      *tour.Dist // the whole tour's distances
	fixed  []int32    // fixed-edge partners of every city (two each, -1: none); nil without
	round  int64
	// clustered: the quadrant candidates lie far beyond the nearest
	// (neighbor.ClusteredRatio), and every piece takes them first under "mixed",
	// the descent between pieces every round (stitch)
	clustered bool

	partPieces
	partStitch
	pace stitchPace // the gains per second that pace the stitch
	partClusters
	partRegions
	partMoves
	partBeside
}

// partPieces is a round's pieces and their searches.
type partPieces struct {
	segOf  []int32 // city → its segment this round
	local  []int32 // city → its index in its segment
	border []bool  // city had a candidate in another segment this round
	p, rep int     // segments per round, searches per segment
	segs   []*partSeg
	wide   *neighbor.Lists // 2k nearest, for "global" segment lists
	ls     []*ls           // each worker's local search, reused
	// lkSeen is, where chained LK searches the pieces (SoloPieces), for
	// each city a piece's LK last searched its tour neighbours then
	// (lkPair), so that the next piece queues only the cities whose
	// neighbours changed since; nil where the local search does
	lkSeen []uint64
}

// partStitch is the descent over the cities between pieces (stitch).
type partStitch struct {
	global *ls // its local search over the whole tour
	// gnbd caches the global lists' candidate distances, one per kind of
	// nb (nil where they do not fit): the lists alternate between rounds,
	// their caches with them.
	gnbd [2][]int32
}

// partClusters schedules the cluster pass on a clustered instance
// (cluster.go): the round of the next one and the rounds from the
// last one.
type partClusters struct {
	clusterNext, clusterGap int64
}

// partRegions is the region rounds' state (region.go) and the choice
// between paths and regions.
type partRegions struct {
	// buffers: the cities' coordinates across and along the cut's
	// direction, the cities sorted by them; the tour's edges between
	// regions, each as its two cities in tour order, and the tour seen
	// from them
	ru, rv           []float64
	ridx, ridx2      []int32
	rhist            []int32
	crossed          []int32
	links            regionLinks
	rejected, merged int64     // regions' results dropped and kept
	rescued          int64     // of those kept, the ones joined again after they split the tour (rescue)
	checks           int       // one-cycle checks of this round's merge
	mergeEnd         time.Time // when this round's merge stops checking
	// region: this round cuts the plane; gain: the length gained per
	// second (per kick under a kicks budget) by the last round of paths
	// (0) and of regions (1)
	region bool
	gain   [2]float64
	// regionCut: how long the last region round's cut took (on one core,
	// over every city: over a second at ten million)
	regionCut time.Duration
}

// partMoves is the choice of each round's moves.
type partMoves struct {
	// kicks made so far, and the depth of this round's sequential moves
	// (1 until partDeep kicks per city, then the run's)
	kicks int64
	depth int
	// deep: this round's move is the 5-opt move (else the chain); rate:
	// the length gained per second by the last round of each (chain 0,
	// 5-opt 1); k5: each worker's 5-opt state, the last one stitch's
	k5   []*localsearch.FiveOpt
	deep bool
	rate [2]float64
}

// partBeside is the path improver beside the workers (beside.go):
// bs, and early, its early phase this round.
type partBeside struct {
	bs    beside
	early bool
}

// partSeg is one segment of a round as a sub-instance: its cities in path
// order, coordinates, restricted candidate lists and fixed edges (the
// closing one first), buffers reused from round to round.
type partSeg struct {
	from, m int
	kicks   int // kicks of each of its searches this round
	cities  []int32
	x, y, z []float64
	d       *tour.Dist
	nb      []int32
	k       int
	ranked  bool // nb's rows keep a ranked list's order (neighbor.Lists.Ranked), not nearest first
	edges   [][2]int
	// region rounds (region.go): virt[j] tells whether the pair of
	// local cities j, j+1 (m-1, 0 for the last) is a virtual edge; first
	// and last are the tour positions of its first and last city; order
	// is the improved tour of the region, in local cities
	virt        []bool
	first, last int32
	order       []int32
}

// partSize is the segment size for n cities and w workers: opt when set,
// else n/w clamped to partOneEach..target (partSegment, or partLKSegment
// under chained LK).
func partSize(n, w, opt, target int) int {
	switch {
	case opt > 0:
		return opt
	case n < w*target && n >= w*partOneEach:
		return n / w
	}
	return target
}

// partLayout returns the segments per round and the searches per segment
// for n cities, w workers and segments of about size cities.
func partLayout(n, w, size int) (p, rep int) {
	if n >= w*size {
		return w * max(1, (n+w*size/2)/(w*size)), 1
	}
	p0 := max(2, (n+size/2)/size)
	p, rep = p0, max(1, w/p0)
	if q := p0 + 1; q <= w && q*(w/q) > p*rep {
		p, rep = q, max(1, w/q)
	}
	return min(p, n/partMinSegment), rep
}

// Run runs the partition search of env from tour t0 (candidate lists nb
// and nbOdd, which alternate between rounds; distances d) until the run
// ends, offering its tour to env.Control after every round, and returns
// the account of the path improver beside it (nil without one, or when it
// took no stretch) and a warning when it stopped on an error.
func Run(env *Env, t0 []int32, nb, nbOdd *neighbor.Lists, d *tour.Dist) (*solver.WindowsAccount, string) {
	c := env.Control
	mode := soloMode(env, nb, nbOdd, d)
	ctx, cancel := c.SetupContext()
	defer cancel()
	if mode == SoloLK {
		lk, err := neighbor.Closed(ctx, env.In, soloPerQuadrant)
		if err != nil {
			c.Offer(t0, d.Length(t0))
			return nil, ""
		}
		c.SetPhase(solver.PhaseSearch)
		runSolos(env, t0, lk, d)
		return nil, ""
	}
	if mode == SoloPieces && len(env.In.FixedEdges) == 0 { // a start tour that keeps them stays
		if q := lkStart(t0, d); q != nil {
			t0 = q
		}
	}
	pr := newPartRun(env, ctx, t0, nb, nbOdd, d, mode == SoloPieces)
	c.SetPhase(solver.PhaseSearch)
	rng := newRNG(env.Seed, runctl.StreamCut)
	budget := int64(env.Opts.Kicks) * int64(env.Workers) // 0: until the time limit
	var done int64
	for !c.Done() && (budget == 0 || done < budget) {
		done += pr.step(rng.Intn(env.In.N), budget-done)
		c.Offer(pr.t, pr.length)
		if c.SnapshotDue() {
			c.Snapshot(pr.t, pr.length, env.totalKicks(), env.frac(), 0)
		}
	}
	c.Offer(pr.t, pr.length)
	return pr.bs.account(env.In)
}

// Descend is one round of the partition search without kicks from tour
// t0 on lists nb, a descent of every segment with the 3-opt chain, then
// the descent over the cities between segments: the first descent of the
// merged search on all workers. It returns the tour and its length, ok
// false when the run stopped before the round.
func Descend(env *Env, ctx context.Context, t0 []int32, nb *neighbor.Lists, d *tour.Dist) (t []int32, length int64, ok bool) {
	pr := newPartRun(env, ctx, t0, nb, nb, d, false)
	if env.Control.Done() {
		return nil, 0, false
	}
	start := time.Now()
	off := newRNG(env.Seed, runctl.StreamMergedCut).Intn(env.In.N)
	pr.cutPaths(off)
	for _, sg := range pr.segs {
		sg.kicks = 0
	}
	// the 3-opt move: the 5-opt move's descent from a greedy tour costs
	// seconds where this one takes a fraction, and the merged search's
	// descent with the 5-opt move from its result is short
	pr.depth, pr.deep = 1, false
	pr.runRound()
	pr.stitch(max(stitchShare.of(time.Since(start)), partMinTask), off)
	return pr.t, pr.length, true
}

// newPartRun readies a partition search of tour t0 in environment r.
func newPartRun(r *Env, ctx context.Context, t0 []int32, nb, nbOdd *neighbor.Lists, d *tour.Dist, lk bool) *partRun {
	n := r.In.N
	pr := &partRun{env: r, ctx: ctx, nb: [2]*neighbor.Lists{nb, nbOdd}, t: append([]int32(nil), t0...),
		partPieces: partPieces{segOf: make([]int32, n), local: make([]int32, n), border: make([]bool, n)}}
	pr.length = d.Length(pr.t)
	pr.d = d
	pr.bs = newBeside(r)
	if len(r.In.FixedEdges) > 0 {
		pr.fixed = make([]int32, 2*n)
		for i := range pr.fixed {
			pr.fixed[i] = -1
		}
		for _, e := range r.In.FixedEdges {
			for _, ab := range [2][2]int{{e[0], e[1]}, {e[1], e[0]}} {
				if pr.fixed[2*ab[0]] < 0 {
					pr.fixed[2*ab[0]] = int32(ab[1])
				} else {
					pr.fixed[2*ab[0]+1] = int32(ab[1])
				}
			}
		}
	}
	pr.layout(false)
	pr.ls = make([]*ls, r.Workers)
	pr.k5 = make([]*localsearch.FiveOpt, r.Workers+1)
	for i := range pr.k5 {
		pr.k5[i] = localsearch.NewFiveOpt()
	}
	if lk {
		pr.lkSeen = make([]uint64, n)
	}
	// twice as many nearest cities, so that most cities keep k of them
	// inside their segment; beyond partWideMaxN the lists' time and
	// memory go to the search instead, and chained LK in the pieces
	// takes the quadrant lists
	if n <= partWideMaxN && (!lk || r.Opts.Candidates != ListMixed) {
		pr.wide, _ = neighbor.NearestContext(pr.ctx, r.In, 2*nb.K) // nil when the run ended
	}
	if r.Crowded {
		return pr // no descent over the whole tour (step), nor its state
	}
	g := localsearch.New(d, nb.List, nb.K, pr.t)
	g.SetRanked(nb.Ranked)
	pr.gnbd[0] = localsearch.NeighborDists(d, nb.List, n, nb.K, nil)
	pr.gnbd[1] = pr.gnbd[0]
	if nbOdd != nb {
		pr.gnbd[1] = localsearch.NeighborDists(d, nbOdd.List, n, nbOdd.K, nil)
		pr.clustered = clustered(listSum(d, nb, pr.gnbd[0]), listSum(d, nbOdd, pr.gnbd[1]))
	}
	g.SetMoves(localsearch.MoveSet{OrOpt: r.Opts.OrOpt, ThreeOpt: r.Opts.ThreeOpt, Depth: r.Opts.Depth, Or3: r.Opts.Or3})
	g.SetRand(newRNG(r.Seed, runctl.StreamStitch))
	g.SetFixed(r.In.FixedEdges)
	pr.global = g
	pr.bs.firstShare(n, pr.clustered)
	return pr
}

// clustered tells whether the quadrant candidates' total distance quad
// is neighbor.ClusteredRatio times the nearest ones' near or more: there
// the quadrant lists reach into other clusters and the pieces taking
// them first were ahead.
func clustered(near, quad float64) bool { return quad >= neighbor.ClusteredRatio*near && near > 0 }

// fixedEdge reports whether (a, b) is one of the instance's fixed edges.
func (pr *partRun) fixedEdge(a, b int32) bool {
	return pr.fixed != nil && (pr.fixed[2*a] == b || pr.fixed[2*a+1] == b)
}

// listSum is the total distance from every city to its candidates in
// nb, over at most neighbor.ClusteredSample cities evenly spaced by id:
// from their cached distances nbd, or where the cache did not fit (nil)
// from d (a sum over every city took seconds at ten million).
func listSum(d *tour.Dist, nb *neighbor.Lists, nbd []int32) float64 {
	n, k := nb.N(), nb.K
	step := max(1, (n+neighbor.ClusteredSample-1)/neighbor.ClusteredSample)
	var sum float64
	for c := 0; c < n; c += step {
		if nbd != nil {
			for _, v := range nbd[c*k : (c+1)*k] {
				sum += float64(v)
			}
			continue
		}
		for _, x := range nb.Of(c) {
			sum += float64(d.At(int32(c), x))
		}
	}
	return sum
}

// step is one round from offset off: the cut, the pieces' searches and
// the descent between them; it records the gain per second (per kick
// under a kicks budget) for chooseShape and returns the kicks made.
func (pr *partRun) step(off int, left int64) int64 {
	t0, m0 := time.Now(), pr.env.Control.TotalMoves()
	pr.cut(off, left)
	l0 := pr.length
	k := pr.runRound()
	if !pr.env.Crowded && !pr.early {
		// on a crowded run, and in the early phase beside the improver,
		// the next round's shifted cut mends the segments' ends: a
		// descent over the whole tour's array, whose reversals cost up
		// to n/2 cities each, would take the round's time
		ts, lr := time.Now(), pr.length
		pr.stitch(pr.pace.limit(ts.Sub(t0), pr.paced()), off)
		pr.pace.record(l0-lr, ts.Sub(t0), lr-pr.length, time.Since(ts))
		// on a clustered instance, now and then a search of the
		// clusters' order (docs/DECISIONS.md#cluster-pass)
		if pr.clusterDue() {
			pr.clusterPass()
		}
	}
	pr.kicks += k
	m := 0
	if pr.deep {
		m = 1
	}
	// a run with a kicks budget stays deterministic: it measures the
	// round by the moves evaluated instead of the clock
	cost := time.Since(t0).Seconds()
	if pr.env.Opts.Kicks > 0 {
		cost = float64(pr.env.Control.TotalMoves()-m0) / nominalMovesPerSecond
	}
	pr.rate[m] = float64(l0-pr.length) / max(cost, 1e-9)
	if k > 0 {
		g := 0
		if pr.region {
			g = 1
		}
		// a timed run weighs the shapes by gain per second of the round,
		// its stitch included: a region round's cut and merge take time
		// a kick count does not see (docs/DECISIONS.md#shape-rate)
		per := float64(k)
		if pr.env.Opts.Kicks == 0 {
			per = cost
		}
		pr.gain[g] = float64(l0-pr.length) / max(per, 1e-9)
	}
	pr.round++
	return k
}

// cut splits the tour into this round's pieces from offset off, records
// every city's piece and local index, and gives each piece its kicks.
func (pr *partRun) cut(off int, left int64) {
	o := pr.env.Opts
	pr.depth = min(max(o.Depth, 1), localsearch.MaxDepth)
	if float64(pr.kicks) < o.DeepPerCity*float64(pr.env.In.N) {
		pr.depth = 1
	}
	pr.deep = pr.chooseMove()
	pr.early = pr.besideEarly()
	pr.region = false
	if !pr.early && pr.chooseShape() && pr.regionFits() {
		t := time.Now()
		pr.layout(false)
		pr.region = pr.cutRegions(math.Pi * float64(off) / float64(pr.env.In.N))
		pr.regionCut = time.Since(t)
	}
	if !pr.region {
		pr.cutPaths(off)
	}
	kpc := pr.env.Opts.KicksPerCity
	if pr.round == 0 && pr.env.Crowded {
		kpc = 0 // a descent of every segment first, one kick each
	}
	var total int64
	for _, sg := range pr.segs {
		sg.kicks = max(1, int(kpc*float64(sg.m)))
		if pr.env.Opts.SliceMS > 0 && pr.env.Opts.Kicks == 0 && pr.rep == 1 {
			sg.kicks = math.MaxInt32 // the time slice ends them
		}
		total += int64(sg.kicks) * int64(pr.rep)
	}
	if pr.env.Opts.Kicks > 0 && total > left {
		f := float64(left) / float64(total)
		for _, sg := range pr.segs {
			sg.kicks = int(math.Ceil(f * float64(sg.kicks)))
		}
	}
}

// layout sets the round's segments and searches per segment for
// segments of about segSize cities: partLayout's, or on a path round
// beside the path improver besideLayout's, the improver taking the
// first pr.bs.g of them (none on region rounds, with several searches
// a segment, or after the improver's error).
func (pr *partRun) layout(paths bool) {
	n, w, size := pr.env.In.N, pr.env.Workers, pr.segSize()
	p, rep := partLayout(n, w, size)
	b := &pr.bs
	b.g = 0
	if paths && rep == 1 && b.paths != nil && b.err == nil {
		if q, g := besideLayout(n, w, size, b.share); g > 0 {
			p, b.g = q, g
		}
	}
	pr.p, pr.rep = p, rep
	// the segments' buffers stay for the rounds of other layouts
	segs := pr.segs[:min(p, cap(pr.segs))]
	for i, sg := range segs {
		if sg == nil {
			segs[i] = &partSeg{}
		}
	}
	for len(segs) < p {
		segs = append(segs, &partSeg{})
	}
	pr.segs = segs
}

// segSize is the segment size aimed at this round: the option's when
// set, else besideEarlySegment in the early phase beside the improver,
// else partSize's.
func (pr *partRun) segSize() int {
	o := pr.env.Opts
	if pr.early && o.Seg == 0 {
		return besideEarlySegment
	}
	target := partSegment
	if pr.lkSeen != nil {
		target = partLKSegment
	}
	return partSize(pr.env.In.N, pr.env.Workers, o.Seg, target)
}

// cutPaths lays out a path round (layout) and splits the tour from
// position off into its segments.
func (pr *partRun) cutPaths(off int) {
	pr.layout(true)
	n, p := pr.env.In.N, pr.p
	for i := range pr.segs {
		lo, hi := i*n/p, (i+1)*n/p
		pr.fillSeg(i, (off+lo)%n, hi-lo)
	}
}

// fillSeg makes segment i the m consecutive positions of the tour from
// position from (wrapping), recording each city's segment and local index.
func (pr *partRun) fillSeg(i, from, m int) {
	n, sg := pr.env.In.N, pr.segs[i]
	sg.from, sg.m = from, m
	sg.cities = grow(sg.cities, m)
	at := from
	for j := range m {
		ct := pr.t[at]
		sg.cities[j] = ct
		pr.segOf[ct], pr.local[ct] = int32(i), int32(j)
		at++
		if at == n {
			at = 0
		}
	}
}

// runRound builds the pieces' sub-instances, runs their searches and
// writes every improved path back; it returns the kicks made.
func (pr *partRun) runRound() int64 {
	start := time.Now()
	fused := pr.fused()
	g := pr.bs.segments(pr) // the first g segments go to the path improver
	if !fused {
		pr.pool(pr.p-g, func(_, i int) { pr.prepare(g + i) })
		if pr.env.Control.Done() {
			return 0 // some segments may not be ready: no search this round
		}
	}
	bs := pr.startBeside(g)
	deltas, kicks := pr.searchAll(fused, g)
	pr.endBeside(bs, deltas[:pr.p])
	if pr.rep > 1 {
		pr.keepBest(deltas)
	}
	if pr.region {
		pr.length += pr.mergeRegions(deltas[:pr.p], max(regionMergeShare.of(time.Since(start)), partMinTask))
		return kicks
	}
	// a search never ends longer than it started: only gains were kept
	for _, d := range deltas[:pr.p] {
		pr.length += min(d, 0)
	}
	return kicks
}

// pool runs tasks 0..tasks-1 on the workers: task i on worker i when
// there are no more tasks than workers, else in turn until the run stops.
func (pr *partRun) pool(tasks int, do func(wk, i int)) {
	w := pr.env.Workers
	var next atomic.Int64
	var wg sync.WaitGroup
	for wk := range min(w, tasks) {
		wg.Go(func() {
			if tasks <= w {
				do(wk, wk)
				return
			}
			for {
				i := int(next.Add(1) - 1)
				if i >= tasks || pr.env.Control.Done() {
					return
				}
				do(wk, i)
			}
		})
	}
	wg.Wait()
}

// searchAll runs the round's searches of the segments from g on (the
// first g are the path improver's; fused: each preparing its segment
// first), rep per segment, keeping each gain of a segment searched once;
// it returns every search's change of length (segment seg's search rep at
// seg + rep·p) and the kicks made.
func (pr *partRun) searchAll(fused bool, g int) ([]int64, int64) {
	w := pr.env.Workers
	segs := pr.p - g
	tasks := segs * pr.rep // at most w when rep > 1
	deltas := make([]int64, pr.p*pr.rep)
	var kicks atomic.Int64
	// with a time slice, the searches of a round end together (or, when
	// the workers take several in turn, each gets its share, at least
	// taskSlice's floor); with several searches per segment, and with a kicks
	// budget, they count kicks
	slice := time.Duration(pr.env.Opts.SliceMS) * time.Millisecond
	if pr.env.Opts.Kicks > 0 || pr.rep > 1 {
		slice = 0
	}
	roundEnd := time.Now().Add(slice)
	pr.pool(tasks, func(wk, i int) {
		seg, rep := g+i%segs, i/segs
		if fused {
			pr.prepare(seg)
		}
		var end time.Time
		switch {
		case slice > 0 && tasks <= w:
			end = roundEnd
		case slice > 0:
			end = time.Now().Add(taskSlice(slice, w, tasks, pr.env.In.N))
		}
		d, k := pr.search(wk, seg, rep, end)
		deltas[seg+rep*pr.p] = d
		kicks.Add(k)
		if pr.rep == 1 && d < 0 && !pr.lkPiece(pr.segs[seg]) {
			pr.keep(pr.ls[wk], pr.segs[seg])
		}
	})
	return deltas, kicks.Load()
}

// taskSlice is the time of one search when the w workers take tasks
// searches of n cities' pieces in turn in a round of slice: its share,
// at least partLongTask up to partLongTaskMaxN cities, else partMinTask.
func taskSlice(slice time.Duration, w, tasks, n int) time.Duration {
	floor := partMinTask
	if n <= partLongTaskMaxN {
		floor = partLongTask
	}
	return max(slice*time.Duration(w)/time.Duration(tasks), floor)
}

// keepBest keeps, with several searches per segment (one per worker:
// task i ran on worker i, as tasks ≤ w), the best of each segment's
// searches, its change of length in deltas[seg].
func (pr *partRun) keepBest(deltas []int64) {
	for seg, sg := range pr.segs {
		best := seg
		for i := seg + pr.p; i < len(deltas); i += pr.p {
			if deltas[i] < deltas[best] {
				best = i
			}
		}
		if deltas[best] < 0 {
			pr.keep(pr.ls[best], sg)
		}
		deltas[seg] = deltas[best]
	}
}

// keep takes the improved tour of s for segment sg: into the segment's
// positions, or on a region round into sg.order for mergeRegions.
func (pr *partRun) keep(s *ls, sg *partSeg) {
	if pr.region {
		sg.order = append(sg.order[:0], s.Tour()[:sg.m]...)
		return
	}
	pr.writeBack(s, sg)
}

// prepare builds segment i's sub-instance: cities, coordinates, the
// restricted candidate lists and its fixed edges (the closing one first).
func (pr *partRun) prepare(i int) {
	in := pr.env.In
	sg := pr.segs[i]
	m := sg.m
	sg.x, sg.y = grow(sg.x, m), grow(sg.y, m)
	var z []float64
	if in.Z != nil {
		sg.z = grow(sg.z, m)
		z = sg.z
	}
	for j, ct := range sg.cities[:m] {
		sg.x[j], sg.y[j] = in.X[ct], in.Y[ct]
		if z != nil {
			z[j] = in.Z[ct]
		}
	}
	sub := in.WithCoords(in.Name, sg.x, sg.y, z)
	sg.d = tour.LazyDist(sub)

	pr.restrict(i)
	if pr.region {
		pr.regionEdges(i)
	} else {
		pr.fixEdges(i)
	}
}

// segKind is segment i's candidate kind this round: the run's, or under
// "mixed" nearest and quadrant alternating, quadrant for every segment
// on a clustered instance (where the nearest never leave a cluster).
func (pr *partRun) segKind(i int) ListKind {
	kind := pr.env.Opts.Candidates
	if kind == ListMixed && pr.lkSeen != nil {
		// chained LK takes the quadrant lists, as over the whole tour
		return ListQuadrant
	}
	if kind == ListMixed {
		kind = ListNearest
		if pr.clustered || (int64(i)+pr.round)%2 == 1 {
			kind = ListQuadrant
		}
	}
	return kind
}

// restrict gives segment i the global candidate lists restricted to it, k
// per city (under "mixed" or "alpha" the segment's kind first, filled up
// with the nearest); a row is padded by repeating its last candidate, or a
// path neighbour when none is inside.
func (pr *partRun) restrict(i int) {
	sg := pr.segs[i]
	k := pr.nb[0].K
	sg.k = k
	sg.nb = grow(sg.nb, sg.m*k)
	from, first := pr.restrictFrom(i)
	// only rows filtered from one list keep its order (segCands sorts the others by distance)
	sg.ranked = from[1] == from[0] && !first && from[0].Ranked
	buf := make([]segCand, 0, 2*k+pr.nb[1].K)
	for j := range sg.m {
		ct := sg.cities[j]
		out := false
		for _, x := range pr.nb[0].Of(int(ct)) {
			if pr.segOf[x] != int32(i) {
				out = true
				break
			}
		}
		pr.border[ct] = out
		buf = pr.segCands(sg, int32(i), int32(j), from, first, buf)
		fillRow(sg.nb[j*k:j*k:(j+1)*k], buf, j, sg.m)
	}
}

// segCand is a candidate of a segment's city: its distance, its local
// and global index.
type segCand struct {
	d     int64
	x, ct int32
}

// restrictFrom is where segment i's lists come from: from[0] first, then
// from[1] to fill up (first), or both merged by distance.
func (pr *partRun) restrictFrom(i int) (from [2]*neighbor.Lists, first bool) {
	from = pr.nb
	if pr.wide != nil {
		from[0] = pr.wide
	}
	switch kind := pr.segKind(i); {
	case pr.nb[1] != pr.nb[0] && kind == ListQuadrant:
		return [2]*neighbor.Lists{pr.nb[1], pr.nb[0]}, true
	case kind == ListAlpha:
		// the alpha-nearness candidates inside first (merged by
		// distance with the 2k nearest they would mostly be dropped
		// for nearer cities), the nearest to fill up
		return [2]*neighbor.Lists{pr.nb[0], from[0]}, true
	}
	return from, false
}

// segCands returns, in buf, the k nearest candidates of the segment's
// city j inside segment seg, from the lists from (restrictFrom); from a
// single list, already nearest first, without their distances.
func (pr *partRun) segCands(sg *partSeg, seg, j int32, from [2]*neighbor.Lists, first bool, buf []segCand) []segCand {
	buf = buf[:0]
	ct := sg.cities[j]
	if from[1] == from[0] && !first {
		// one list, in the order the segment's rows take: filter it
		for _, x := range from[0].Of(int(ct)) {
			if pr.segOf[x] == seg && len(buf) < sg.k {
				buf = append(buf, segCand{0, pr.local[x], x})
			}
		}
		return buf
	}
	kept := 0
	for li, lists := range from {
		if li == 1 && lists == from[0] {
			break
		}
		if li == 1 && first {
			// the quadrant candidates inside stay, the rest fill up
			sortSegCands(buf)
			kept = len(buf)
		}
		for _, x := range lists.Of(int(ct)) {
			if pr.segOf[x] != seg {
				continue
			}
			lx := pr.local[x]
			dup := false
			for _, c := range buf {
				dup = dup || c.x == lx
			}
			if !dup {
				buf = append(buf, segCand{sg.d.At(j, lx), lx, x})
			}
		}
	}
	sortSegCands(buf[kept:])
	buf = buf[:min(sg.k, len(buf))]
	sortSegCands(buf)
	return buf
}

// sortSegCands orders a city's few candidates nearest first, ties by city
// as in the global lists, by insertion: rows are short and nearly in
// order, where a general sort's calls cost more than its moves.
func sortSegCands(c []segCand) {
	for i := 1; i < len(c); i++ {
		x, j := c[i], i
		for ; j > 0 && (c[j-1].d > x.d || c[j-1].d == x.d && c[j-1].ct > x.ct); j-- {
			c[j] = c[j-1]
		}
		c[j] = x
	}
}

// fillRow writes the candidates of city j (of m) into row, padded to
// its capacity by repeating the last, or a path neighbour when none.
func fillRow(row []int32, cands []segCand, j, m int) {
	for _, c := range cands {
		row = append(row, c.x)
	}
	if len(row) == 0 {
		if j+1 < m {
			row = append(row, int32(j+1))
		} else {
			row = append(row, int32(j-1))
		}
	}
	for len(row) < cap(row) {
		row = append(row, row[len(row)-1])
	}
}

// fixEdges gives segment i the closing edge and the instance's own inside.
func (pr *partRun) fixEdges(i int) {
	sg := pr.segs[i]
	sg.edges = append(sg.edges[:0], [2]int{sg.m - 1, 0})
	pr.instanceEdges(i)
}

// instanceEdges adds the instance's fixed edges inside segment i.
func (pr *partRun) instanceEdges(i int) {
	sg := pr.segs[i]
	m := sg.m
	seg := int32(i)
	if pr.fixed != nil {
		for j := range m {
			ct := sg.cities[j]
			for _, f := range pr.fixed[2*ct : 2*ct+2] {
				if f >= 0 && pr.segOf[f] == seg && int(pr.local[f]) > j {
					sg.edges = append(sg.edges, [2]int{j, int(pr.local[f])})
				}
			}
		}
	}
}

// search runs worker wk's iterated local search (search number rep) on
// segment seg: a descent, then its kicks, each kept when the segment does
// not get longer. It returns the change of length (never positive) and the
// kicks made; a non-zero end stops the kicks then, and the descent too in a
// round of the 5-opt move.
func (pr *partRun) search(wk, seg, rep int, end time.Time) (int64, int64) {
	r, c := pr.env, pr.env.Control
	sg := pr.segs[seg]
	if pr.lkPiece(sg) {
		return pr.searchLK(wk, seg, end)
	}
	s := pr.load(wk, sg)
	s.SetMoves(pr.moves(wk, r.Opts.RKBI))
	s.SetRand(newRNG(r.Seed, uint64(pr.round)<<24^uint64(seg)<<8^uint64(rep)^runctl.StreamSegment))
	s.SetFixed(sg.edges)
	length0 := s.Length()

	base := s.Evaluated()
	check := func() bool {
		c.Moves[wk].V.Add(s.Evaluated() - base)
		base = s.Evaluated()
		if c.Done() {
			return true
		}
		if c.SnapshotDue() {
			c.Snapshot(nil, c.BestLen.Load(), r.totalKicks(), r.frac(), 0)
		}
		return false
	}
	kicks := int64(0)
	s.SetJournal(false)
	s.PushAll()
	// a 5-opt descent of a whole segment takes many slices (from a chain
	// optimum of 5,000 cities, about half a second): it ends with the
	// slice too, its gains kept, so that the round keeps its length
	// (docs/DECISIONS.md#deep-slice)
	descend := check
	if !end.IsZero() && pr.deep {
		descend = func() bool { return check() || !time.Now().Before(end) }
	}
	if s.Optimize(descend) {
		s.SetJournal(true)
		last := s.Evaluated()
		for kk := 0; kk < sg.kicks; kk++ {
			if (s.Evaluated()-last >= runctl.CheckEvery || kk%runctl.KicksPerCheck == 0) && check() {
				break
			}
			if !end.IsZero() && kk%8 == 0 && !time.Now().Before(end) {
				break
			}
			last = s.Evaluated()
			if _, ok := s.TryKick(r.Opts.MaxSeg, r.Opts.AcceptEqual, check); !ok {
				break
			}
			kicks++
		}
	}
	s.ClearQueue()
	c.Moves[wk].V.Add(s.Evaluated() - base)
	r.KicksDone[wk].V.Add(kicks)
	return s.Length() - length0, kicks
}

// load readies worker wk's local search for segment sg, reusing buffers.
func (pr *partRun) load(wk int, sg *partSeg) *ls {
	// the segment's lists are new every round: LoadPath caches their
	// distances again
	s := pr.ls[wk].LoadPath(sg.d, sg.nb[:sg.m*sg.k], sg.k, sg.m)
	s.SetRanked(sg.ranked)
	pr.ls[wk] = s
	return s
}

// writeBack writes the path of s, from the segment's first city to its
// last (the closing edge left out), into the segment's positions.
func (pr *partRun) writeBack(s *ls, sg *partSeg) {
	n, m := pr.env.In.N, sg.m
	p := s.Pos()[0]
	step := int32(1)
	if s.Tour()[(int(p)+1)%m] == int32(m-1) {
		step = -1
	}
	at := sg.from
	for range m {
		pr.t[at] = sg.cities[s.Tour()[p]]
		at++
		if at == n {
			at = 0
		}
		p += step
		if p == int32(m) {
			p = 0
		} else if p < 0 {
			p = int32(m - 1)
		}
	}
}

// stitch is the descent over the cities whose candidates lay in other
// segments, on the whole tour; on a time limit it stops after limit, as a
// move may reverse half the tour. Its queue starts at tour position from
// (the round's offset, which moves every round), so that a descent cut
// short by its limit leaves a different part of the tour each round
// rather than always the end of the array.
func (pr *partRun) stitch(limit time.Duration, from int) {
	c := pr.env.Control
	if c.Stop.Load() {
		return
	}
	end := time.Now().Add(limit)
	g := pr.global
	g.SetMoves(pr.moves(len(pr.k5)-1, 0))
	l := pr.round % 2
	// on a clustered instance the quadrant lists every round, and every
	// other round a descent over every city: the pieces' lists stop at
	// their ends, and only the quadrant lists reach across the gaps
	// between clusters (docs/DECISIONS.md#clustered-stitch)
	all := false
	if pr.clustered {
		l, all = 1, pr.round%2 == 0
	}
	g.SetNeighbors(pr.nb[l].List, pr.nb[l].K, pr.gnbd[l])
	g.SetRanked(pr.nb[l].Ranked)
	g.LoadLength(pr.t, pr.length)
	for _, part := range [2][]int32{pr.t[from:], pr.t[:from]} {
		for _, ct := range part {
			if all || pr.border[ct] {
				g.Push(ct)
			}
		}
	}
	g.SetJournal(false)
	// the other workers idle during the stitch: its long reversals are
	// split among them (docs/DECISIONS.md#stitch)
	g.SetSplit(pr.env.Workers)
	defer g.SetSplit(0)
	base := g.Evaluated()
	g.Optimize(func() bool {
		c.Moves[0].V.Add(g.Evaluated() - base)
		base = g.Evaluated()
		if c.Done() {
			return true
		}
		if c.SnapshotDue() {
			c.Snapshot(nil, c.BestLen.Load(), pr.env.totalKicks(), pr.env.frac(), 0)
		}
		return pr.env.Opts.Kicks == 0 && !time.Now().Before(end)
	})
	c.Moves[0].V.Add(g.Evaluated() - base)
	g.ClearQueue()
	copy(pr.t, g.Tour())
	pr.length = g.Length()
}

// chooseMove tells whether this round takes the 5-opt move: always or
// never as the move option says; with "adapt", the chain for the first
// two rounds (a fast descent from the start tour), then the 5-opt move
// once, then whichever gained more per second in its last round (per
// move evaluated with a kicks budget), the other every fourth round. On
// a clustered instance "adapt" keeps the chain: there a round of the
// 5-opt move took many times a chain round's time
// (docs/DECISIONS.md#clustered-chain).
func (pr *partRun) chooseMove() bool {
	switch pr.env.Opts.Move {
	case MoveLK5:
		return true
	case MoveChain:
		return false
	}
	if pr.clustered {
		return false
	}
	if pr.round < 3 {
		return pr.round == 2
	}
	return byRate(pr.round, pr.rate, 1)
}

// moves is this round's move set for the search whose 5-opt state is
// pr.k5[i], with rkbi pivoting among rkbi moves (0: first improvement).
func (pr *partRun) moves(i, rkbi int) localsearch.MoveSet {
	o := pr.env.Opts
	m := localsearch.MoveSet{OrOpt: o.OrOpt, ThreeOpt: o.ThreeOpt, Depth: pr.depth, Or3: o.Or3, RKBI: rkbi}
	if pr.deep {
		m.FiveOpt = pr.k5[i]
	}
	return m
}

// grow returns b resized to n, reallocating when it is too small.
func grow[T any](b []T, n int) []T {
	if cap(b) < n {
		return make([]T, n, n+n/4)
	}
	return b[:n]
}

// fused reports whether this round prepares each segment right before
// its search rather than all of them first: on a crowded run preparing
// millions of cities takes seconds in which nothing would be searched,
// and a run stopped mid-round keeps the segments searched so far. Only
// path rounds with one search per segment, whose segments are disjoint
// stretches of the tour, can.
func (pr *partRun) fused() bool {
	return pr.env.Crowded && !pr.region && pr.rep == 1
}
