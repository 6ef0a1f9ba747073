//go:build cuda

package ils

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// glsStartTour builds in's glsRun with the greedy or the curve start and
// returns the start tour in city ids, the stats of the build and the
// descent's gain check from that start.
func glsStartTour(t *testing.T, in *solver.Instance, greedy bool) ([]int, glsStats) {
	t.Helper()
	ru := gputest.NeedRun(t)
	var g *glsRun
	var st glsStats
	if err := ru.Do(func() (err error) {
		if g, err = newGLSRun(ru, in); err != nil {
			return err
		}
		g.greedy = greedy
		return g.build(in, nil, &st)
	}); err != nil {
		t.Fatal(err)
	}
	defer ru.Do(func() error { return g.bufs.FreeAll() })
	tour, _, _ := glsState(t, g, 0)
	if err := ru.Do(func() error { return g.descend(context.Background(), time.Time{}, 1, 0, &st) }); err != nil {
		t.Fatal(err)
	}
	after, _, _ := glsState(t, g, 0)
	if err := solver.ValidateTour(after, in.N); err != nil {
		t.Fatal(err)
	}
	if d := solver.TourLength(in, tour) - solver.TourLength(in, after); d != int64(st.gain) {
		t.Fatalf("descent from the start: device gain %d, the CPU's %d", st.gain, d)
	}
	return tour, st
}

// TestGreedyStart checks that the greedy start built on the device is a
// tour, shorter than the curve, within 5 % of the CPU's greedy tour, and that
// the descent from it keeps its exact gain.
func TestGreedyStart(t *testing.T) {
	for _, c := range glsCases {
		t.Run(fmt.Sprintf("%s_n%d", c.m, c.n), func(t *testing.T) {
			in := gputest.RandomInstance(c.n, c.m, c.scale, uint64(c.n)+9)
			greedy, st := glsStartTour(t, in, true)
			if err := solver.ValidateTour(greedy, in.N); err != nil {
				t.Fatal(err)
			}
			curve, _ := glsStartTour(t, in, false)
			lg, lc := solver.TourLength(in, greedy), solver.TourLength(in, curve)
			cpu := solver.TourLength(in, construct.Greedy(in, neighbor.Nearest(in, 10)))
			if st.Rounds == 0 || lg >= lc || float64(lg) > 1.05*float64(cpu) {
				t.Fatalf("greedy %d (%d rounds), curve %d, CPU greedy %d", lg, st.Rounds, lc, cpu)
			}
			t.Logf("greedy %d (%d rounds, %d fragments), curve %d, CPU greedy %d", lg, st.Rounds, st.Frags, lc, cpu)
		})
	}
}

// TestTourLSStartOption runs the engine with each start: valid tours, the
// start named in the device note.
func TestTourLSStartOption(t *testing.T) {
	gputest.NeedDevice(t)
	e, err := solver.Lookup(AlgoTourLS, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	in := gputest.RandomInstance(20000, solver.Euc2D, 1e6, 13)
	curve := solver.TourLength(in, construct.SpaceFillingCurve(in))
	for _, c := range []struct {
		greedy  bool
		s, name string
	}{{true, "greedy", "greedy ("}, {false, "sfc", "curve start"}} {
		s, name := c.s, c.name
		r, err := e.Solve(context.Background(), in, solver.Params{Seed: 1, Config: func(o *tourLSConfig) { o.Greedy = c.greedy }}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Device, name) || r.Length >= curve*19/20 {
			t.Fatalf("start %s: %d from a curve of %d (%s)", s, r.Length, curve, r.Device)
		}
		t.Logf("start %s: %d (%s)", s, r.Length, r.Device)
	}
}

// TestGreedyStartClustered: on DIMACS clustered cities, where the ends are
// matched in rounds, the greedy start is within 2 % of the CPU's greedy
// tour, whose joins avoid the gaps between clusters as well.
func TestGreedyStartClustered(t *testing.T) {
	in, err := gen.Generate("portcgen", 20000, 200001)
	if err != nil {
		t.Fatal(err)
	}
	greedy, st := glsStartTour(t, in, true)
	if err := solver.ValidateTour(greedy, in.N); err != nil {
		t.Fatal(err)
	}
	lg := solver.TourLength(in, greedy)
	cpu := solver.TourLength(in, construct.Greedy(in, neighbor.Nearest(in, 10)))
	if float64(lg) > 1.02*float64(cpu) {
		t.Fatalf("greedy %d (%d rounds, %d fragments), CPU greedy %d", lg, st.Rounds, st.Frags, cpu)
	}
	t.Logf("greedy %d (%d rounds, %d fragments), CPU greedy %d", lg, st.Rounds, st.Frags, cpu)
}
