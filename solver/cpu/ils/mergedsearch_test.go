package ils

import (
	"context"
	"errors"
	"github.com/tsplab/tsplab/solver/cpu/localsearch"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// newTogetherRun is auto's run of w workers on a random tour of in, its
// workers set up as newSearches does, with the 3-opt chain (the 5-opt
// move's chains make the test slow under -race).
func newTogetherRun(t *testing.T, in *solver.Instance, w int) *ilsRun {
	t.Helper()
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	p := solver.Params{Seed: 5, Workers: w, Config: func(o *ilsOptions) { o.cfg.move = deepChain }}
	o, err := e.(ilsEngine).config(in, p)
	if err != nil {
		t.Fatal(err)
	}
	r := &ilsRun{e: e.(ilsEngine), in: in, p: p, o: o, w: w, plan: e.(ilsEngine).decide(e.(ilsEngine).facts(o, in, e.(ilsEngine).given(in, p), w, p.TimeLimit)), start: time.Now(), c: runctl.NewControl(context.Background(), p, w, nil, time.Now())}
	r.kicksDone = make([]runctl.Counter, w)
	nb := neighbor.Nearest(in, 6)
	t0 := runctl.To32(rand.New(rand.NewPCG(4, 5)).Perm(in.N))
	r.newSearches(t0, nb, nb, tour.NewDist(in))
	return r
}

// checkWorkerTours fails unless every worker holds a permutation of
// exactly the length it records.
func checkWorkerTours(t *testing.T, r *ilsRun, what string) {
	t.Helper()
	for wk, s := range r.searches {
		if err := solver.ValidateTour(runctl.ToInt(s.Tour()), r.in.N); err != nil {
			t.Fatalf("%s, worker %d: %v", what, wk, err)
		}
		if got := solver.TourLength(r.in, runctl.ToInt(s.Tour())); got != s.Length() {
			t.Fatalf("%s, worker %d: recorded length %d, exact %d", what, wk, s.Length(), got)
		}
	}
}

// TestDescendTogether: the first descent runs on every worker, each on a
// segment of the start tour; it makes the base of the merge epochs,
// every worker holding it with its stretch queued; the epochs then drain
// the queues (with no kicks) to a tour that a descent over every city
// barely improves, never longer from epoch to epoch.
func TestDescendTogether(t *testing.T) {
	in := uniformInstance(3000, 6)
	r := newTogetherRun(t, in, 4)
	// a kicks budget, as a deterministic run has: the descent between the
	// segments then runs to its end rather than for a slice of wall
	// clock, which a loaded machine under -race cut short
	r.o.kicks = 1 << 20
	l0 := r.searches[0].Length()
	if !r.descendTogether() {
		t.Fatal("stopped")
	}
	for wk := range r.w {
		if r.c.Moves[wk].V.Load() == 0 {
			t.Errorf("worker %d evaluated no move of the first descent", wk)
		}
		if q, want := r.searches[wk].Queued(), len(r.mg.stretches[wk]); q != want || q == 0 {
			t.Errorf("worker %d: %d cities queued, want its stretch of %d", wk, q, want)
		}
	}
	checkWorkerTours(t, r, "after the descent")
	if r.mg.baseLen*2 > l0 || !slices.Equal(r.searches[3].Tour(), r.mg.base) {
		t.Fatalf("base %d from a random tour of %d, or not every worker's", r.mg.baseLen, l0)
	}
	for epoch := 0; ; epoch++ {
		last := r.mg.baseLen
		var wg sync.WaitGroup
		for wk := range r.w {
			wg.Go(func() { r.work(wk, 0, false) })
		}
		wg.Wait()
		r.exchange()
		checkWorkerTours(t, r, "after an epoch")
		if r.mg.baseLen > last {
			t.Fatalf("epoch %d: base grew from %d to %d", epoch, last, r.mg.baseLen)
		}
		if !slices.ContainsFunc(r.searches, func(s *localsearch.Search) bool { return s.Queued() > 0 }) {
			break
		}
		if epoch == 50 {
			t.Fatal("queues not drained in 50 epochs")
		}
	}
	nb0, k0 := r.searches[0].Neighbors()
	s := localsearch.New(r.searches[0].Dist(), nb0, k0, r.mg.base)
	r.o.configure(s)
	s.PushAll()
	s.Optimize(func() bool { return false })
	if gain := r.mg.baseLen - s.Length(); gain*200 > r.mg.baseLen {
		t.Errorf("a descent over every city still gains %d of %d", gain, r.mg.baseLen)
	}
}

// checkOwners empties the workers' queues and fails unless each city
// was queued with the worker whose stretch holds it.
func checkOwners(t *testing.T, r *ilsRun) {
	t.Helper()
	for wk, s := range r.searches {
		for s.Queued() > 0 {
			if c := s.Pop(); r.mg.owner[c] != int32(wk) {
				t.Fatalf("city %d queued with worker %d, its stretch is worker %d's", c, wk, r.mg.owner[c])
			}
		}
	}
}

// TestRedoAfterDrop: when the merge drops the changes of a worker that
// drained its queue in the epoch (they touch a city an earlier one
// changed), their cities are queued again for the next descent, each
// with the worker whose new stretch holds it; after a worker that
// kicked nothing is queued.
func TestRedoAfterDrop(t *testing.T) {
	in := uniformInstance(300, 8)
	for _, draining := range []bool{true, false} {
		r := newMergeRun(t, in, 2)
		s0, s1 := r.searches[0], r.searches[1]
		// both remove the edge after position 20: they share its cities
		g0, g1 := apply2opt(s0, 20, 150), apply2opt(s1, 20, 100)
		if g0 <= 0 || g1 <= 0 || g0 == g1 {
			t.Fatalf("gains %d, %d: want two different gains", g0, g1)
		}
		r.draining[0], r.draining[1] = draining, draining
		r.exchangeMerge()
		q := s0.Queued() + s1.Queued()
		if draining && q != 4 {
			t.Errorf("draining: %d cities queued again after the drop, want the 4 whose neighbours its 2-opt move changed", q)
		}
		if !draining && q != 0 {
			t.Errorf("kicking: %d cities queued after the drop, want none", q)
		}
		checkOwners(t, r)
	}
}

// TestKickEndsWithEpoch: a kick from a random tour starts a descent of
// the whole tour, which shortens it by half when nothing stops it; in a
// timed merge epoch that ends meanwhile the kick's descent stops there
// and is undone, and no kick is counted.
func TestKickEndsWithEpoch(t *testing.T) {
	in := uniformInstance(4000, 9)
	for _, timed := range []bool{false, true} {
		r := newTogetherRun(t, in, 2)
		s := r.searches[0]
		r.setBase(slices.Clone(s.Tour()), s.Length())
		before, l0 := slices.Clone(s.Tour()), s.Length()
		if timed {
			r.epochEnd = time.Now().Add(time.Millisecond)
		}
		r.work(0, 1, false)
		checkWorkerTours(t, r, "after the kick")
		kicks := r.kicksDone[0].V.Load()
		switch {
		case !timed && (kicks != 1 || s.Length()*2 > l0):
			t.Fatalf("untimed: %d kicks, length %d from %d: want one kick whose descent halves the tour", kicks, s.Length(), l0)
		case timed && (kicks != 0 || s.Length() != l0 || !slices.Equal(s.Tour(), before)):
			t.Errorf("timed: %d kicks, length %d from %d: want the kick undone at the epoch's end", kicks, s.Length(), l0)
		}
	}
}

// TestSlowDeviceDelaysNoTour: with the ascent on an accelerator whose
// opening waits (a GPU context being created), the workers' start tour
// and search do not wait for it; once it fails, the run ends with a tour.
func TestSlowDeviceDelaysNoTour(t *testing.T) {
	in := uniformInstance(1500, 10)
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	release := make(chan struct{})
	slow := func() (solver.AscentDevice, error) {
		<-release
		return nil, errors.New("no context")
	}
	first := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	type outcome struct {
		r   solver.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		p := solver.Params{Seed: 1, Workers: 4, TimeLimit: 10 * time.Minute, Config: func(o *ilsOptions) { o.cfg.move = deepChain }}
		r, err := solver.RunAided(ctx, e, in, p, nil, solver.Aid{Device: slow, FirstTour: first}, false)
		done <- outcome{r, err}
	}()
	select {
	case <-first:
	case o := <-done:
		t.Fatalf("the run ended before its first tour: %v", o.err)
	case <-time.After(time.Minute):
		t.Fatal("no first tour in a minute while the device was opening")
	}
	close(release)
	cancel()
	o := <-done
	if o.err != nil || solver.ValidateTour(o.r.Tour, in.N) != nil {
		t.Fatalf("after the device failed: %v", o.err)
	}
}

// TestDrainOwnStretch: in the first descent's epochs each worker descends
// only the cities of its own stretch; those of other stretches that its
// moves queue are set aside, and the merge hands every queued or set
// aside city to the one worker whose stretch holds it.
func TestDrainOwnStretch(t *testing.T) {
	in := uniformInstance(3000, 11)
	r := newTogetherRun(t, in, 4)
	if !r.descendTogether() {
		t.Fatal("stopped")
	}
	var wg sync.WaitGroup
	for wk := range r.w {
		wg.Go(func() { r.work(wk, 0, false) })
	}
	wg.Wait()
	aside := 0
	for wk, s := range r.searches {
		if s.Queued() != 0 {
			t.Fatalf("worker %d: %d cities left in an untimed epoch", wk, s.Queued())
		}
		for _, c := range r.mg.aside[wk] {
			if r.mg.owner[c] == int32(wk) {
				t.Fatalf("worker %d set aside city %d of its own stretch", wk, c)
			}
		}
		aside += len(r.mg.aside[wk])
	}
	if aside == 0 {
		t.Fatal("no move of a descent queued a city of another stretch: the test shows nothing")
	}
	r.exchange()
	checkWorkerTours(t, r, "after the merge")
	q := 0
	for wk, s := range r.searches {
		q += s.Queued()
		if len(r.mg.aside[wk]) != 0 {
			t.Fatalf("worker %d: %d cities still aside after the merge", wk, len(r.mg.aside[wk]))
		}
	}
	if q == 0 || q > in.N {
		t.Fatalf("%d cities queued after the merge, want some and each once (%d cities)", q, in.N)
	}
	checkOwners(t, r)
}
