package bound

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestSharedAscent: requests for the same instance and options at the
// same time get one ascent (the same penalties, not a copy), a later one
// the kept result, and other options, another instance or another
// Ascents their own.
func TestSharedAscent(t *testing.T) {
	in := uniformInstance(2000, 21)
	opts := Options{MaxPeriod: 30}
	var memo Ascents
	var wg sync.WaitGroup
	res := make([]Result, 3)
	for i := range res {
		wg.Go(func() {
			r, err := memo.Compute(context.Background(), in, opts)
			if err != nil {
				t.Error(err)
			}
			res[i] = r
		})
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	same := func(a, b Result) bool { return &a.Pi[0] == &b.Pi[0] }
	for i := 1; i < len(res); i++ {
		if !same(res[0], res[i]) || res[i].Bound != res[0].Bound {
			t.Fatalf("request %d ran its own ascent (bound %d against %d)", i, res[i].Bound, res[0].Bound)
		}
	}
	if memo.Underway(in, solver.AscentOptions{}) {
		t.Errorf("Underway for the default options with an ascent of MaxPeriod 30 kept")
	}
	shared := 0
	for _, r := range res {
		if r.Shared {
			shared++
		}
	}
	if shared != len(res)-1 {
		t.Errorf("%d of %d results marked shared, want all but the one that ran it", shared, len(res))
	}
	later, err := memo.StopAscent(context.Background(), nil, in, opts)
	if err != nil || !same(later, res[0]) || !later.Shared {
		t.Fatalf("a later request ran its own ascent or was not marked shared (%v)", err)
	}
	if _, err := later.AlphaCandidates(5); err != nil {
		t.Fatalf("the kept result gives no candidates: %v", err)
	}
	other, err := memo.Compute(context.Background(), in, Options{MaxPeriod: 20})
	if err != nil || same(other, res[0]) {
		t.Fatalf("other options shared the ascent (%v)", err)
	}
	again, err := memo.Compute(context.Background(), uniformInstance(2000, 21), opts)
	if err != nil || same(again, res[0]) || again.Bound != res[0].Bound {
		t.Fatalf("an equal instance: shared %v, bound %d against %d (%v)", same(again, res[0]), again.Bound, res[0].Bound, err)
	}
}

// TestAscentsKeptPerValue: an Ascents answers Underway and Alpha from the
// ascent it ran; another Ascents, and the package's Compute, share nothing.
func TestAscentsKeptPerValue(t *testing.T) {
	in := uniformInstance(300, 5)
	var memo Ascents
	l, err := memo.Alpha(context.Background(), in, 5, solver.AscentOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if l.K != 5 || len(l.List) != 5*in.N || l.Stats.AscentIterations == 0 {
		t.Fatalf("alpha lists: K %d, %d entries, %d iterations", l.K, len(l.List), l.Stats.AscentIterations)
	}
	if !memo.Underway(in, solver.AscentOptions{}) {
		t.Error("the whole ascent was not kept")
	}
	if new(Ascents).Underway(in, solver.AscentOptions{}) {
		t.Error("another Ascents found the ascent")
	}
	r, err := Compute(context.Background(), in, Options{})
	if err != nil || r.Shared {
		t.Errorf("Compute shared an ascent (%v)", err)
	}
}

// TestAlphaOnTheCoresWhenTheDeviceFails: an accelerator that cannot be
// opened gives alpha lists from an ascent on the cores, not an error.
func TestAlphaOnTheCoresWhenTheDeviceFails(t *testing.T) {
	in := uniformInstance(300, 6)
	var memo Ascents
	broken := func() (solver.AscentDevice, error) { return nil, errors.New("no context") }
	l, err := memo.Alpha(context.Background(), in, 5, solver.AscentOptions{Device: broken})
	if err != nil {
		t.Fatal(err)
	}
	if l.K != 5 || len(l.List) != 5*in.N || l.Stats.AscentOnGPU || l.Stats.AscentIterations == 0 {
		t.Fatalf("alpha lists: K %d, %d entries, on the device %v, %d iterations", l.K, len(l.List), l.Stats.AscentOnGPU, l.Stats.AscentIterations)
	}
}
