//go:build cuda

package batch

import (
	"context"
	"errors"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/blockils"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// TestSolve: every result valid and re-measured, no longer than the
// greedy start, the tiny instances optimal, the kick budget kept.
func TestSolve(t *testing.T) {
	gputest.NeedDevice(t)
	var ins []*solver.Instance
	for i := 0; i < 300; i++ {
		n := 100
		switch i % 50 {
		case 7:
			n = 7
		case 8:
			n = 12
		case 9:
			n = 400
		}
		ins = append(ins, gputest.RandomInstance(n, solver.Euc2D, 1e4, uint64(100+i)))
	}
	ins = append(ins, gputest.RandomInstance(60, solver.Att, 1e4, 1))
	p := withOpts(t, solver.Params{Seed: 1}, "kicks=300")
	res, err := Solve(context.Background(), ins, p)
	if err != nil {
		t.Fatal(err)
	}
	for i, in := range ins {
		r := res[i]
		if err := solver.ValidateTour(r.Tour, in.N); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
		if r.Length != solver.TourLength(in, r.Tour) {
			t.Fatalf("%d: length %d not exact", i, r.Length)
		}
		if in.N < blockils.BatchMinN {
			if r.Length != solver.TourLength(in, exactSmall(in)) {
				t.Fatalf("%d: %d cities not optimal", i, in.N)
			}
			continue
		}
		g := solver.TourLength(in, construct.Greedy(in, neighbor.Quadrant(in, blockils.BatchK)))
		if r.Length > g || r.Steps < 300 || r.Steps%300 != 0 { // 300 a search
			t.Fatalf("%d (n=%d): length %d, greedy %d, %d kicks", i, in.N, r.Length, g, r.Steps)
		}
	}
	t.Logf("%s", res[0].Device)
	// a batch searching by time (kicks=0) ends at its time limit, and says so
	timed, err := Solve(context.Background(), ins[:50], withOpts(t, solver.Params{Seed: 2, TimeLimit: 400 * time.Millisecond}, "kicks=0"))
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range timed {
		if ins[i].N >= blockils.BatchMinN && (!r.Stopped || r.StopReason != solver.StopTime) {
			t.Fatalf("%d of a 0.4-s batch: stopped %v (%v), want by its time limit", i, r.Stopped, r.StopReason)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Solve(ctx, ins[:10], solver.Params{TimeLimit: time.Minute}); err == nil {
		t.Fatal("a cancelled batch: no error")
	}
	_, err = Solve(context.Background(), []*solver.Instance{solver.NewCoordInstance("geo", solver.Geo, make([]float64, 20), make([]float64, 20), nil)}, p)
	if !errors.Is(err, device.ErrUnsupported) {
		t.Fatalf("a GEO instance: %v, want ErrUnsupported", err)
	}
}

// TestSolveOnEachGPU: tsp batch's two GPUs at once, each a chunk of its
// own on the device its params name (the label says which), every tour
// valid; on a machine of fewer than two GPUs it skips.
func TestSolveOnEachGPU(t *testing.T) {
	gputest.NeedDevice(t)
	gpus, err := device.GPUs()
	if err != nil || len(gpus) < 2 {
		t.Skipf("needs two GPUs: %d here (%v)", len(gpus), err)
	}
	ins := make([]*solver.Instance, 200)
	for i := range ins {
		ins[i] = gputest.RandomInstance(100, solver.Euc2D, 1e4, uint64(500+i))
	}
	res := make([][]solver.Result, 2)
	errs := device.OnEach(2, func(g int) error {
		p := withOpts(t, solver.Params{Seed: 1}, "kicks=200", device.OptGPUs+"="+[]string{"0,", "1,"}[g])
		var err error
		res[g], err = Solve(context.Background(), ins[g*100:(g+1)*100], p)
		return err
	})
	for g, err := range errs {
		if err != nil {
			t.Fatalf("GPU %d: %v", g, err)
		}
		for i, r := range res[g] {
			gputest.CheckResult(t, ins[g*100+i].Name, ins[g*100+i], r)
		}
	}
	if strings.HasPrefix(res[0][0].Device, "GPU ") || !strings.HasPrefix(res[1][0].Device, "GPU 1.0 ") {
		t.Errorf("devices %q and %q; want device 0's label, then GPU 1.0's", res[0][0].Device, res[1][0].Device)
	}
}

// TestSameWhateverTheChunk: under the default work budget an instance's
// tour depends on its id and the seed alone: the batch solved as one
// chunk, and as three chunks of other instances in another order, each
// joined from its instances prepared one by one (as tsp batch does),
// gives the same tours, and the default budget is each instance's size's,
// said in its result's params.
func TestSameWhateverTheChunk(t *testing.T) {
	gputest.NeedDevice(t)
	var ins []*solver.Instance
	for i := range 120 {
		n := []int{60, 100, 130, 250, 7}[i%5]
		ins = append(ins, gputest.RandomInstance(n, solver.Euc2D, 1e4, uint64(900+i)))
	}
	p := solver.Params{Seed: 3}
	ru, err := device.NewRunOf(p)
	if err != nil {
		t.Fatal(err)
	}
	defer ru.Close()
	solveIDs := func(idx []int, joined bool) map[int]solver.Result {
		sub, ids := make([]*solver.Instance, len(idx)), make([]uint64, len(idx))
		for k, i := range idx {
			sub[k], ids[k] = ins[i], uint64(i)
		}
		pr, err := Prepare(context.Background(), sub, ids, p)
		if err != nil {
			t.Fatal(err)
		}
		if joined {
			one := make([]*Prepared, len(idx))
			for k := range idx {
				if one[k], err = Prepare(context.Background(), sub[k:k+1], ids[k:k+1], p); err != nil {
					t.Fatal(err)
				}
			}
			pr = Join(one)
		}
		if err := pr.Search(context.Background(), ru); err != nil {
			t.Fatal(err)
		}
		res, err := pr.Finish()
		if err != nil {
			t.Fatal(err)
		}
		out := map[int]solver.Result{}
		for k, i := range idx {
			out[i] = res[k]
		}
		return out
	}
	all := make([]int, len(ins))
	for i := range all {
		all[i] = i
	}
	whole := solveIDs(all, false)
	parts := map[int]solver.Result{}
	for c := range 3 {
		var idx []int
		for i := len(ins) - 1 - c; i >= 0; i -= 3 {
			idx = append(idx, i)
		}
		maps.Copy(parts, solveIDs(idx, true))
	}
	for i, in := range ins {
		a, b := whole[i], parts[i]
		gputest.CheckResult(t, in.Name, in, a)
		if !slices.Equal(a.Tour, b.Tour) || a.Steps != b.Steps {
			t.Fatalf("instance %d (%d cities): %d (%d kicks) in one chunk, %d (%d kicks) in three", i, in.N, a.Length, a.Steps, b.Length, b.Steps)
		}
		if in.N < blockils.BatchMinN {
			continue // solved exactly on the host
		}
		w := blockils.BatchMaxSearches
		if in.N > 110 {
			w = 0 // fewer searches where the table does not fit
		}
		k := batchKicksFor(in.N)
		if in.N >= mergeMinN && a.Steps < k*batchMergedCopies {
			t.Fatalf("instance %d (%d cities): %d kicks, want those of %d blocks of %d a search", i, in.N, a.Steps, batchMergedCopies, k)
		}
		if a.Steps%k != 0 || (w > 0 && a.Steps != k*int64(w)) || a.Params.Text("kicks") != strconv.FormatInt(k, 10) {
			t.Fatalf("instance %d (%d cities): %d kicks, kicks=%q in its params, want %d a search", i, in.N, a.Steps, a.Params.Text("kicks"), k)
		}
	}
}

// withOpts returns p with the settings, "name=value" as --opt and tsp
// batch take them: a batch reads its kicks from their text.
func withOpts(tb testing.TB, p solver.Params, settings ...string) solver.Params {
	tb.Helper()
	for _, s := range settings {
		if err := p.Set(s); err != nil {
			tb.Fatalf("%s: %v", s, err)
		}
	}
	return p
}
