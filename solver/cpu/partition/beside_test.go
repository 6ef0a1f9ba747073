package partition

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/enginetest"
	"github.com/tsplab/tsplab/solver/tour"
)

// TestPartitionBeside: a path improver beside the workers takes a
// stretch of consecutive segments each path round; its shorter paths are
// written back (the tour stays one cycle of the exact length recorded),
// paths that move an end or lose a city are refused, and an error ends
// its part without ending the search.
func TestPartitionBeside(t *testing.T) {
	in := uniformInstance(3000, 23)
	for _, mode := range []string{"2opt", "end", "dup", "error"} {
		pr := newTestPartRun(t, in, 4, func(o *Options) { o.Seg, o.KicksPerCity, o.Shape = 300, 0.2, ShapePath })
		f := &enginetest.FakePaths{Mode: mode}
		pr.bs = beside{paths: f, share: besideShare}
		checkPartTour(t, pr, mode+": start")
		rng := newRNG(7, 0)
		for round := range 4 {
			before := pr.length
			pr.step(rng.Intn(in.N), 0)
			checkPartTour(t, pr, mode+": round "+strconv.Itoa(round))
			if pr.length > before {
				t.Fatalf("%s, round %d: %d → %d, longer", mode, round, before, pr.length)
			}
		}
		b := pr.bs
		switch mode {
		case "2opt":
			if f.Calls != 4 || b.rounds == 0 || b.gain <= 0 || b.refused != 0 {
				t.Fatalf("2opt: %d calls, %d paths taken gaining %d, %d refused; want 4 calls and gains", f.Calls, b.rounds, b.gain, b.refused)
			}
			// 12 segments of 250 for 4 workers, the improver 4 workers'
			// worth at first: 6 segments
			if f.Sizes[0] != 1500 {
				t.Fatalf("first stretch %d cities, want 1500", f.Sizes[0])
			}
		case "end", "dup":
			if b.refused != 4 || b.rounds != 0 {
				t.Fatalf("%s: %d refused, %d taken; want all 4 refused", mode, b.refused, b.rounds)
			}
		case "error":
			if f.Calls != 1 || b.err == nil {
				t.Fatalf("error: %d calls, err %v; want one call and the error kept", f.Calls, b.err)
			}
		}
	}
}

// TestBesideFirstShare: the improver takes no stretch below
// besideSmallMaxN cities on instances that are not clustered, unless the
// aid sets a share, which it takes wherever it sets one.
func TestBesideFirstShare(t *testing.T) {
	for _, c := range []struct {
		n         int
		clustered bool
		aid, want float64
	}{
		{85900, false, 0, 0},
		{85900, true, 0, besideShare},
		{besideSmallMaxN, false, 0, besideShare},
		{1000000, false, 0, besideShare},
		{85900, false, 2, 2},
	} {
		r := &Env{In: uniformInstance(100, 1), Aid: solver.Aid{Paths: &enginetest.FakePaths{}, PathShare: c.aid}}
		b := newBeside(r)
		b.firstShare(c.n, c.clustered)
		if b.share != c.want || (b.paths == nil) != (c.want == 0) {
			t.Errorf("%d cities, clustered %v, aid's share %v: first share %v (improver %v), want %v", c.n, c.clustered, c.aid, b.share, b.paths != nil, c.want)
		}
	}
	// a partition search sets it from its own lists
	for _, kind := range []string{"portgen", "portcgen"} {
		pr := newTestPartRunAid(t, enginetest.DIMACS(t, kind, 3000, 3000), 2, func(o *Options) { o.Candidates = ListMixed }, solver.Aid{Paths: &enginetest.FakePaths{}})
		want := 0.0
		if kind == "portcgen" {
			want = besideShare
		}
		if pr.bs.share != want || (pr.bs.paths == nil) != (want == 0) || pr.clustered != (kind == "portcgen") {
			t.Errorf("%s: first share %v (improver %v, clustered %v), want %v", kind, pr.bs.share, pr.bs.paths != nil, pr.clustered, want)
		}
	}
}

