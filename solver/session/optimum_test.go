package session

import (
	"context"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// bruteOptimum is the shortest tour of in by trying every order of the
// cities after city 0.
func bruteOptimum(in *solver.Instance) int64 {
	t := solver.IdentityTour(in.N)
	best := solver.TourLength(in, t)
	var perm func(k int)
	perm = func(k int) {
		if k == in.N {
			best = min(best, solver.TourLength(in, t))
			return
		}
		for i := k; i < in.N; i++ {
			t[k], t[i] = t[i], t[k]
			perm(k + 1)
			t[k], t[i] = t[i], t[k]
		}
	}
	perm(1)
	return best
}

func TestExactOptimum(t *testing.T) {
	for n := 3; n <= 9; n++ {
		for seed := range uint64(3) {
			in := scatter(n, seed+10*uint64(n))
			if got, want := exactThrough(in, 0, -1), bruteOptimum(in); got != want {
				t.Errorf("%d cities, seed %d: %d, want %d", n, seed, got, want)
			}
		}
	}
}

// TestExactThroughFixedEdge: the optimum through a fixed edge is the
// shortest tour that holds it.
func TestExactThroughFixedEdge(t *testing.T) {
	in := scatter(8, 5)
	t0 := solver.IdentityTour(in.N)
	best := int64(-1)
	var perm func(k int)
	perm = func(k int) {
		if k == in.N {
			for i := range t0 {
				a, b := t0[i], t0[(i+1)%in.N]
				if a == 2 && b == 6 || a == 6 && b == 2 {
					if l := solver.TourLength(in, t0); best < 0 || l < best {
						best = l
					}
				}
			}
			return
		}
		for i := k; i < in.N; i++ {
			t0[k], t0[i] = t0[i], t0[k]
			perm(k + 1)
			t0[k], t0[i] = t0[i], t0[k]
		}
	}
	perm(1)
	if got := exactThrough(in, 2, 6); got != best {
		t.Errorf("through 3-7: %d, want %d", got, best)
	}
}

// TestPrepareProvesSmallOptimum: a plan of a small instance without a
// known optimum carries its exact optimum, and the run stops there.
func TestPrepareProvesSmallOptimum(t *testing.T) {
	in := ring(12)
	// A convex polygon's optimum is its perimeter (ring's own optimum):
	// 12 cities are 11! tours, minutes under the race detector by brute
	// force, which TestExactOptimum holds exactThrough to up to 9 cities.
	want := in.Optimum
	in.Optimum, in.OptimumSource = 0, ""
	var pl Pipeline
	// the fake engine does not stop at a target: tsp's tests run a real one
	plan, _, err := pl.Plan(in, solver.Params{Algorithm: "fake", Backend: solver.BackendCPU, Seed: 1, TimeLimit: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	if in.HasOptimum() {
		t.Fatal("Prepare changed the caller's instance")
	}
	if plan.In.Optimum != want || plan.In.OptimumSource != ExactSource {
		t.Fatalf("plan's optimum %d from %q, want %d", plan.In.Optimum, plan.In.OptimumSource, want)
	}
	out, err := plan.Run(context.Background(), Request{})
	if err != nil || out.Result.StopReason != solver.StopOptimum || out.Result.Length != plan.In.Optimum {
		t.Fatalf("run: %v, stop %q at %d", err, out.Result.StopReason, out.Result.Length)
	}
}

// TestRunStopsAtBound: a run whose best tour reaches the lower bound
// proven beside it stops there, with the reason optimum.
func TestRunStopsAtBound(t *testing.T) {
	in := ring(40) // convex: the bound is the optimum, which 2-opt reaches
	in.Optimum, in.OptimumSource = 0, ""
	var pl Pipeline
	plan, _, err := pl.Plan(in, solver.Params{Algorithm: "fake", Backend: solver.BackendCPU, Seed: 1, TimeLimit: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	out, err := plan.Run(context.Background(), Request{Bound: true})
	if err != nil || out.Result.StopReason != solver.StopOptimum {
		t.Fatalf("run: %v, stop %q at %d", err, out.Result.StopReason, out.Result.Length)
	}
	if out.Bound == nil || out.Bound.Bound != out.Result.Length {
		t.Errorf("bound %v, length %d", out.Bound, out.Result.Length)
	}
}
