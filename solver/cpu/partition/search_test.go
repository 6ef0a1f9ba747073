package partition

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/enginetest"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// newTestPartRun readies a partition search of the auto engine's settings
// on in (testOptions) from its greedy tour, as a run would, with w workers
// and the options changed by set.
func newTestPartRun(t testing.TB, in *solver.Instance, w int, set func(*Options)) *partRun {
	t.Helper()
	return newTestPartRunWith(t, in, w, set, solver.Aid{}, nil)
}

// newTestPartRunAid is newTestPartRun with the run's aid.
func newTestPartRunAid(t testing.TB, in *solver.Instance, w int, set func(*Options), aid solver.Aid) *partRun {
	t.Helper()
	return newTestPartRunWith(t, in, w, set, aid, nil)
}

// newTestPartRunWith is newTestPartRunAid with the environment changed
// by set (nil: as a run takes it).
func newTestPartRunWith(t testing.TB, in *solver.Instance, w int, opts func(*Options), aid solver.Aid, set func(*Env)) *partRun {
	t.Helper()
	p := solver.Params{Seed: 3, Workers: w}
	env := &Env{In: in, Seed: p.Seed, Workers: w, Opts: testOptions(in.N, opts),
		EarlyMinN: DefaultEarlyMinN,
		Control:   runctl.NewControl(context.Background(), p, w, nil, time.Now()), KicksDone: make([]runctl.Counter, w), Aid: aid}
	if set != nil {
		set(env)
	}
	nb, nbq := neighbor.Nearest(in, 8), neighbor.Quadrant(in, 8)
	t0 := runctl.To32(construct.KeepFixed(in, construct.Greedy(in, nb)))
	return newPartRun(env, context.Background(), t0, nb, nbq, tour.NewDist(in), false)
}