// TestBesideNone: no stretch for the improver with a kicks budget (the
// run stays deterministic) or fixed edges, nor on a region round.
func TestBesideNone(t *testing.T) {
	in := uniformInstance(1000, 24)
	f := &enginetest.FakePaths{}
	r := &Env{In: in, Opts: Options{Kicks: 10}, Aid: solver.Aid{Paths: f}}
	if b := newBeside(r); b.paths != nil {
		t.Fatal("an improver on a run with a kicks budget")
	}
	r.Opts.Kicks = 0
	if b := newBeside(r); b.paths == nil || b.share != besideShare {
		t.Fatalf("no improver (share %v) on a run without a budget", b.share)
	}
	r.Aid.PathShare = 2
	if b := newBeside(r); b.share != 2 {
		t.Fatalf("share %v, want the aid's 2", b.share)
	}
	pr := newTestPartRun(t, in, 2, func(o *Options) { o.Seg = 100 })
	pr.bs = beside{paths: f, share: 2}
	pr.cutPaths(0)
	if g := pr.bs.segments(pr); g != pr.p/2 {
		t.Fatalf("%d of %d segments for a share of 2 of 2 workers, want half", g, pr.p)
	}
	pr.region = true
	if g := pr.bs.segments(pr); g != 0 {
		t.Fatalf("%d segments on a region round", g)
	}
}

// TestBesideAdapt: the share follows the gain per city and second of the
// improver against the workers', at most doubled or halved a round and
// within its bounds.
func TestBesideAdapt(t *testing.T) {
	for _, tc := range []struct {
		gain, cpu int64
		share     float64
		want      float64
	}{
		{100, 100, 4, 4}, // the same rate
		{300, 100, 4, 8}, // three times: doubled
		{50, 100, 4, 2},  // half
		{0, 100, 4, 2},   // nothing: halved
		{0, 0, 4, 4},     // neither
		{100, 0, 4, 8},   // the workers nothing
		{100, 100, 0.25, 0.25},
		{0, 100, 0.3, 0.25}, // the least
		{900, 100, 40, 64},  // the most for 16 workers
	} {
		b := beside{share: tc.share}
		b.adapt(tc.gain, 1000, time.Second, tc.cpu, 1000, time.Second, 16)
		if b.share != tc.want {
			t.Errorf("gain %d vs %d from share %v: %v, want %v", tc.gain, tc.cpu, tc.share, b.share, tc.want)
		}
	}
}

