package device

import (
	"context"
	"errors"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

func TestSelectMovesDisjointExactAndApplied(t *testing.T) {
	in := hostInstance(300, 1)
	rng := rand.New(rand.NewPCG(2, 2))
	tr := construct.Random(in.N, rng)
	var cands []TwoOptMove
	for k := 0; k < 400; k++ {
		i := rng.IntN(in.N - 2)
		j := i + 2 + rng.IntN(in.N-i-2)
		cands = append(cands, TwoOptMove{I: i, J: j})
	}
	cands = append(cands, TwoOptMove{I: 0, J: in.N - 1}, TwoOptMove{I: 5, J: 6}) // no moves
	sel := SelectMoves(in, tr, cands)
	if len(sel) == 0 {
		t.Fatal("no improving move selected on a random tour")
	}
	for k, m := range sel {
		if !ValidMove(m.I, m.J, in.N) || m.Delta >= 0 || m.Delta != ExactDelta(in, tr, m.I, m.J) {
			t.Fatalf("bad selected move %+v (exact %d)", m, ExactDelta(in, tr, m.I, m.J))
		}
		if k > 0 && sel[k-1].J >= m.I {
			t.Fatalf("moves %+v and %+v overlap", sel[k-1], m)
		}
	}
	before := solver.TourLength(in, tr)
	sum := ApplyMoves(tr, sel)
	if err := solver.ValidateTour(tr, in.N); err != nil {
		t.Fatal(err)
	}
	if after := solver.TourLength(in, tr); after != before+sum {
		t.Fatalf("length %d after moves, want %d + %d", after, before, sum)
	}
}

func TestNextArrayRoundTrip(t *testing.T) {
	tr := construct.Random(50, rand.New(rand.NewPCG(3, 3)))
	back, err := NextToTour(TourToNext(tr))
	if err != nil {
		t.Fatal(err)
	}
	// Same cycle, rotated to start at city 0.
	k := 0
	for tr[k] != 0 {
		k++
	}
	for i := range back {
		if back[i] != tr[(k+i)%len(tr)] {
			t.Fatalf("round trip differs at %d", i)
		}
	}
	if _, err := NextToTour([]int32{1, 0, 3, 2}); err == nil {
		t.Fatal("two cycles accepted")
	}
	if _, err := NextToTour([]int32{1, 9, 0}); err == nil {
		t.Fatal("out-of-range successor accepted")
	}
}

func TestDoubleBridgeKeepsPermutation(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	for k := 0; k < 200; k++ {
		tr := construct.Random(40+k, rng)
		doubleBridge(tr, rng, 30)
		if err := solver.ValidateTour(tr, 40+k); err != nil {
			t.Fatal(err)
		}
	}
}

func TestPolish2OptReachesLocalOptimum(t *testing.T) {
	in := hostInstance(400, 5)
	tr := construct.Random(in.N, rand.New(rand.NewPCG(5, 5)))
	nb := neighbor.Nearest(in, 10)
	before := solver.TourLength(in, tr)
	Polish2Opt(in, tr, nb)
	if err := solver.ValidateTour(tr, in.N); err != nil {
		t.Fatal(err)
	}
	after := solver.TourLength(in, tr)
	if after >= before {
		t.Fatalf("polish did not improve: %d -> %d", before, after)
	}
	// No improving 2-opt move remains whose new edge (a, c) joins neighbour-
	// list candidates and is shorter than a tour edge at a or c (the moves
	// the neighbour-list search is complete for).
	pos := make([]int, in.N)
	for k, c := range tr {
		pos[c] = k
	}
	for a := 0; a < in.N; a++ {
		for _, c := range nb.Of(a) {
			// The move that adds (a, c) and removes (a, succ a).
			i, j := pos[a], pos[int(c)]
			short := in.Dist(a, int(c)) < in.Dist(a, tr[(i+1)%in.N])
			if i > j {
				i, j = j, i
			}
			if ValidMove(i, j, in.N) && short && ExactDelta(in, tr, i, j) < 0 {
				t.Fatalf("improving move (%d,%d) left after polish", i, j)
			}
		}
	}
}

func TestMetricSupport(t *testing.T) {
	m := solver.NewMatrixInstance("m", 5, make([]int32, 25))
	if _, err := MetricCode(m); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("EXPLICIT: got %v, want ErrUnsupported", err)
	}
	g := hostInstance(10, 6)
	g.Metric = solver.Geo
	if _, err := MetricCode(g); !errors.Is(err, ErrUnsupported) {
		t.Fatalf("GEO: got %v", err)
	}
	gc := hostInstance(10, 6)
	gc.Metric = solver.GreatCircle
	if _, err := MetricCode(gc); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "GREAT_CIRCLE") {
		t.Fatalf("GREAT_CIRCLE: got %v, want ErrUnsupported naming it", err)
	}
	if c, err := MetricCode(hostInstance(10, 7)); err != nil || c != MetricEuc2D {
		t.Fatalf("EUC_2D: %d %v", c, err)
	}
}

// The start tour startTour returns is improved in place by the engines
// while the snapshot that announced it may still be read (drawn, kept as
// a session's best): the two must not share memory.
func TestStartTourSnapshotIsACopy(t *testing.T) {
	in := hostInstance(200, 3)
	snaps := make(chan solver.Snapshot, 16)
	sink := solver.NewSink(snaps, time.Nanosecond, time.Now())
	_, tr, ok := StartTour(context.Background(), time.Time{}, in, solver.Params{}, 8, sink)
	if !ok {
		t.Fatal("startTour gave way with no deadline")
	}
	close(snaps)
	var sent []int
	for s := range snaps {
		if s.Best != nil {
			sent = s.Best
		}
	}
	if sent == nil {
		t.Fatal("no snapshot with the start tour")
	}
	want := slices.Clone(sent)
	for i := range tr {
		tr[i] = -1 // the engine improving its tour in place
	}
	if !slices.Equal(sent, want) {
		t.Fatal("the start tour's snapshot shares memory with the tour the engine improves")
	}
}

// A run that ends during startTour's candidate lists leaves no search
// running: startTour's own goroutines are gone when it returns (the lists
// of 300,000 cities take seconds of every core).
func TestStartTourStopsItsSearch(t *testing.T) {
	in := hostInstance(300_000, 4)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(20 * time.Millisecond); cancel() }()
	if _, _, ok := StartTour(ctx, time.Time{}, in, solver.Params{}, 10, nil); ok {
		t.Skip("the lists were done within 20 ms: nothing to check on this machine")
	}
	buf := make([]byte, 1<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	if strings.Contains(stacks, "gpu.startTour.func") {
		t.Errorf("startTour returned with its search still running:\n%s", stacks)
	}
}

// hostInstance is n cities uniform in a 1000×1000 square (EUC_2D).
func hostInstance(n int, seed uint64) *solver.Instance {
	return testinst.IntEuc(n, 1000, rand.New(rand.NewPCG(seed, 1)))
}
