package pspm

import (
	"math"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cooling"
)

// simulate runs s to its end on a clock that advances by iters/rate per
// launch, with launches of at most budget iterations; it returns the
// launches and the iterations run.
func simulate(t *testing.T, s *pspmSchedule, rate float64, budget int64) ([]pspmSegment, int64) {
	t.Helper()
	clock := time.Unix(1000, 0)
	s.now = func() time.Time { return clock }
	begin := clock
	var segs []pspmSegment
	var iter int64
	for len(segs) < 1e6 {
		seg, ok := s.next(iter, clock.Sub(begin), budget)
		if !ok {
			break
		}
		if seg.iters <= 0 || seg.ips <= 0 {
			t.Fatalf("launch %d: %+v", len(segs), seg)
		}
		iter += seg.iters
		clock = clock.Add(time.Duration(float64(seg.iters) / rate * float64(time.Second)))
		s.done(seg, iter, clock.Sub(begin))
		segs = append(segs, seg)
		if !s.deadline.IsZero() && clock.After(s.deadline) {
			break
		}
	}
	return segs, iter
}

func lamParams() solver.Anneal {
	return solver.Anneal{T0: 10000, TEnd: 0.1, Alpha: 0.99, Sweeps: 10, K: 100}
}

// TestPSPMScheduleLam: without a limit, or when Lam's schedule ends
// before it, the launches are Lam's: origin 0, T0 and alpha as given,
// a synchronisation every K steps, all of its iterations.
func TestPSPMScheduleLam(t *testing.T) {
	p := lamParams()
	for _, deadline := range []time.Time{{}, time.Unix(1000, 0).Add(10 * time.Second)} {
		s := newPSPMSchedule(p, 100, pspmDraw{fromStep: 500}, true, deadline)
		segs, iter := simulate(t, s, 1e6, 1<<17) // 1,146 steps of 1,000 iterations: 1.1 s
		if want := int64(solver.ScheduleSteps(p)) * 1000; iter != want {
			t.Fatalf("deadline %v: %d iterations, want Lam's %d", deadline, iter, want)
		}
		syncs := 0
		for _, g := range segs {
			if g.origin != 0 || g.t0 != p.T0 || g.alpha != p.Alpha || g.ips != 1000 || g.nnStep != 500 {
				t.Fatalf("deadline %v: launch %+v is not Lam's", deadline, g)
			}
			if g.sync {
				syncs++
			}
		}
		if syncs != 12 { // steps 100, 200, ..., 1100 and the end
			t.Fatalf("%d synchronisations, want 12", syncs)
		}
		if r := s.report(); r.Fitted || r.Steps != int64(solver.ScheduleSteps(p)) || r.TLast > 0.1/0.99 {
			t.Fatalf("report %+v", r)
		}
	}
}

// TestPSPMScheduleFitted: when Lam's schedule would outlast the limit, the
// run turns to a fitted one after its first launch: the temperature goes
// on from where it is, falls step by step (never more than Lam's first
// factors' worth of steps at once), reaches TEnd about when the cooling's
// share of the time is spent, and the descent at TEnd runs to the limit.
func TestPSPMScheduleFitted(t *testing.T) {
	p := lamParams()
	start := time.Unix(1000, 0)
	limit := 2 * time.Second
	draw := pspmDraw{from: 50, lists: []uint16{1, 2}, k: 2}
	s := newPSPMSchedule(p, 5000, draw, true, start.Add(limit))
	const rate = 1e6 // Lam's 57 million iterations would take 57 s
	segs, iter := simulate(t, s, rate, 1<<18)
	if s.cool == nil {
		t.Fatal("the schedule did not turn fitted")
	}
	if got := time.Duration(float64(iter) / rate * float64(time.Second)); got < limit || got > limit+limit/10 {
		t.Fatalf("ran %v for a limit of %v", got, limit)
	}
	tNext := p.T0
	var descent, steps int64
	for i, g := range segs {
		if g.origin != 0 && math.Abs(g.t0-tNext) > 1e-9*tNext && g.alpha != 1 {
			t.Fatalf("launch %d starts at T %g, the schedule was at %g", i, g.t0, tNext)
		}
		if g.alpha == 1 && g.t0 == p.TEnd {
			descent += g.iters
			continue
		}
		if descent > 0 {
			t.Fatalf("launch %d cools after the descent began", i)
		}
		if g.origin == 0 {
			tNext = p.T0 * math.Pow(p.Alpha, float64(g.iters/g.ips))
			continue
		}
		if g.nnStep != 0 {
			t.Fatalf("fitted launch %d at T %g: nn from step %d, want from its first", i, g.t0, g.nnStep)
		}
		steps += g.steps
		tNext = g.t0 * math.Pow(g.alpha, float64(g.steps))
	}
	r := s.report()
	if !r.Fitted || r.Steps < cooling.MinFittedSteps/2 || r.TLast <= p.TEnd || r.TLast > 2*p.TEnd || r.Descent <= 0 {
		t.Fatalf("report %+v", r)
	}
	if share := float64(descent) / float64(iter); share < pspmDescentShare/2 || share > 2*pspmDescentShare {
		t.Fatalf("descent ran %.2f of the iterations, want about %.2f", share, pspmDescentShare)
	}
	if !s.ended() || s.temperature() != p.TEnd {
		t.Fatalf("ended %v at T %g", s.ended(), s.temperature())
	}
}

// TestPSPMScheduleExplicitAlpha: a run whose alpha or sweeps were given
// (fit false) keeps Lam's schedule under a limit; the limit cuts it.
func TestPSPMScheduleExplicitAlpha(t *testing.T) {
	p := lamParams()
	s := newPSPMSchedule(p, 5000, pspmDraw{}, false, time.Unix(1000, 0).Add(time.Second))
	segs, _ := simulate(t, s, 1e6, 1<<18)
	for _, g := range segs {
		if g.origin != 0 || g.alpha != p.Alpha {
			t.Fatalf("launch %+v is not Lam's", g)
		}
	}
	if s.cool != nil || s.ended() {
		t.Fatal("a pinned schedule turned fitted or ended")
	}
}