// TestTakePath: a returned path is taken exactly when it holds the
// stretch's cities once each between the same two ends and is shorter,
// with its gain the difference of the whole paths' lengths, though the
// check looks only at the positions that changed; the tour stays one
// cycle of the recorded length.
func TestTakePath(t *testing.T) {
	in := uniformInstance(2000, 25)
	d := tour.LazyDist(in)
	mutate := map[string]func(p []int32, outside int32, r *runctl.Rand){
		"descent": func(p []int32, _ int32, _ *runctl.Rand) {
			(&enginetest.FakePaths{}).ImprovePath(context.Background(), in, p, time.Time{})
		},
		"reverse": func(p []int32, _ int32, r *runctl.Rand) {
			i := 1 + r.Intn(len(p)-3)
			slices.Reverse(p[i : i+1+r.Intn(len(p)-1-i)])
		},
		"rotate": func(p []int32, _ int32, r *runctl.Rand) {
			a, b, c := 1+r.Intn(len(p)-2), 1+r.Intn(len(p)-2), 1+r.Intn(len(p)-2)
			p[a], p[b], p[c] = p[b], p[c], p[a]
		},
		// invalid: a city twice (its old place unchanged, or changed too),
		// a city from outside the stretch or none, an end moved
		"dup":      func(p []int32, _ int32, r *runctl.Rand) { p[1+r.Intn(len(p)/2)] = p[len(p)/2+r.Intn(len(p)/2-1)] },
		"dup-both": func(p []int32, _ int32, _ *runctl.Rand) { p[3], p[5], p[7] = p[7], p[7], p[3] },
		"outside":  func(p []int32, out int32, r *runctl.Rand) { p[1+r.Intn(len(p)-2)] = out },
		"range":    func(p []int32, _ int32, r *runctl.Rand) { p[1+r.Intn(len(p)-2)] = int32(in.N) },
		"end":      func(p []int32, _ int32, _ *runctl.Rand) { p[0], p[1] = p[1], p[0] },
	}
	taken := 0
	for name, mut := range mutate {
		for seed := range uint64(6) {
			r := newRNG(seed, 11)
			pr := newTestPartRun(t, in, 4, func(o *Options) { o.Seg, o.Shape = 200, ShapePath })
			pr.cutPaths(r.Intn(in.N))
			g := 3
			b := &pr.bs
			b.path = b.path[:0]
			for _, sg := range pr.segs[:g] {
				b.path = append(b.path, sg.cities[:sg.m]...)
			}
			b.old = append(b.old[:0], b.path...)
			mut(b.path, pr.segs[g].cities[0], r)
			valid := b.path[0] == b.old[0] && b.path[len(b.path)-1] == b.old[len(b.old)-1] &&
				slices.Equal(slices.Sorted(slices.Values(b.path)), slices.Sorted(slices.Values(b.old)))
			var want int64
			if valid {
				want = d.Length(b.old) - d.Length(b.path)
			}
			t0, l0 := slices.Clone(pr.t), pr.length
			got := pr.takePath(g)
			what := name + " seed " + strconv.Itoa(int(seed))
			switch {
			case !valid:
				if got != 0 || b.refused != 1 || !slices.Equal(pr.t, t0) {
					t.Fatalf("%s: an invalid path gave %d, %d refused, tour changed %v", what, got, b.refused, !slices.Equal(pr.t, t0))
				}
			case want > 0:
				taken++
				if got != want || pr.length != l0-want || b.refused != 0 {
					t.Fatalf("%s: gain %d (length %d → %d, %d refused), want %d", what, got, l0, pr.length, b.refused, want)
				}
				checkPartTour(t, pr, what)
			default:
				if got != 0 || b.refused != 0 || !slices.Equal(pr.t, t0) {
					t.Fatalf("%s: a path %d longer gave %d, %d refused, tour changed %v", what, -want, got, b.refused, !slices.Equal(pr.t, t0))
				}
			}
		}
	}
	if taken < 6 {
		t.Fatalf("%d shorter paths taken, want at least the descents'", taken)
	}
}

// TestBesideUntil: the improver is handed the run's deadline when the
// workers' searches are expected to end after it, so that nothing it
// starts is meant to run past the limit.
func TestBesideUntil(t *testing.T) {
	in := uniformInstance(3000, 26)
	pr := newTestPartRun(t, in, 4, func(o *Options) { o.Seg, o.Shape = 300, ShapePath })
	f := &enginetest.FakePaths{}
	pr.bs = beside{paths: f, share: besideShare}
	pr.cutPaths(100)
	g := pr.bs.segments(pr)
	// the searches are expected to take at least partMinTask
	dl := time.Now().Add(partMinTask / 5)
	pr.env.Control.Deadline = dl
	pr.endBeside(pr.startBeside(g), make([]int64, pr.p))
	if len(f.Untils) != 1 || f.Untils[0].After(dl) {
		t.Fatalf("the improver was handed %v, the run's deadline is %v", f.Untils, dl)
	}
	checkPartTour(t, pr, "after the stretch")
}

