//go:build cuda

package ils

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// TestOrWindowGainsExact runs or-ils rounds on the device and checks after
// each one that the tour is still a permutation and that its exact length,
// recomputed on the CPU, is the start length minus the gain the windows
// reported: every delta the kernel summed (2-opt, Or-opt, kicks) equals
// the CPU's integer delta.
func TestOrWindowGainsExact(t *testing.T) {
	gputest.NeedDevice(t)
	cases := []struct {
		n      int
		m      solver.Metric
		scale  float64
		L, R   int
		kicks  int
		rounds int
	}{
		{3000, solver.Euc2D, 1e5, 256, 1, 4, 8},
		{3000, solver.Euc2D, 1e5, 256, 3, 40, 4},
		{2000, solver.Ceil2D, 1e4, 128, 2, 20, 4},
		{2000, solver.Att, 1e4, 200, 2, 20, 4},
		{700, solver.Euc2D, 1e6, 1024, 1, 50, 4}, // one window: the whole tour as a path
		{100, solver.Euc2D, 1e3, 32, 2, 10, 4},   // windows of 25 cities
	}
	for _, c := range cases {
		t.Run(fmt.Sprintf("%s_n%d_L%d", c.m, c.n, c.L), func(t *testing.T) {
			in := gputest.RandomInstance(c.n, c.m, c.scale, uint64(c.n))
			start := construct.SpaceFillingCurve(in)
			l0 := solver.TourLength(in, start)
			t32 := make([]int32, c.n)
			for i, x := range start {
				t32[i] = int32(x)
			}
			ru, err := device.NewRun()
			if err != nil {
				t.Fatal(err)
			}
			defer ru.Close()
			var r *orRun
			if err := ru.Do(func() (err error) { r, err = newOrRun(ru, in, t32, c.L, c.R); return err }); err != nil {
				t.Fatal(err)
			}
			defer ru.Do(func() error { r.free(); return nil })
			var gain, evals uint64
			for k := 0; k < c.rounds; k++ {
				err := ru.Do(func() (err error) {
					gain, evals, err = r.round(int64(k*37%c.n), int64(c.n), c.kicks, uint64(k+1), 30)
					if err == nil {
						err = device.DtoH(t32, r.tour)
					}
					return err
				})
				if err != nil {
					t.Fatal(err)
				}
				got := make([]int, c.n)
				for i, x := range t32 {
					got[i] = int(x)
				}
				if err := solver.ValidateTour(got, c.n); err != nil {
					t.Fatalf("round %d: %v", k, err)
				}
				if l := solver.TourLength(in, got); l != l0-int64(gain) {
					t.Fatalf("round %d: exact length %d, device says %d - %d = %d", k, l, l0, gain, l0-int64(gain))
				}
			}
			if gain == 0 || evals == 0 {
				t.Fatalf("no gain (%d) or no moves evaluated (%d) from a space-filling-curve tour", gain, evals)
			}
			t.Logf("%s n=%d: %d -> %d (%.1f%%), %d moves evaluated, W=%d R=%d", c.m, c.n, l0, l0-int64(gain),
				100*float64(gain)/float64(l0), evals, r.W, r.R)
		})
	}
}

// TestOrILSEngine runs the engine through the registry: a valid tour,
// shorter than the greedy start, snapshots sent, the time limit kept.
func TestOrILSEngine(t *testing.T) {
	gputest.NeedDevice(t)
	e, err := solver.Lookup(AlgoOrILS, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []solver.Metric{solver.Euc2D, solver.Att} {
		in := gputest.RandomInstance(5000, m, 1e5, 11)
		greedy := solver.TourLength(in, construct.Greedy(in, neighbor.Nearest(in, 10)))
		snaps := solver.Latest()
		got := 0
		done := make(chan struct{})
		go func() {
			for s := range snaps {
				if s.Best != nil && solver.ValidateTour(s.Best, in.N) == nil {
					got++
				}
			}
			close(done)
		}()
		p := solver.Params{TimeLimit: time.Second, Seed: 1}
		res, err := solver.RunAided(context.Background(), e, in, p, snaps, solver.Aid{}, false)
		close(snaps)
		<-done
		if err != nil {
			t.Fatal(err)
		}
		if !res.Stopped || res.StopReason != solver.StopTime {
			t.Errorf("%s: a 1-s run stopped %v (%v), want by its time limit", m, res.Stopped, res.StopReason)
		}
		if res.Length >= greedy || got == 0 {
			t.Fatalf("%s: length %d (greedy %d), %d snapshots", m, res.Length, greedy, got)
		}
		t.Logf("%s: greedy %d -> %d (%.2f%% shorter) in %v, %d kicks, %s", m, greedy, res.Length,
			100*float64(greedy-res.Length)/float64(greedy), res.Elapsed, res.Steps, res.Device)
	}
}
