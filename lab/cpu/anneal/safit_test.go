package anneal

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// The cached edges and removal gains price every move as the six-distance
// formula does, after thousands of applied moves, near ones included.
func TestSearchCachedDeltas(t *testing.T) {
	in := uniformInstance(300, 3)
	d := tour.NewDist(in)
	r := runctl.NewRand(1, 0)
	s := newSearch(d, r.RandomTour(in.N), r)
	near, err := newSANear(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	s.nb, s.k, s.near = near.nb, near.k, true
	for i := 0; i < 20000; i++ {
		c, a, delta := s.propose()
		want := tour.DeltaInsertEdges(d, s.l.Prev[c], c, c, s.l.Next[c], a, s.l.Next[a], false)
		if delta != want {
			t.Fatalf("move %d: delta %d, want %d", i, delta, want)
		}
		if metropolis(r, delta, 50) {
			s.apply(c, a, delta)
		}
	}
	if got := d.Length(s.current(nil)); got != s.cur {
		t.Fatalf("tracked length %d, tour %d", s.cur, got)
	}
}

// The descent ends where no city can move beside one of its nearest cities
// for a shorter tour, and it never lengthens the search's best.
func TestSearchDescent(t *testing.T) {
	in := uniformInstance(500, 4)
	d := tour.NewDist(in)
	r := runctl.NewRand(2, 0)
	s := newSearch(d, r.RandomTour(in.N), r)
	near, err := newSANear(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	s.nb, s.k = near.nb, near.k
	before := s.bestLength()
	if evals := s.descend(func() bool { return false }); evals == 0 {
		t.Fatal("no moves evaluated")
	}
	if s.bestLength() >= before || d.Length(s.current(nil)) != s.cur {
		t.Fatalf("best %d from %d, tracked %d, tour %d", s.bestLength(), before, s.cur, d.Length(s.current(nil)))
	}
	nb := neighbor.Nearest(in, saNearK)
	for c := 0; c < in.N; c++ {
		for _, x := range nb.Of(c) {
			for _, a := range []int32{x, s.l.Prev[x]} {
				if a != int32(c) && a != s.l.Prev[c] && s.deltaMove(int32(c), a) < 0 {
					t.Fatalf("city %d still improves beside %d", c, a)
				}
			}
		}
	}
}

// Each annealer fits its schedule to a time limit and says so; an
// explicit alpha keeps Lam's schedule, run whole without a limit.
func TestAnnealersFitTheLimit(t *testing.T) {
	in := uniformInstance(200, 5)
	for _, name := range []string{"sa", "pssm", "pspm", "sspm"} {
		r := solve(t, name, in, solver.Params{Seed: 1, Workers: 2, TimeLimit: 200 * time.Millisecond}, nil)
		s := r.Schedule
		if s == nil || !s.Fitted || s.Steps < 2 {
			t.Fatalf("%s: schedule %+v", name, s)
		}
		if r.StopReason == solver.StopDone && s.Descent <= 0 {
			t.Errorf("%s: schedule done without its descent: %+v", name, s)
		}
		pin := func(a *solver.Anneal) { a.Alpha, a.T0, a.TEnd = 0.8, 100, 1 }
		r = solveWith(t, name, in, solver.Params{Seed: 1, Workers: 2}, pin)
		var a solver.Anneal
		pin(&a)
		want := int64(solver.ScheduleSteps(a))
		if s := r.Schedule; s == nil || s.Fitted || s.Steps != want || s.Alpha != 0.8 || s.Descent != 0 || r.StopReason != solver.StopDone {
			t.Errorf("%s pinned: schedule %+v, %s, want %d steps at 0.8", name, s, r.StopReason, want)
		}
	}
}

func TestDescentReserve(t *testing.T) {
	// 2392 cities, 8 near each, one move per iteration: the probe ran
	// 2392 iterations in 1 ms, so three passes of 16 moves per city take
	// 48 ms at that rate; twice that is set aside.
	if got := descentReserve(2392, 8, 1, 2392, time.Millisecond, 10*time.Second); got != 96*time.Millisecond {
		t.Fatalf("reserve %v, want 96ms", got)
	}
	if got := descentReserve(2392, 8, 1, 2392, time.Second, time.Second); got != time.Second/4 {
		t.Fatalf("reserve %v, want a quarter of what is left", got)
	}
}

// The journal gives back the best solution seen, exactly, whether it is
// read while journaling or after a fold: a copy kept at every new best
// (Lam et al.'s rule as written) is compared with it throughout.
func TestSearchJournalKeepsBest(t *testing.T) {
	in := uniformInstance(400, 6)
	d := tour.NewDist(in)
	r := runctl.NewRand(4, 0)
	s := newSearch(d, r.RandomTour(in.N), r)
	want, wantLen := s.current(nil), s.cur
	for i := 0; i < 200000; i++ {
		temp := 2000 * float64(200000-i) / 200000
		c, a, delta := s.propose()
		if !metropolis(r, delta, temp) {
			continue
		}
		if delta > 0 && s.cur < wantLen {
			want, wantLen = s.current(want[:0]), s.cur
		}
		s.apply(c, a, delta)
		if i%9973 == 0 || i > 199000 {
			if s.cur <= wantLen {
				continue // the current solution is the best
			}
			got := s.best(nil)
			if s.bestLength() != wantLen || d.Length(got) != wantLen || !slices.Equal(got, want) {
				t.Fatalf("move %d: best %d (tour %d), want %d", i, s.bestLength(), d.Length(got), wantLen)
			}
		}
	}
}

// TestPSPMFittedThreads: a time-fitted CPU PSPM run without threads takes
// FittedThreads moves per iteration; Lam's schedule keeps the warp of 32,
// and threads given is kept.
func TestPSPMFittedThreads(t *testing.T) {
	in := uniformInstance(60, 3)
	for _, c := range []struct {
		limit   time.Duration
		threads int
		want    int
	}{{200 * time.Millisecond, 0, FittedThreads}, {0, 0, solver.DefaultThreads}, {200 * time.Millisecond, 5, 5}} {
		res := solveWith(t, "pspm", in, solver.Params{Seed: 1, Workers: 1, TimeLimit: c.limit}, func(a *solver.Anneal) {
			if c.threads > 0 {
				a.Threads = c.threads
			}
			if c.limit == 0 {
				a.Alpha = 0.5 // a short schedule
			}
		})
		if got := res.Settings.Threads; got != c.want {
			t.Errorf("limit %v, threads %d: ran %d moves per iteration, want %d", c.limit, c.threads, got, c.want)
		}
	}
}