// TestBesideEarly: with the improver beside and the instance from the
// early phase's size, the rounds cut paths only and no descent over the
// whole tour follows them until besideEarlyKicks kicks per city; then the
// region rounds and the descent come back. Without the improver, below
// that size or with the pieces' shape given, there is no early phase.
func TestBesideEarly(t *testing.T) {
	in := uniformInstance(3000, 25)
	extra := func(o *Options) { o.Seg, o.KicksPerCity, o.SliceMS = 300, 1, 0 }
	pr := newTestPartRunWith(t, in, 4, extra, solver.Aid{}, earlyFrom(2000))
	if pr.besideEarly() {
		t.Fatal("an early phase without the improver")
	}
	pr.bs = beside{paths: &enginetest.FakePaths{}, share: besideShare}
	l0 := pr.global.Length()
	rng := newRNG(9, 0)
	earlyRounds, regions := 0, 0
	for round := range 10 {
		early := float64(pr.kicks) < besideEarlyKicks*float64(in.N)
		pr.step(rng.Intn(in.N), 0)
		checkPartTour(t, pr, "round "+strconv.Itoa(round))
		switch {
		case pr.early != early:
			t.Fatalf("round %d after %d kicks: early %v, want %v", round, pr.kicks, pr.early, early)
		case early && (pr.region || pr.global.Length() != l0):
			t.Fatalf("round %d: a region round (%v) or a descent over the whole tour in the early phase", round, pr.region)
		case !early && pr.global.Length() != pr.length:
			t.Fatalf("round %d: no descent over the whole tour after the early phase", round)
		}
		if early {
			earlyRounds++
		} else if pr.region {
			regions++
		}
	}
	if earlyRounds == 0 || regions == 0 || pr.length >= l0 {
		t.Fatalf("%d early rounds, %d region rounds after them, %d → %d; want both and a gain", earlyRounds, regions, l0, pr.length)
	}
	pr.kicks = 0
	for _, tc := range []struct {
		lo    int
		shape Shape
	}{{in.N + 1, ShapeAuto}, {2000, ShapePath}} {
		pr.env.EarlyMinN, pr.env.Opts.Shape = tc.lo, tc.shape
		if pr.besideEarly() {
			t.Fatalf("an early phase on %d cities from %d and shape %v", in.N, tc.lo, tc.shape)
		}
	}
	// under chained LK in the pieces the phase ends at besideEarlyKicksLK
	pr.env.EarlyMinN, pr.env.Opts.Shape = 2000, ShapeAuto
	lk := int64(besideEarlyKicksLK * float64(in.N))
	for _, tc := range []struct {
		kicks int64
		lk    bool
		want  bool
	}{{lk - 1, true, true}, {lk, true, false}, {lk, false, true}} {
		pr.kicks, pr.lkSeen = tc.kicks, nil
		if tc.lk {
			pr.lkSeen = make([]uint64, in.N)
		}
		if got := pr.besideEarly(); got != tc.want {
			t.Errorf("%d kicks, chained LK %v: early %v, want %v", tc.kicks, tc.lk, got, tc.want)
		}
	}
}

