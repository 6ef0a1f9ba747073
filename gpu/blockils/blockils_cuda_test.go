//go:build cuda

package blockils

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// biCase builds a set of T tours on the device: share, all of one
// instance (table: with its distance table in shared memory); else one
// instance each (sizes ns). globalCoords puts the coordinates in global
// memory. It returns the set, the instances of the
// tours and their start tours (space-filling curve, a few random).
func biCase(t *testing.T, ru *device.Run, m solver.Metric, ns []int, share, table, globalCoords bool, seed uint64) (*biSet, []*solver.Instance, [][]int) {
	t.Helper()
	var insts []biInst
	var tourInst []int
	var ins []*solver.Instance
	var starts [][]int
	rng := rand.New(rand.NewPCG(seed, 3))
	for g, n := range ns {
		k := g
		if share || table {
			k = 0
		}
		if k == len(insts) {
			in := gputest.RandomInstance(n, m, 1e4, seed+uint64(g))
			insts = append(insts, biInst{in, neighbor.Nearest(in, biK).List})
		}
		in := insts[k].in
		tourInst = append(tourInst, k)
		ins = append(ins, in)
		st := construct.SpaceFillingCurve(in)
		if g%3 == 2 {
			st = construct.Random(in.N, rng)
		}
		starts = append(starts, st)
	}
	maxN := 0
	for _, x := range insts {
		maxN = max(maxN, x.in.N)
	}
	code, err := device.MetricCode(ins[0])
	if err != nil {
		t.Fatal(err)
	}
	var s *biSet
	err = ru.Do(func() error {
		pl, err := planBlockILS(ru, code, maxN, 4, share, table)
		if err != nil {
			return err
		}
		if globalCoords && pl.coordsShared {
			pl.coordsShared = false
			pl.shared = pl.wpb * biStateBytes(maxN)
		}
		if s, err = newBISet(ru, pl, insts, tourInst); err != nil {
			return err
		}
		var flat []int32
		for _, st := range starts {
			flat = append(flat, device.Convert[int32](st)...)
		}
		return s.put(flat)
	})
	if err != nil {
		t.Fatal(err)
	}
	return s, ins, starts
}

// TestBlockILSGainsExact runs the kernel in launches of a few kicks and
// checks after each that every tour is a permutation, that the length
// the kernel carried (start length minus its exact deltas) equals the
// CPU's length of the tour, and that the gain it summed equals the CPU's
// start length minus the tour's: every delta the kernel applied (2-opt,
// Or-opt, kicks, undone kicks) is the CPU's exact integer delta.
func TestBlockILSGainsExact(t *testing.T) {
	gputest.NeedDevice(t)
	cases := []struct {
		name         string
		m            solver.Metric
		ns           []int
		share        bool
		table        bool
		globalCoords bool
	}{
		{"pop-euc-1000", solver.Euc2D, []int{1000, 1000, 1000, 1000, 1000, 1000}, true, false, false},
		{"pop-ceil-700", solver.Ceil2D, []int{700, 700, 700, 700, 700}, true, false, false},
		{"pop-att-500-global", solver.Att, []int{500, 500, 500, 500, 500}, true, false, true},
		{"batch-euc", solver.Euc2D, []int{100, 100, 37, 250, 12, 100, 64, 10, 100}, false, false, false},
		{"batch-att-global", solver.Att, []int{100, 80, 20, 100, 100}, false, false, true},
		{"table-euc-100", solver.Euc2D, []int{100, 100, 100, 100, 100, 100}, true, true, false},
		{"table-ceil-37", solver.Ceil2D, []int{37, 37, 37}, true, true, false},
		{"table-att-200", solver.Att, []int{200, 200, 200, 200, 200}, true, true, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ru := gputest.NeedRun(t)
			s, ins, starts := biCase(t, ru, c.m, c.ns, c.share, c.table, c.globalCoords, 7)
			defer ru.Do(func() error { s.free(); return nil })
			if c.table && (!s.pl.table || s.pl.kernel != biKernel(s.pl.metric, true)) {
				t.Fatalf("plan %+v: not the table kernel", s.pl)
			}
			l0 := make([]int64, len(ins))
			for g, in := range ins {
				l0[g] = solver.TourLength(in, starts[g])
			}
			flat := make([]int32, s.offs[s.T-1]+s.ns[s.T-1])
			stall := 0
			if c.share { // the walks restart now and then
				stall = 4
			}
			for k, budget := range []int64{0, 1, 2, 5, 20, 60} {
				err := ru.Do(func() error {
					if err := s.launch(budget, uint64(k+1), time.Second, biOpts{seg: 10, or3: k%3 != 0, stall: stall}); err != nil {
						return err
					}
					return s.get(flat)
				})
				if err != nil {
					t.Fatal(err)
				}
				for g, in := range ins {
					tour := device.Convert[int](flat[s.offs[g] : s.offs[g]+s.ns[g]])
					if err := solver.ValidateTour(tour, in.N); err != nil {
						t.Fatalf("budget %d, tour %d: %v", budget, g, err)
					}
					l := solver.TourLength(in, tour)
					if s.hLens[g] != l || s.hGains[g] != l0[g]-l {
						t.Fatalf("budget %d, tour %d (n=%d): exact length %d from %d; kernel says length %d, gain %d", budget, g, in.N, l, l0[g], s.hLens[g], s.hGains[g])
					}
					if s.hKick[g] != budget {
						t.Fatalf("budget %d, tour %d: %d kicks made", budget, g, s.hKick[g])
					}
				}
			}
			if s.hCtr[1] == 0 || s.hCtr[2] == 0 || s.hCtr[4] == 0 {
				t.Fatalf("counters %v: no moves, no kicks or no 3-opt moves", s.hCtr)
			}
			t.Logf("counters %v (evaluated, made, kicks, kept, 3-opt made), %d warps a block, coordinates in shared memory: %v", s.hCtr, s.pl.wpb, s.pl.coordsShared)
		})
	}
}

