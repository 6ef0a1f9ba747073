package ils

import (
	"context"
	"github.com/tsplab/tsplab/solver/cpu/localsearch"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// newMergeRun is a run of w workers on a random tour of in, cut into
// stretches by setBase.
func newMergeRun(t *testing.T, in *solver.Instance, w int) *ilsRun {
	t.Helper()
	e, _ := solver.Lookup("auto", solver.BackendCPU)
	p := solver.Params{Seed: 1, Workers: w}
	o, err := e.(ilsEngine).config(in, p)
	if err != nil {
		t.Fatal(err)
	}
	r := &ilsRun{e: e.(ilsEngine), in: in, p: p, o: o, w: w, plan: e.(ilsEngine).decide(e.(ilsEngine).facts(o, in, p.Given, w, p.TimeLimit)), c: runctl.NewControl(context.Background(), p, w, nil, time.Now())}
	d, nb := tour.NewDist(in), neighbor.Nearest(in, 8)
	t0 := runctl.To32(rand.New(rand.NewPCG(2, 3)).Perm(in.N))
	r.searches = make([]*localsearch.Search, w)
	r.wbestLen, r.stale = make([]int64, w), make([]int, w)
	for i := range r.searches {
		r.searches[i] = localsearch.New(d, nb.List, nb.K, t0)
		r.searches[i].SetRand(newRNG(1, uint64(i)))
	}
	r.setBase(slices.Clone(t0), r.searches[0].Length())
	return r
}

// apply2opt makes the 2-opt move removing the edges after positions x < y
// of s and returns its gain.
func apply2opt(s *localsearch.Search, x, y int) int64 {
	d, p := s.Dist(), s.Tour()
	g := d.At(p[x], p[x+1]) + d.At(p[y], p[y+1]) - d.At(p[x], p[y]) - d.At(p[x+1], p[y+1])
	t := slices.Clone(p)
	slices.Reverse(t[x+1 : y+1])
	s.Load(t)
	return g
}

// improve2opt applies to s the first improving 2-opt move whose removed
// edges start at positions in [lo, hi) and returns its gain.
func improve2opt(t *testing.T, s *localsearch.Search, lo, hi int) int64 {
	t.Helper()
	d := s.Dist()
	for i := lo; i < hi; i++ {
		for j := i + 2; j < hi; j++ {
			a, b, c, e := s.Tour()[i], s.Tour()[i+1], s.Tour()[j], s.Tour()[j+1]
			if d.At(a, b)+d.At(c, e)-d.At(a, c)-d.At(b, e) > 0 {
				return apply2opt(s, i, j)
			}
		}
	}
	t.Fatalf("no improving 2-opt move in [%d, %d)", lo, hi)
	return 0
}

// TestMergeAddsUp: changes of two workers in separate stretches are both
// merged and their gains add up; a worker's change that touches a city
// already changed is left out; the merged tour is a tour of exactly the
// length the merge computes, which every worker then holds.
func TestMergeAddsUp(t *testing.T) {
	in := uniformInstance(400, 5)
	r := newMergeRun(t, in, 3)
	l0 := r.mg.baseLen
	g0 := improve2opt(t, r.searches[0], 0, 100)
	g1 := improve2opt(t, r.searches[1], 200, 300)
	// worker 2 makes worker 0's move again: the same cities
	r.searches[2].Load(r.searches[0].Tour())
	r.exchangeMerge()
	want := l0 - g0 - g1
	for i, s := range r.searches {
		if err := solver.ValidateTour(runctl.ToInt(s.Tour()), in.N); err != nil {
			t.Fatalf("worker %d: %v", i, err)
		}
		if got := s.Dist().Length(s.Tour()); got != want || s.Length() != want {
			t.Fatalf("worker %d: length %d, recorded %d, want %d (base %d, gains %d + %d)", i, got, s.Length(), want, l0, g0, g1)
		}
	}
	if r.mg.baseLen != want {
		t.Errorf("base length %d, want %d", r.mg.baseLen, want)
	}
}

// TestMergeKeepsOneCycle: two 2-opt moves whose positions interleave are
// each a tour alone and two cycles together; the merge keeps the longer
// gain's move only, and the result is still a tour of the length it
// records.
func TestMergeKeepsOneCycle(t *testing.T) {
	in := uniformInstance(300, 8)
	for trial := range 20 {
		r := newMergeRun(t, in, 2)
		l0 := r.mg.baseLen
		s0, s1 := r.searches[0], r.searches[1]
		rng := rand.New(rand.NewPCG(uint64(trial), 1))
		// removed edges at positions i < a < j < b, far enough apart to
		// share no city
		i := rng.IntN(50)
		a := i + 10 + rng.IntN(50)
		j := a + 10 + rng.IntN(50)
		b := j + 10 + rng.IntN(50)
		g0, g1 := apply2opt(s0, i, j), apply2opt(s1, a, b)
		if g0 < 0 || g1 < 0 {
			continue // the merge takes no longer tour
		}
		r.exchangeMerge()
		want := l0 - max(g0, g1)
		for k, s := range r.searches {
			if err := solver.ValidateTour(runctl.ToInt(s.Tour()), in.N); err != nil {
				t.Fatalf("trial %d worker %d: %v", trial, k, err)
			}
			if got := s.Dist().Length(s.Tour()); got != s.Length() || got != want {
				t.Fatalf("trial %d worker %d: length %d, recorded %d, want %d", trial, k, got, s.Length(), want)
			}
		}
	}
}

// TestMergeDeterministic: auto with merged workers and a kicks budget
// makes the same valid tour, of the length it reports, twice.
func TestMergeDeterministic(t *testing.T) {
	in := uniformInstance(1200, 4)
	p := solver.Params{Seed: 2, Workers: 4, Config: func(o *ilsOptions) { o.kicks, o.cfg.candidates = 150, listNearest }}
	a, b := solve(t, "auto", in, p, nil), solve(t, "auto", in, p, nil)
	if !slices.Equal(a.Tour, b.Tour) {
		t.Error("two runs of the same seed and budget differ")
	}
}