// TestBesideLayout: a path round beside the improver gives the workers
// a multiple of their number of segments and the improver its share of
// the tour in segments of the same size, so that every worker searches
// a segment in a round where the improver holds a stretch; without the
// improver, and on region rounds, the layout stays partLayout's.
func TestBesideLayout(t *testing.T) {
	for _, tc := range []struct {
		n, w, size int
		share      float64
		p, g       int
	}{
		{85900, 16, 5000, 4, 20, 4},
		{100000, 16, 5000, 4, 20, 4},
		{100000, 16, 5000, 0.25, 17, 1},
		{100000, 16, 5000, 64, 80, 64},
		{50000, 16, 3125, 4, 20, 4},
		{1000000, 16, 5000, 4, 200, 40},
		{1000000, 16, 5000, 2, 198, 22},
		{1000, 16, 5000, 4, 0, 0}, // segments under partMinSegment
	} {
		p, g := besideLayout(tc.n, tc.w, tc.size, tc.share)
		if p != tc.p || g != tc.g {
			t.Errorf("n %d, %d workers, segments of %d, share %v: %d segments, %d for the improver; want %d, %d", tc.n, tc.w, tc.size, tc.share, p, g, tc.p, tc.g)
		}
		if g > 0 && (p-g)%tc.w != 0 {
			t.Errorf("n %d: %d segments for %d workers", tc.n, p-g, tc.w)
		}
	}

	// 3,000 cities on 4 workers in segments of 750: one segment a worker,
	// of which partLayout's layout would give the improver two
	in := uniformInstance(3000, 27)
	const w = 4
	pr := newTestPartRun(t, in, w, func(o *Options) { o.Seg, o.KicksPerCity, o.SliceMS, o.Shape = 750, 0.2, 0, ShapePath })
	base, rep := partLayout(in.N, w, 750)
	if pr.p != base || pr.rep != rep {
		t.Fatalf("without the improver %d × %d segments, want partLayout's %d × %d", pr.p, pr.rep, base, rep)
	}
	f := &enginetest.FakePaths{}
	pr.bs = beside{paths: f, share: besideShare}
	rng := newRNG(8, 0)
	for round, share := range []float64{4, 1, 0.25, 12, 4} {
		pr.bs.share = share
		for wk := range w {
			pr.env.Control.Moves[wk].V.Store(0)
		}
		pr.cut(rng.Intn(in.N), 0)
		g := pr.bs.segments(pr)
		calls := f.Calls
		pr.runRound()
		what := "round " + strconv.Itoa(round)
		checkPartTour(t, pr, what)
		if g < 1 || (pr.p-g)%w != 0 || pr.p-g < w || f.Calls != calls+1 {
			t.Fatalf("%s, share %v: the improver took %d of %d segments (%d calls); want a multiple of %d left", what, share, g, pr.p, f.Calls-calls, w)
		}
		for wk := range w {
			if pr.env.Control.Moves[wk].V.Load() == 0 {
				t.Fatalf("%s, share %v: worker %d searched nothing while the improver took %d of %d segments", what, share, wk, g, pr.p)
			}
		}
		for i, sg := range pr.segs {
			if d := sg.m - in.N/pr.p; d < 0 || d > 1 {
				t.Fatalf("%s: segment %d of %d holds %d cities", what, i, pr.p, sg.m)
			}
		}
	}
	pr.env.Opts.Shape = ShapeRegion
	pr.cut(0, 0)
	if !pr.region || pr.p != base || pr.bs.segments(pr) != 0 || len(pr.segs) != base {
		t.Fatalf("a region round (%v) of %d segments (%d listed), %d for the improver; want %d, none", pr.region, pr.p, len(pr.segs), pr.bs.segments(pr), base)
	}
}

// TestBesideEarlySegments: the early phase's path rounds aim at segments
// of besideEarlySegment cities, the rounds after it at partSize's (the
// layout beside the improver laid again at the switch), a segment size
// given as an option at that size throughout; the tour stays one cycle
// of the recorded length across the switch.
func TestBesideEarlySegments(t *testing.T) {
	in := uniformInstance(20000, 28)
	for _, seg := range []int{0, 4000} {
		extra := func(o *Options) { o.KicksPerCity, o.SliceMS, o.Seg = 0.02, 0, seg }
		early, later := besideEarlySegment, partSize(in.N, 1, 0, partSegment)
		if seg > 0 {
			early, later = seg, seg
		}
		pr := newTestPartRunWith(t, in, 1, extra, solver.Aid{}, earlyFrom(10000))
		pr.bs = beside{paths: &enginetest.FakePaths{Mode: "keep"}, share: 1}
		rng := newRNG(10, 0)
		for round := range 4 {
			if round == 1 {
				pr.kicks = int64(besideEarlyKicks * float64(in.N)) // the early phase is over
			}
			share := pr.bs.share
			pr.step(rng.Intn(in.N), 0)
			what := "partseg " + strconv.Itoa(seg) + ", round " + strconv.Itoa(round)
			checkPartTour(t, pr, what)
			size := later
			if round == 0 {
				size = early
			}
			want, _ := besideLayout(in.N, 1, size, share)
			if pr.region {
				want, _ = partLayout(in.N, 1, later)
			}
			if pr.early != (round == 0) || pr.p != want || len(pr.segs) != want {
				t.Fatalf("%s (early %v, region %v): %d segments (%d listed), want %d of about %d cities", what, pr.early, pr.region, pr.p, len(pr.segs), want, size)
			}
			for i, sg := range pr.segs {
				if d := sg.m - in.N/pr.p; !pr.region && (d < 0 || d > 1) {
					t.Fatalf("%s: segment %d of %d holds %d cities", what, i, pr.p, sg.m)
				}
			}
		}
	}
}