// poolTours returns k tours of in: randomized nearest-neighbour starts.
func poolTours(in *solver.Instance, k int, seed uint64) [][]int32 {
	nb := neighbor.Nearest(in, 8)
	rng := rand.New(rand.NewPCG(seed, 1))
	out := make([][]int32, k)
	for i := range out {
		t, _ := construct.RandomizedNearestNeighborContext(context.Background(), in, rng.IntN(in.N), nb, rng, 0.1)
		out[i] = device.Convert[int32](t)
	}
	return out
}

// TestTourPoolImprove: the pool returns valid tours, none longer than it
// came, their lengths exact, most shorter; a second call with more tours
// grows the buffers.
func TestTourPoolImprove(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(2000, solver.Euc2D, 1e5, 5)
	p, err := OpenTourPool(in, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if p.Slots() <= 0 {
		t.Fatalf("%d slots", p.Slots())
	}
	for _, k := range []int{7, 40} {
		tours := poolTours(in, k, uint64(k))
		before := make([]int64, k)
		for i, tr := range tours {
			before[i] = solver.TourLength(in, device.Convert[int](tr))
		}
		lens, err := p.Improve(context.Background(), tours, 50)
		if err != nil {
			t.Fatal(err)
		}
		shorter := 0
		for i, tr := range tours {
			tt := device.Convert[int](tr)
			if err := solver.ValidateTour(tt, in.N); err != nil {
				t.Fatal(err)
			}
			if l := solver.TourLength(in, tt); l != lens[i] || l > before[i] {
				t.Fatalf("tour %d: length %d, reported %d, came %d", i, l, lens[i], before[i])
			}
			if lens[i] < before[i] {
				shorter++
			}
		}
		if shorter < k/2 {
			t.Fatalf("%d of %d tours shorter", shorter, k)
		}
	}
	if _, err := OpenTourPool(gputest.RandomInstance(7, solver.Euc2D, 100, 1), 1); !errors.Is(err, solver.ErrNoTourPool) {
		t.Fatalf("7 cities: %v, want ErrNoTourPool", err)
	}
}

// TestTourPoolFixedEdges: on an instance with fixed edges (pairs, and
// chains that give a city two), the pool's tours keep them all (the
// host's check in collect) and most get shorter: the moves and kicks
// that would take one out are skipped, not every move.
func TestTourPoolFixedEdges(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(3000, solver.Euc2D, 1e5, 11)
	curve := construct.SpaceFillingCurve(in)
	for i := 0; i+2 < in.N; i += 9 {
		in.FixedEdges = append(in.FixedEdges, [2]int{curve[i], curve[i+1]})
		if i%27 == 0 {
			in.FixedEdges = append(in.FixedEdges, [2]int{curve[i+1], curve[i+2]})
		}
	}
	p, err := OpenTourPool(in, 3)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	tours := poolTours(in, 24, 5)
	before := make([]int64, len(tours))
	for i, tr := range tours {
		tours[i] = device.Convert[int32](construct.KeepFixed(in, device.Convert[int](tr)))
		before[i] = solver.TourLength(in, device.Convert[int](tours[i]))
	}
	lens, err := p.Improve(context.Background(), tours, 200)
	if err != nil {
		t.Fatal(err)
	}
	shorter := 0
	for i, tr := range tours {
		if err := in.CheckFixedEdges(device.Convert[int](tr)); err != nil {
			t.Fatalf("tour %d: %v", i, err)
		}
		if lens[i] < before[i] {
			shorter++
		}
	}
	if shorter < len(tours)/2 {
		t.Fatalf("%d of %d tours shorter", shorter, len(tours))
	}
}

// TestTourPoolDeadline: a search without a kick budget is given ctx's
// deadline and runs until it, and ends at its cancellation, with valid
// tours either way.
func TestTourPoolDeadline(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(3000, solver.Euc2D, 1e5, 9)
	p, err := OpenTourPool(in, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	tours := poolTours(in, 16, 3)
	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	dl, _ := ctx.Deadline()
	if budget, got, err := poolBudget(ctx, 0); err != nil || budget != biNoBudget || !got.Equal(dl) {
		t.Fatalf("a search by time: budget %d, deadline %v (%v), want none and the context's %v", budget, got, err, dl)
	}
	if _, err := p.Improve(ctx, tours, 0); err != nil {
		t.Fatal(err)
	}
	if time.Now().Before(dl) {
		t.Error("a search by time ended before its deadline")
	}
	if _, err := p.Improve(context.Background(), tours, 0); err == nil {
		t.Fatal("no budget and no deadline: no error")
	}
	ctx2, cancel2 := context.WithTimeout(context.Background(), time.Minute)
	go func() { time.Sleep(300 * time.Millisecond); cancel2() }()
	t0 := time.Now()
	if _, err := p.Improve(ctx2, tours, 0); err != nil {
		t.Fatal(err)
	}
	if el := time.Since(t0); el > 10*time.Second {
		t.Errorf("cancelled after 0.3 s, returned after %v", el)
	}
	for i, tr := range tours {
		if err := solver.ValidateTour(device.Convert[int](tr), in.N); err != nil {
			t.Fatalf("tour %d: %v", i, err)
		}
	}
}

// TestChunkStalled: a chunk with a ring keeps its walks' stalled tours,
// at most the ring's count a search, each a valid tour of its instance
// no shorter than the shortest the search ended with; one without a ring
// keeps none.
func TestChunkStalled(t *testing.T) {
	gputest.NeedDevice(t)
	ru, err := device.NewRun()
	if err != nil {
		t.Fatal(err)
	}
	defer ru.Close()
	var ins []*solver.Instance
	var nb [][]int32
	var starts [][][]int
	for k := range 3 {
		in := gputest.RandomInstance(300+50*k, solver.Euc2D, 1e4, uint64(k+1))
		ins, nb = append(ins, in), append(nb, neighbor.Nearest(in, biK).List)
		curve := construct.SpaceFillingCurve(in)
		starts = append(starts, [][]int{curve, curve, curve, curve, curve, curve, curve, curve})
	}
	code, _ := device.MetricCode(ins[0])
	var pl BatchPlan
	if err := ru.Do(func() (err error) { pl, err = PlanBatch(ru, code, 400); return err }); err != nil {
		t.Fatal(err)
	}
	for _, ring := range []int{0, 3} {
		ch, err := OpenChunk(ru, pl, ins, nb, starts, ring, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := ch.Launch(2000, 5, time.Second, BatchSearch{Seg: 50, Stall: 20}); err != nil {
			t.Fatal(err)
		}
		all, err := ch.Tours()
		if err != nil {
			t.Fatal(err)
		}
		stalled, err := ch.Stalled()
		if err != nil {
			t.Fatal(err)
		}
		ch.Close()
		for k, in := range ins {
			if len(stalled[k]) > ring*pl.Searches() || (ring > 0 && len(stalled[k]) == 0) {
				t.Fatalf("ring %d: instance %d kept %d stalled tours of %d searches", ring, k, len(stalled[k]), pl.Searches())
			}
			shortest := int64(-1)
			for _, tr := range all[k] {
				if l := solver.TourLength(in, device.Convert[int](tr)); shortest < 0 || l < shortest {
					shortest = l
				}
			}
			for j, tr := range stalled[k] {
				tt := device.Convert[int](tr)
				if err := solver.ValidateTour(tt, in.N); err != nil {
					t.Fatalf("ring %d: instance %d, stalled tour %d: %v", ring, k, j, err)
				}
				if l := solver.TourLength(in, tt); l < shortest {
					t.Fatalf("ring %d: instance %d, stalled tour %d (%d) shorter than the searches' shortest %d", ring, k, j, l, shortest)
				}
			}
		}
	}
}

// TestChunkWorkAnyLaunches: in work mode a chunk's tours, kicks and
// stalled tours do not depend on how the launches cut the kicks (one
// long launch against many of a millisecond), and each search stops at
// its own instance's budget.
func TestChunkWorkAnyLaunches(t *testing.T) {
	gputest.NeedDevice(t)
	ru, err := device.NewRun()
	if err != nil {
		t.Fatal(err)
	}
	defer ru.Close()
	var ins []*solver.Instance
	var nb [][]int32
	var starts [][][]int
	for k := range 6 {
		in := gputest.RandomInstance(200+30*k, solver.Euc2D, 1e4, uint64(k+40))
		ins, nb = append(ins, in), append(nb, neighbor.Nearest(in, biK).List)
		curve := construct.SpaceFillingCurve(in)
		starts = append(starts, slices.Repeat([][]int{curve}, BatchMaxSearches))
	}
	code, _ := device.MetricCode(ins[0])
	var pl BatchPlan
	if err := ru.Do(func() (err error) { pl, err = PlanBatch(ru, code, 400); return err }); err != nil {
		t.Fatal(err)
	}
	work := &Work{IDs: []uint64{7, 3, 9, 1, 12, 5}, Budgets: []int64{400, 700, 400, 900, 300, 600}}
	run := func(slice time.Duration) ([][][]int32, []int64, int) {
		ch, err := OpenChunk(ru, pl, ins, nb, starts, 3, work)
		if err != nil {
			t.Fatal(err)
		}
		defer ch.Close()
		launches := 0
		for !ch.AllKicked(900) {
			if launches++; launches > 100000 {
				t.Fatal("the kicks never ended")
			}
			if err := ch.Launch(900, 11, slice, BatchSearch{Seg: 50, Stall: 30}); err != nil {
				t.Fatal(err)
			}
		}
		all, err := ch.Tours()
		if err != nil {
			t.Fatal(err)
		}
		stalled, err := ch.Stalled()
		if err != nil {
			t.Fatal(err)
		}
		kicks := make([]int64, len(ins))
		for k := range ins {
			all[k] = append(all[k], stalled[k]...)
			_, _, kicks[k] = ch.Shortest(k)
		}
		return all, kicks, launches
	}
	one, k1, n1 := run(time.Minute)
	many, k2, n2 := run(time.Millisecond)
	if n2 <= n1 {
		t.Logf("a millisecond's launches: %d, one minute's: %d (the cut is not exercised)", n2, n1)
	}
	for k := range ins {
		if k1[k] != work.Budgets[k]*int64(pl.Searches()) || k2[k] != k1[k] {
			t.Fatalf("instance %d: %d and %d kicks, want %d a search", k, k1[k], k2[k], work.Budgets[k])
		}
		if len(one[k]) != len(many[k]) {
			t.Fatalf("instance %d: %d tours in one launch, %d in %d", k, len(one[k]), len(many[k]), n2)
		}
		for j := range one[k] {
			if !slices.Equal(one[k][j], many[k][j]) {
				t.Fatalf("instance %d, tour %d differs between one launch and %d", k, j, n2)
			}
		}
	}
}