// checkPartTour fails unless the partition search's tour is a permutation
// of exactly the length it records, keeping the instance's fixed edges.
func checkPartTour(t *testing.T, pr *partRun, what string) {
	t.Helper()
	in := pr.env.In
	tr := runctl.ToInt(pr.t)
	if err := solver.ValidateTour(tr, in.N); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
	if got := solver.TourLength(in, tr); got != pr.length {
		t.Fatalf("%s: recorded length %d, exact %d", what, pr.length, got)
	}
	if err := in.CheckFixedEdges(tr); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// checkPartLists fails unless every segment of the round has candidate
// lists of the global width holding cities of the segment other than the
// city itself, nearest first.
func checkPartLists(t *testing.T, pr *partRun) {
	t.Helper()
	for i, sg := range pr.segs {
		if sg.k != pr.nb[0].K || len(sg.nb) < sg.m*sg.k {
			t.Fatalf("segment %d: lists of %d for %d cities, want %d each", i, len(sg.nb), sg.m, pr.nb[0].K)
		}
		for j := range sg.m {
			row := sg.nb[j*sg.k : (j+1)*sg.k]
			for x, c := range row {
				if c < 0 || int(c) >= sg.m || int(c) == j {
					t.Fatalf("segment %d, city %d: candidate %d outside the segment or itself", i, j, c)
				}
				if x > 0 && sg.d.At(int32(j), c) < sg.d.At(int32(j), row[x-1]) {
					t.Fatalf("segment %d, city %d: candidates not nearest first: %v", i, j, row)
				}
			}
		}
	}
}

// TestPartitionRounds: every round of paths keeps a valid tour of the recorded
// length that never gets longer, the segments' end cities stay in their
// positions while the workers search, and the tour does get shorter. Both
// layouts (one search per segment, several per segment with the best
// kept).
func TestPartitionRounds(t *testing.T) {
	in := uniformInstance(3000, 21)
	for _, tc := range []struct {
		seg, p, rep int
	}{{400, 8, 1}, {2000, 2, 2}} {
		pr := newTestPartRun(t, in, 4, func(o *Options) { o.Seg, o.KicksPerCity, o.Shape = tc.seg, 0.5, ShapePath })
		if pr.p != tc.p || pr.rep != tc.rep {
			t.Fatalf("segment size %d: %d segments × %d searches, want %d × %d", tc.seg, pr.p, pr.rep, tc.p, tc.rep)
		}
		checkPartTour(t, pr, "start")
		start := pr.length
		rng := newRNG(5, 0)
		for round := range 6 {
			before := pr.length
			pr.cut(rng.Intn(in.N), 0)
			type end struct{ pos, city int32 }
			var ends []end
			for _, sg := range pr.segs {
				last := (sg.from + sg.m - 1) % in.N
				ends = append(ends, end{int32(sg.from), pr.t[sg.from]}, end{int32(last), pr.t[last]})
			}
			pr.runRound()
			checkPartLists(t, pr)
			for _, e := range ends {
				if pr.t[e.pos] != e.city {
					t.Fatalf("round %d: position %d holds %d, the segment end %d moved", round, e.pos, pr.t[e.pos], e.city)
				}
			}
			checkPartTour(t, pr, "after the segments")
			pr.stitch(time.Hour, 0)
			pr.round++
			checkPartTour(t, pr, "after the descent between segments")
			if pr.length > before {
				t.Fatalf("round %d: %d → %d, longer", round, before, pr.length)
			}
		}
		if pr.length >= start {
			t.Fatalf("segment size %d: six rounds gained nothing on the greedy tour (%d)", tc.seg, start)
		}
	}
}

// TestPartitionLayout: the segments cover the tour, are as many as the
// workers (or a multiple) when large enough, and fewer, searched by
// several workers, on smaller instances.
func TestPartitionLayout(t *testing.T) {
	for _, tc := range []struct{ n, w, size, p, rep int }{
		{85900, 16, 5000, 16, 1},
		{1000000, 16, 5000, 208, 1},
		{13509, 16, 5000, 4, 4},
		{18512, 16, 5000, 4, 4},
		{13509, 2, 5000, 2, 1},
		{13509, 2, 7000, 2, 1},
		{300, 16, 5000, 2, 8},
		// the default size (0): one segment per worker from partOneEach
		// cities a worker up to partSegment, else segments of partSegment
		{18512, 16, 0, 16, 1},
		{79000, 16, 0, 16, 1},
		{13509, 16, 0, 4, 4},
		{85900, 16, 0, 16, 1},
		{1000000, 16, 0, 208, 1},
		{18512, 2, 0, 4, 1},
		{18512, 32, 0, 4, 8},
	} {
		if tc.size == 0 {
			tc.size = partSize(tc.n, tc.w, 0, partSegment)
		}
		p, rep := partLayout(tc.n, tc.w, tc.size)
		if got := partSize(tc.n, tc.w, 9000, partSegment); got != 9000 {
			t.Errorf("n %d, %d workers: a size asked for (9000) gives %d", tc.n, tc.w, got)
		}
		if p != tc.p || rep != tc.rep {
			t.Errorf("n %d, %d workers, segments of %d: %d × %d, want %d × %d", tc.n, tc.w, tc.size, p, rep, tc.p, tc.rep)
		}
		if p*rep > tc.w && rep > 1 {
			t.Errorf("n %d: %d searches for %d workers", tc.n, p*rep, tc.w)
		}
	}
}

// TestPartitionLKSize: under chained LK in the pieces the segments aim
// at partLKSegment cities, one per worker below it, and a size asked for
// still wins; a partition search takes it from its solo mode.
func TestPartitionLKSize(t *testing.T) {
	for _, c := range []struct{ n, w, want int }{
		{100000, 16, 6250}, {1000000, 16, partLKSegment}, {100000, 2, partLKSegment}, {30000, 2, 15000},
	} {
		if got := partSize(c.n, c.w, 0, partLKSegment); got != c.want {
			t.Errorf("%d cities, %d workers: %d, want %d", c.n, c.w, got, c.want)
		}
	}
	for _, lk := range []bool{false, true} {
		pr := newTestPartRun(t, uniformInstance(12000, 7), 2, nil)
		pr.lkSeen = nil
		want := partSegment
		if lk {
			pr.lkSeen, want = make([]uint64, 12000), 6000
		}
		if got := pr.segSize(); got != want {
			t.Errorf("chained LK %v: segments of %d, want %d", lk, got, want)
		}
	}
}

// TestPartitionFixedEdges: the instance's fixed edges survive every round,
// also where they lie inside a segment.
func TestPartitionFixedEdges(t *testing.T) {
	in := uniformInstance(2000, 22)
	nb := neighbor.Nearest(in, 8)
	g := construct.Greedy(in, nb)
	for i := 0; i+1 < len(g); i += 37 {
		in.FixedEdges = append(in.FixedEdges, [2]int{g[i], g[i+1]})
	}
	pr := newTestPartRun(t, in, 3, func(o *Options) { o.Seg = 300 })
	checkPartTour(t, pr, "start")
	rng := newRNG(6, 0)
	for range 4 {
		pr.step(rng.Intn(in.N), 0)
		checkPartTour(t, pr, "round")
	}
}

// TestPartitionRestrictedLists: the global lists restricted to a segment
// are, for every city whose global candidates all lie in the segment,
// exactly those candidates: the nearest on a segment whose turn is
// "nearest", the quadrant lists on one whose turn is "quadrant" (under
// "mixed" the two alternate), so that a segment's search sees the lists
// a k-d tree over its cities would give it.
func TestPartitionRestrictedLists(t *testing.T) {
	in := uniformInstance(3000, 25)
	pr := newTestPartRun(t, in, 4, func(o *Options) { o.Seg, o.Candidates = 400, ListMixed })
	for round := range 2 {
		pr.round = int64(round)
		pr.cut(round*777, 0)
		kinds := map[ListKind]int{}
		for i, sg := range pr.segs {
			pr.prepare(i)
			kind := pr.segKind(i)
			want := pr.nb[0]
			if kind == ListQuadrant {
				want = pr.nb[1]
			}
			for j, ct := range sg.cities[:sg.m] {
				inside := true
				for _, x := range want.Of(int(ct)) {
					inside = inside && pr.segOf[x] == int32(i)
				}
				if !inside {
					continue
				}
				kinds[kind]++
				// the same candidates, up to cities tied at the same
				// distance (the global lists order those by the plane's
				// distance)
				var got, exp []int64
				for _, lx := range sg.nb[j*sg.k : (j+1)*sg.k] {
					got = append(got, in.Dist(int(ct), int(sg.cities[lx])))
				}
				for _, x := range want.Of(int(ct)) {
					exp = append(exp, in.Dist(int(ct), int(x)))
				}
				slices.Sort(got)
				slices.Sort(exp)
				if !slices.Equal(got, exp) {
					t.Fatalf("round %d, segment %d (kind %d), city %d: candidates at %v, the global list's at %v",
						round, i, kind, ct, got, exp)
				}
			}
		}
		if kinds[ListNearest] == 0 || kinds[ListQuadrant] == 0 {
			t.Fatalf("round %d: cities checked per kind %v, want both kinds", round, kinds)
		}
	}
	checkPartLists(t, pr)
}

// TestPartitionRegionRounds: rounds that cut the plane into regions of
// several tour paths keep a valid tour of the recorded length that never
// gets longer, put the regions' gains into the tour (most of them: a
// result that would split the tour is dropped), also with fixed edges of
// the instance, with several searches per region, and with chained LK
// searching the regions.
func TestPartitionRegionRounds(t *testing.T) {
	for _, tc := range []struct {
		name      string
		shape     Shape
		seg       int
		fixed, lk bool
	}{{"region", ShapeRegion, 400, false, false}, {"alternate", ShapeAlternate, 400, false, false}, {"region", ShapeRegion, 300, true, false},
		{"region", ShapeRegion, 1500, false, false}, {"region-lk", ShapeRegion, 400, false, true}, {"region-lk", ShapeRegion, 300, true, true}} {
		in := uniformInstance(3000, 26)
		if tc.fixed {
			g := construct.Greedy(in, neighbor.Nearest(in, 8))
			for i := 0; i+1 < len(g); i += 41 {
				in.FixedEdges = append(in.FixedEdges, [2]int{g[i], g[i+1]})
			}
		}
		pr := newTestPartRun(t, in, 4, func(o *Options) { o.Seg, o.KicksPerCity, o.Shape = tc.seg, 0.5, tc.shape })
		if tc.lk { // the pieces searched by chained LK, their virtual and fixed edges kept
			pr.lkSeen = make([]uint64, in.N)
		}
		checkPartTour(t, pr, "start")
		start := pr.length
		rng := newRNG(7, 0)
		regions := 0
		for round := range 6 {
			before := pr.length
			pr.cut(rng.Intn(in.N), 0)
			if pr.region {
				regions++
				paths := 0
				for _, sg := range pr.segs {
					for _, v := range sg.virt[:sg.m] {
						if v {
							paths++
						}
					}
				}
				if paths <= pr.p {
					t.Fatalf("%s round %d: %d paths in %d regions, want several a region", tc.name, round, paths, pr.p)
				}
			}
			pr.runRound()
			checkPartLists(t, pr)
			checkPartTour(t, pr, tc.name+" round, after the segments")
			pr.stitch(time.Hour, 0)
			pr.round++
			checkPartTour(t, pr, tc.name+" round, after the descent between segments")
			if pr.length > before {
				t.Fatalf("%s round %d: %d → %d, longer", tc.name, round, before, pr.length)
			}
		}
		if regions == 0 || pr.merged == 0 || pr.merged < pr.rejected {
			t.Fatalf("%s: %d region rounds, %d results kept, %d dropped", tc.name, regions, pr.merged, pr.rejected)
		}
		if pr.length >= start {
			t.Fatalf("%s: six rounds gained nothing on the greedy tour (%d)", tc.name, start)
		}
		t.Logf("%s (segments of %d, fixed edges %v): %d → %d, %d region results kept, %d dropped", tc.name, tc.seg, tc.fixed, start, pr.length, pr.merged, pr.rejected)
	}
}

// TestPartitionChooseShape: under "auto" the first two rounds take paths
// and then regions, later rounds the shape whose last round gained more
// per kick, and every fourth round the other one.
func TestPartitionChooseShape(t *testing.T) {
	pr := &partRun{env: &Env{Opts: Options{Shape: ShapeAuto}}}
	want := func(round int64, g0, g1 float64, region bool) {
		t.Helper()
		pr.round, pr.gain = round, [2]float64{g0, g1}
		if got := pr.chooseShape(); got != region {
			t.Fatalf("round %d, gains %v per kick: region %v, want %v", round, pr.gain, got, region)
		}
	}
	want(0, 0, 0, false)
	want(1, 5, 0, true)
	want(2, 5, 3, false)
	want(3, 5, 3, true) // the other one, every fourth round
	want(4, 2, 3, true)
	want(7, 2, 3, false)
	for shape, region := range map[Shape]bool{ShapePath: false, ShapeRegion: true} {
		pr.env.Opts.Shape = shape
		for round := range int64(5) {
			want(round, 1, 2, region)
		}
	}
}

// TestPartitionCutRegions: a region cut gives every city one cell, cells
// of about n/p cities, each listing its cities in tour order with their
// local indices, and marks as virtual exactly the pairs that are not
// consecutive in the tour; cities that all lie on one line across the
// cut's direction give no region cut.
func TestPartitionCutRegions(t *testing.T) {
	in := uniformInstance(5000, 27)
	pr := newTestPartRun(t, in, 4, func(o *Options) { o.Seg = 400 })
	n := in.N
	pos := make([]int32, n)
	for at, ct := range pr.t {
		pos[ct] = int32(at)
	}
	for _, angle := range []float64{0, 0.7, 2.9} {
		if !pr.cutRegions(angle) {
			t.Fatalf("angle %v: no cut", angle)
		}
		seen := 0
		for i, sg := range pr.segs {
			if d := sg.m - n/pr.p; d < -n/pr.p/20 || d > n/pr.p/20 {
				t.Errorf("angle %v: cell %d holds %d cities, want about %d", angle, i, sg.m, n/pr.p)
			}
			seen += sg.m
			for j, ct := range sg.cities[:sg.m] {
				if pr.segOf[ct] != int32(i) || pr.local[ct] != int32(j) {
					t.Fatalf("angle %v: city %d listed in cell %d at %d, recorded in %d at %d", angle, ct, i, j, pr.segOf[ct], pr.local[ct])
				}
				next := sg.cities[(j+1)%sg.m]
				if j+1 < sg.m && pos[next] <= pos[ct] {
					t.Fatalf("angle %v: cell %d not in tour order", angle, i)
				}
				if want := pos[next] != (pos[ct]+1)%int32(n); sg.virt[j] != want {
					t.Fatalf("angle %v: cell %d pair %d virtual %v, want %v", angle, i, j, sg.virt[j], want)
				}
			}
		}
		if seen != n {
			t.Fatalf("angle %v: cells hold %d cities of %d", angle, seen, n)
		}
	}
	// every city on one vertical line: cut across it at angle 0 (strips
	// by x), nothing to split by
	x, y := make([]float64, 600), make([]float64, 600)
	for i := range y {
		y[i] = float64(i)
	}
	line := solver.NewCoordInstance("line", solver.Euc2D, x, y, nil)
	pl := newTestPartRun(t, line, 4, func(o *Options) { o.Seg = 100 })
	if pl.cutRegions(0) {
		t.Fatal("cities on one line across the strips: cut into regions")
	}
}

// TestPartitionDeepAfter: the partition search's sequential moves keep
// depth 1 until partdeep kicks per city are made, then take the depth
// option's; partdeep 0 takes it from the start.
func TestPartitionDeepAfter(t *testing.T) {
	in := uniformInstance(2000, 28)
	pr := newTestPartRun(t, in, 2, func(o *Options) { o.Seg, o.KicksPerCity, o.SliceMS, o.Depth, o.DeepPerCity = 500, 0.5, 0, 2, 1 })
	rng := newRNG(8, 0)
	var depths []int
	for range 5 {
		pr.step(rng.Intn(in.N), 0)
		depths = append(depths, pr.depth)
	}
	// half a kick per city a round: rounds 0 and 1 before a kick per city
	if !slices.Equal(depths, []int{1, 1, 2, 2, 2}) {
		t.Fatalf("depth by round %v, want [1 1 2 2 2] (kicks %d for %d cities)", depths, pr.kicks, in.N)
	}
	checkPartTour(t, pr, "after the rounds")
	pr = newTestPartRun(t, in, 2, func(o *Options) { o.Seg, o.Depth, o.DeepPerCity = 500, 2, 0 })
	pr.step(0, 0)
	if pr.depth != 2 {
		t.Fatalf("partdeep 0: depth %d in the first round, want 2", pr.depth)
	}
}

// TestPartitionMergeBounded: a region round with many regions from the
// greedy tour, where most regions' results collide, keeps its merge
// within maxChecks one-cycle checks and a valid tour.
func TestPartitionMergeBounded(t *testing.T) {
	in := uniformInstance(20000, 29)
	pr := newTestPartRun(t, in, 4, func(o *Options) { o.Seg, o.KicksPerCity, o.Shape, o.SliceMS = 200, 0.2, ShapeRegion, 0 })
	if pr.p < 64 {
		t.Fatalf("%d regions, want many", pr.p)
	}
	pr.cut(5, 0)
	pr.runRound()
	checkPartTour(t, pr, "region round from greedy")
	if most := maxChecks(pr.p, len(pr.links.pairs), in.N); pr.checks > most {
		t.Fatalf("%d checks for %d regions, at most %d", pr.checks, pr.p, most)
	}
	if pr.merged == 0 {
		t.Fatalf("no region's result kept (%d dropped)", pr.rejected)
	}
	t.Logf("%d regions: %d kept, %d dropped, %d checks", pr.p, pr.merged, pr.rejected, pr.checks)
}

// TestRegionLinksOneCycle: the check of the tour seen from the regions'
// virtual edges agrees with a walk over every city for random sets of
// improved regions, and the tour written from a set that passes is one
// cycle through every city.
func TestRegionLinksOneCycle(t *testing.T) {
	in := uniformInstance(6000, 31)
	pr, deltas := searchedRegions(t, in, 150, 0.3, 7)
	ok := pr.linkRegions(deltas[:pr.p])
	var improved []int
	for i, v := range ok {
		if v {
			improved = append(improved, i)
		}
	}
	if len(improved) < 8 {
		t.Fatalf("%d of %d regions improved, want more", len(improved), pr.p)
	}
	// allCycle applies the regions in use to the tour's adjacency, city by
	// city, and walks it
	n := in.N
	allCycle := func() bool {
		adj := make([][2]int32, n)
		for at, ct := range pr.t {
			adj[ct] = [2]int32{pr.t[(at+n-1)%n], pr.t[(at+1)%n]}
		}
		for i, sg := range pr.segs[:pr.p] {
			if !pr.links.use[i] {
				continue
			}
			deg := make([]int, sg.m)
			for j, ct := range sg.cities[:sg.m] {
				old := adj[ct]
				for _, x := range old {
					if pr.segOf[x] != int32(i) {
						adj[ct][deg[j]] = x
						deg[j]++
					}
				}
			}
			for q, a := range sg.order[:sg.m] {
				b := sg.order[(q+1)%sg.m]
				if sg.isVirtual(a, b) {
					continue
				}
				ca, cb := sg.cities[a], sg.cities[b]
				adj[ca][deg[a]], adj[cb][deg[b]] = cb, ca
				deg[a]++
				deg[b]++
			}
		}
		prev, cur := int32(-1), int32(0)
		for steps := 1; steps <= n; steps++ {
			next := adj[cur][0]
			if next == prev {
				next = adj[cur][1]
			}
			prev, cur = cur, next
			if cur == 0 {
				return steps == n
			}
		}
		return false
	}
	rng := newRNG(31, 0)
	var cycles, splits int
	for trial := range 60 {
		clear(pr.links.use)
		for _, i := range improved {
			// from one region a set to most of them
			if trial == 0 || rng.Intn(len(improved)) < trial%len(improved)+1 {
				pr.links.use[i] = true
			}
		}
		got, want := pr.links.oneCycle(), allCycle()
		if got != want {
			t.Fatalf("trial %d: one cycle by the regions' ends %v, by every city %v", trial, got, want)
		}
		if got {
			cycles++
		} else {
			splits++
		}
	}
	if cycles == 0 || splits == 0 {
		t.Fatalf("%d sets one cycle, %d split: want both", cycles, splits)
	}
	// the best set that passes, written as the tour
	l0 := pr.length
	pr.length += pr.mergeRegions(deltas[:pr.p], time.Hour)
	if pr.merged == 0 || pr.length >= l0 {
		t.Fatalf("%d regions kept, length %d from %d", pr.merged, pr.length, l0)
	}
	checkPartTour(t, pr, "merged regions")
	t.Logf("%d regions, %d improved, %d pairs; %d sets one cycle, %d split; %d kept", pr.p, len(improved), len(pr.links.pairs), cycles, splits, pr.merged)
}

// TestMergeRescue: regions whose improved tours split the tour are put
// in all the same where joining the cycles again costs less than they
// gained, so the merge gains more than the regions it kept whole, and the
// tour stays one cycle of the length recorded.
func TestMergeRescue(t *testing.T) {
	in := uniformInstance(20000, 29)
	pr, deltas := searchedRegions(t, in, 200, 0.3, 5)
	l0 := pr.length
	change := pr.mergeRegions(deltas[:pr.p], time.Hour)
	pr.length += change
	checkPartTour(t, pr, "merged and rescued regions")
	var whole int64
	for i, use := range pr.links.use[:pr.p] {
		if use {
			whole += deltas[i]
		}
	}
	if pr.rescued == 0 || change >= whole {
		t.Fatalf("%d regions, %d rescued: change %d, the regions kept whole %d", pr.p, pr.rescued, change, whole)
	}
	t.Logf("%d regions: %d kept (%d rescued), %d dropped; %d from %d, %d of it rescued", pr.p, pr.merged, pr.rescued, pr.rejected, change, l0, change-whole)
}

// TestMergeOneRegion: a region round of one region, the whole tour with
// no virtual edge, keeps its improved tour.
func TestMergeOneRegion(t *testing.T) {
	in := uniformInstance(800, 32)
	pr := newTestPartRun(t, in, 1, func(o *Options) { o.Seg, o.KicksPerCity, o.Shape, o.SliceMS = 800, 0.5, ShapeRegion, 0 })
	pr.cut(3, 0)
	if !pr.region || pr.p != 1 {
		t.Fatalf("region round %v of %d regions, want one", pr.region, pr.p)
	}
	l0 := pr.length
	pr.runRound()
	if pr.merged != 1 || pr.length >= l0 {
		t.Fatalf("%d kept, length %d from %d", pr.merged, pr.length, l0)
	}
	checkPartTour(t, pr, "one region merged")
}

// TestPartitionAlphaLists: under alpha-nearness lists (here quadrant lists
// stand in for them: any lists that are not the nearest) every city of a
// segment keeps its global candidates that lie inside the segment and
// fills up with its nearest cities there, k distinct candidates nearest
// first, also at the segment's border (from the 2k nearest cities that
// lie inside it).
func TestPartitionAlphaLists(t *testing.T) {
	in := uniformInstance(3000, 26)
	pr := newTestPartRun(t, in, 4, func(o *Options) { o.Seg, o.Candidates = 400, ListAlpha })
	q := neighbor.Quadrant(in, 8)
	pr.nb = [2]*neighbor.Lists{q, q}
	near, wide := neighbor.Nearest(in, 8), neighbor.Nearest(in, 16)
	pr.cut(123, 0)
	border, differ := 0, 0
	for i, sg := range pr.segs {
		pr.prepare(i)
		for j, ct := range sg.cities[:sg.m] {
			row := sg.nb[j*sg.k : (j+1)*sg.k]
			got := map[int32]bool{}
			for _, lx := range row {
				got[sg.cities[lx]] = true
			}
			// from the 2k nearest that lie inside
			pool := map[int32]bool{}
			for _, l := range []*neighbor.Lists{q, wide} {
				for _, x := range l.Of(int(ct)) {
					if pr.segOf[x] == int32(i) {
						pool[x] = true
					}
				}
			}
			want := min(sg.k, len(pool))
			if len(got) != want {
				t.Fatalf("segment %d, city %d: %d distinct candidates, want %d: %v", i, ct, len(got), want, row)
			}
			inside := 0
			for _, x := range q.Of(int(ct)) {
				if pr.segOf[x] != int32(i) {
					continue
				}
				inside++
				if !got[x] {
					t.Fatalf("segment %d, city %d: alpha candidate %d inside the segment missing from %v", i, ct, x, row)
				}
			}
			if inside < sg.k {
				border++
			}
			same := true
			for _, x := range near.Of(int(ct)) {
				same = same && got[x]
			}
			if !same {
				differ++
			}
		}
	}
	if border == 0 || differ == 0 {
		t.Fatalf("cities at a border %d, with lists other than the nearest %d: want both", border, differ)
	}
	checkPartLists(t, pr)
}

// TestPartitionChooseMove: with move adapt the chain takes rounds 0 and
// 1, the 5-opt move round 2, then the one of the larger rate, the other
// every fourth round; chain and lk5 keep their move in every round.
func TestPartitionChooseMove(t *testing.T) {
	pr := &partRun{env: &Env{Opts: Options{Move: MoveAdapt}}}
	want := func(round int64, r0, r1 float64, deep bool) {
		t.Helper()
		pr.round, pr.rate = round, [2]float64{r0, r1}
		if got := pr.chooseMove(); got != deep {
			t.Fatalf("round %d, rates %v: 5-opt %v, want %v", round, pr.rate, got, deep)
		}
	}
	want(0, 0, 0, false)
	want(1, 9, 0, false)
	want(2, 9, 0, true)
	want(3, 9, 4, false)
	want(4, 2, 4, true)
	want(5, 2, 4, false) // the other one, every fourth round
	want(6, 9, 4, false)
	want(9, 9, 4, true)
	for move, deep := range map[Move]bool{MoveChain: false, MoveLK5: true} {
		pr.env.Opts.Move = move
		for round := range int64(6) {
			want(round, 1, 2, deep)
		}
	}
}

// TestPartitionAdapt: a partition search with move adapt takes both
// moves, each searching ls with this round's move, and keeps its tour
// exact.
func TestPartitionAdapt(t *testing.T) {
	in := uniformInstance(3000, 31)
	extra := func(o *Options) {
		o.Seg, o.KicksPerCity, o.SliceMS, o.Move, o.Kicks = 600, 0.3, 0, MoveAdapt, 100000
	}
	pr := newTestPartRun(t, in, 2, extra)
	rng := newRNG(4, 0)
	var deep []bool
	for range 8 {
		pr.step(rng.Intn(in.N), 1<<40)
		deep = append(deep, pr.deep)
		for wk, s := range pr.ls {
			if s != nil && (s.FiveOptState() != nil) != pr.deep {
				t.Fatalf("round %d: worker %d searched with 5-opt %v, the round %v", pr.round-1, wk, s.FiveOptState() != nil, pr.deep)
			}
		}
		checkPartTour(t, pr, "after a round")
	}
	if !slices.Contains(deep, true) || !slices.Contains(deep[2:], false) {
		t.Fatalf("moves by round %v: want both", deep)
	}
}

// searchedRegions is a partition search of in on 4 workers after a region
// round's searches, cut from offset off (segments of seg cities, kpc kicks
// a city), and the regions' changes of length, not yet merged.
func searchedRegions(t *testing.T, in *solver.Instance, seg int, kpc float64, off int) (*partRun, []int64) {
	t.Helper()
	pr := newTestPartRun(t, in, 4, func(o *Options) { o.Seg, o.KicksPerCity, o.Shape, o.SliceMS = seg, kpc, ShapeRegion, 0 })
	pr.cut(off, 0)
	if !pr.region {
		t.Fatal("not a region round")
	}
	pr.pool(pr.p, func(_, i int) { pr.prepare(i) })
	deltas, _ := pr.searchAll(false, 0)
	return pr, deltas
}

// TestMergeRegionsStopped: a region round whose run has stopped leaves
// the tour as it was, in the same order, its regions' results dropped.
func TestMergeRegionsStopped(t *testing.T) {
	in := uniformInstance(4000, 30)
	pr, deltas := searchedRegions(t, in, 300, 0.2, 5)
	found := 0
	for _, d := range deltas[:pr.p] {
		if d < 0 {
			found++
		}
	}
	pr.env.Control.Stop.Store(true)
	t0, l0 := slices.Clone(pr.t), pr.length
	if got := pr.mergeRegions(deltas[:pr.p], time.Second); got != 0 || !slices.Equal(pr.t, t0) || pr.length != l0 {
		t.Fatalf("stopped: change %d, tour changed %v", got, !slices.Equal(pr.t, t0))
	}
	if found == 0 || pr.rejected != int64(found) || pr.merged != 0 {
		t.Fatalf("%d regions improved, %d dropped, %d kept; want all dropped", found, pr.rejected, pr.merged)
	}
}

// TestTaskSlice: a search gets its share of the round's slice, at least
// the longer floor up to partLongTaskMaxN cities and the shorter above.
func TestTaskSlice(t *testing.T) {
	ms := time.Millisecond
	for _, c := range []struct {
		w, tasks, n int
		want        time.Duration
	}{
		{16, 32, 100000, 150 * ms},
		{16, 208, 1000000, partLongTask},
		{16, 2000, 10000000, partMinTask},
		{16, 16, 10000000, 300 * ms},
	} {
		if got := taskSlice(300*ms, c.w, c.tasks, c.n); got != c.want {
			t.Errorf("%d workers, %d tasks, %d cities: %v, want %v", c.w, c.tasks, c.n, got, c.want)
		}
	}
}

// TestRegionFits: a round that would cut the plane cuts paths instead
// when less than twice the last region cut's time is left of the run.
func TestRegionFits(t *testing.T) {
	pr := newTestPartRun(t, enginetest.DIMACS(t, "portgen", 3000, 3000), 2, func(o *Options) { o.Shape = ShapeRegion })
	pr.env.Control.Deadline = time.Now().Add(time.Hour)
	pr.cut(0, 0)
	if !pr.region || pr.regionCut <= 0 {
		t.Fatalf("an hour left: region %v, cut time %v", pr.region, pr.regionCut)
	}
	pr.regionCut = time.Hour
	pr.cut(0, 0)
	if pr.region {
		t.Fatal("a region round cut with less than twice its cut's time left")
	}
}

// TestPartitionDeepSlice: in a round of the 5-opt move a search's descent
// ends with its time slice, keeping what it gained, while the chain's
// descent runs to its local optimum whatever the slice.
func TestPartitionDeepSlice(t *testing.T) {
	in := uniformInstance(3000, 33)
	for _, move := range []Move{MoveLK5, MoveChain} {
		pr := newTestPartRun(t, in, 1, func(o *Options) { o.Seg, o.SliceMS, o.Move, o.Depth = 3000, 300, move, 2 })
		pr.cut(0, 0)
		pr.prepare(0)
		pr.segs[0].kicks = 0 // the descent alone
		full, _ := pr.search(0, 0, 0, time.Time{})
		cut, kicks := pr.search(0, 0, 0, time.Now())
		if cut > 0 || full >= 0 || kicks != 0 {
			t.Fatalf("move %d: gains %d (cut) and %d (full), %d kicks after the slice", move, cut, full, kicks)
		}
		if move == MoveLK5 && cut <= full {
			t.Fatalf("5-opt: the descent past its slice gained %d, the full one %d", cut, full)
		}
		if move == MoveChain && cut != full {
			t.Fatalf("chain: the descent past its slice gained %d, the full one %d", cut, full)
		}
	}
}

// TestPartitionShapeRate: a timed round records its gain per second of
// the round (at least the gain over the time around it), a round under a
// kicks budget its gain per kick.
func TestPartitionShapeRate(t *testing.T) {
	in := uniformInstance(3000, 35)
	pr := newTestPartRun(t, in, 2, func(o *Options) { o.Seg, o.SliceMS = 600, 20 })
	l0, t0 := pr.length, time.Now()
	k := pr.step(0, 0)
	secs := time.Since(t0).Seconds()
	if k == 0 || pr.length >= l0 {
		t.Fatalf("timed round: %d kicks, length %d from %d", k, pr.length, l0)
	}
	if got, floor := pr.gain[0], float64(l0-pr.length)/secs; got < floor {
		t.Fatalf("timed round: gain %.0f a second, below %.0f over the %.3f s around it", got, floor, secs)
	}
	pr = newTestPartRun(t, in, 2, func(o *Options) { o.Seg, o.SliceMS, o.KicksPerCity, o.Kicks = 600, 0, 0.5, 100000 })
	l0 = pr.length
	k = pr.step(0, 1<<40)
	if want := float64(l0-pr.length) / float64(k); pr.gain[0] != want {
		t.Fatalf("kicks budget: gain %v, want %v a kick (%d kicks)", pr.gain[0], want, k)
	}
}

// TestCrowdedRound: a fused round of a crowded run, each segment prepared
// right before its search, keeps a valid tour of exactly the length it
// records, shorter than the start.
func TestCrowdedRound(t *testing.T) {
	in := uniformInstance(12000, 9)
	pr := newTestPartRunWith(t, in, 2, func(o *Options) { o.Shape, o.SliceMS, o.KicksPerCity = ShapePath, 0, 0.05 }, solver.Aid{}, func(e *Env) { e.Crowded = true })
	if !pr.fused() {
		t.Fatal("crowded path round not fused")
	}
	l0 := pr.length
	pr.step(0, 0)
	checkPartTour(t, pr, "fused round")
	if pr.length >= l0 {
		t.Fatalf("fused round: %d, start %d", pr.length, l0)
	}
}
