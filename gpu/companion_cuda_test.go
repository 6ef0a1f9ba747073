//go:build cuda

package gpu

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"

	// the CPU auto engine, which GPU auto runs beside the windows
	_ "github.com/tsplab/tsplab/solver/cpu"
)

// TestCompanionWindowsExact runs the windows as the companion of a
// stand-in engine on the CPU that publishes the greedy tour and then
// adopts every offer shorter than its tour: each offer must be a tour
// whose length, as the windows computed it from their gains, is the
// exact CPU length, shorter than the greedy tour it came from; with the
// windows' 2-opt and Or-opt moves and with their sequential 3-opt too.
func TestCompanionWindowsExact(t *testing.T) {
	needDevice(t)
	for _, moves := range []string{"or", "3opt"} {
		for _, m := range []solver.Metric{solver.Euc2D, solver.Ceil2D, solver.Att} {
			in := randomInstance(6000, m, 1e5, 21)
			g := construct.Greedy(in, neighbor.Nearest(in, 10))
			gl := solver.TourLength(in, g)
			x := &solver.Companion{}
			t32 := make([]int32, in.N)
			for i, c := range g {
				t32[i] = int32(c)
			}
			x.Publish(t32, gl)
			ctx, cancel := context.WithCancel(context.Background())
			done := make(chan error, 1)
			var st companionStats
			go func() {
				var err error
				st, err = runCompanion(ctx, in, solver.Params{Seed: 3, Extra: map[string]string{OptWindowMoves: moves}}, x, time.Now().Add(3*time.Second), 200*time.Millisecond, 0)
				done <- err
			}()
			offers, last := 0, gl
			var buf []int32
			for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
				var l int64
				var ok bool
				if buf, l, ok = x.TakeOffer(buf); !ok {
					continue
				}
				offers++
				tr := make([]int, len(buf))
				for i, c := range buf {
					tr[i] = int(c)
				}
				if err := solver.ValidateTour(tr, in.N); err != nil {
					t.Fatalf("%s: offer %d: %v", m, offers, err)
				}
				if exact := solver.TourLength(in, tr); exact != l {
					t.Fatalf("%s: offer %d claims %d, exact %d", m, offers, l, exact)
				}
				if l >= gl {
					t.Fatalf("%s: offer %d (%d) no shorter than the greedy tour (%d)", m, offers, l, gl)
				}
				if l < last {
					last = l
					x.Publish(buf, l)
				}
			}
			cancel()
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if offers < 2 || last >= gl {
				t.Fatalf("%s: %d offers, greedy %d → %d", m, offers, gl, last)
			}
			// every offer adopted: the windows found at least what the
			// stand-in kept
			if st.found < gl-last {
				t.Fatalf("%s: the windows' offers found %d in all, the stand-in kept %d", m, st.found, gl-last)
			}
			t.Logf("%s, moves %s: greedy %d → %d (%.2f %% shorter), %d offers (found %d), %d rounds, %d uploads, %s", m, moves, gl, last,
				100*float64(gl-last)/float64(gl), offers, st.found, st.rounds, st.uploads, st.label)
		}
	}
}

// TestAutoCompanion runs GPU auto where the windows search beside the CPU
// auto engine when asked for (OptCompanion): a valid tour of the reported
// length, within the time limit, with the windows' offers named in the
// device line; without the option the CPU engine alone.
func TestAutoCompanion(t *testing.T) {
	needDevice(t)
	in := randomInstance(AutoCompanionMinN+2000, solver.Euc2D, 1e6, 5)
	res, el := runAuto(t, in, solver.Params{TimeLimit: 3 * time.Second, Seed: 1, Extra: map[string]string{OptCompanion: "0.5"}})
	if el > 4*time.Second {
		t.Errorf("a 3 s run took %v", el)
	}
	if !strings.Contains(res.Device, "offers") {
		t.Fatalf("device line without the windows: %s", res.Device)
	}
	t.Logf("%d cities, 3 s: %d; %s", in.N, res.Length, res.Device)
	alone, _ := runAuto(t, in, solver.Params{TimeLimit: time.Second, Seed: 1})
	if strings.Contains(alone.Device, "offers") || !strings.Contains(alone.Device, "the CPU search alone") {
		t.Fatalf("by default: %s", alone.Device)
	}
}

// TestAutoEarlyOrILS runs GPU auto from AutoOrILSMinN cities: or-ils's
// tour reaches the snapshots before the CPU engine's first tour, the
// best length in them never grows, or-ils stops at the engine's first
// tour (named in the device line; no windows beside the engine after it
// by default), and the result is a valid tour of the reported length
// within the time limit.
func TestAutoEarlyOrILS(t *testing.T) {
	needDevice(t)
	if testing.Short() {
		t.Skip("a 6 s run on 200,000 cities")
	}
	e, err := solver.Lookup(AlgoAuto, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	in := randomInstance(AutoOrILSMinN, solver.Euc2D, 1e6, 6)
	snaps := solver.Latest()
	type seen struct {
		n     int
		first time.Duration
		grew  bool
	}
	got := make(chan seen, 1)
	go func() {
		var sn seen
		last := int64(-1)
		for s := range snaps {
			if s.Best == nil {
				continue
			}
			if sn.n == 0 {
				sn.first = s.Elapsed
			}
			sn.n++
			if last >= 0 && s.BestLength > last {
				sn.grew = true
			}
			last = s.BestLength
		}
		got <- sn
	}()
	t0 := time.Now()
	res, err := e.Solve(context.Background(), in, solver.Params{TimeLimit: 6 * time.Second, Seed: 1}, snaps)
	close(snaps)
	sn := <-got
	if err != nil {
		t.Fatal(err)
	}
	if el := time.Since(t0); el > 7*time.Second {
		t.Errorf("a 6 s run took %v", el)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if got := solver.TourLength(in, res.Tour); got != res.Length {
		t.Fatalf("reported %d, exact %d", res.Length, got)
	}
	if sn.n == 0 || sn.grew || !strings.Contains(res.Device, "before its first tour, or-ils") || strings.Contains(res.Device, "offers") {
		t.Fatalf("%d snapshots with a tour (the best grew: %v); device line %s", sn.n, sn.grew, res.Device)
	}
	t.Logf("%d cities, 6 s: %d; first tour at %v, %d snapshots; %s", in.N, res.Length, sn.first, sn.n, res.Device)
}

// TestAutoCompanionClaims runs GPU auto where the CPU auto engine runs its
// partition search and the windows claim a part of the tour: a valid tour
// of the reported length within the time limit, the claims named in the
// device line, and folds that shortened the engine's tour.
func TestAutoCompanionClaims(t *testing.T) {
	needDevice(t)
	in := randomInstance(AutoCompanionMinN+5000, solver.Euc2D, 1e6, 6)
	res, el := runAuto(t, in, solver.Params{TimeLimit: 4 * time.Second, Seed: 1, Extra: map[string]string{OptCompanion: "0.5", OptClaim: "0.35"}})
	if el > 5*time.Second {
		t.Errorf("a 4 s run took %v", el)
	}
	if !strings.Contains(res.Device, "claims of") || strings.Contains(res.Device, " 0 shortened") {
		t.Fatalf("device line without claims or folds: %s", res.Device)
	}
	t.Logf("%d cities, 4 s: %d; %s", in.N, res.Length, res.Device)
}

// TestAutoAlphaAscent runs GPU auto where the CPU auto engine takes
// alpha-nearness lists (12,000 cities): the ascent behind them runs on
// the GPU, as the device line says, and the tour is valid and exact.
func TestAutoAlphaAscent(t *testing.T) {
	needDevice(t)
	in := randomInstance(12000, solver.Euc2D, 1e6, 7)
	res, _ := runAuto(t, in, solver.Params{TimeLimit: 3 * time.Second, Seed: 1})
	if !strings.Contains(res.Device, "ascent iterations on the GPU") || !strings.Contains(res.Device, "lists of an ascent on the GPU") {
		t.Fatalf("the ascent did not run on the GPU: %s", res.Device)
	}
	t.Logf("%d cities, 3 s: %d; %s", in.N, res.Length, res.Device)
}

// TestAutoAlphaStart runs GPU auto from AutoAlphaStartMinN cities: by
// default the CPU engine builds its own start tour; with alphastart=on it
// starts from the greedy tour on the GPU ascent's alpha lists, as the
// device line says, within the time limit and with a valid, exact tour;
// with alpha lists for the search as well.
func TestAutoAlphaStart(t *testing.T) {
	needDevice(t)
	in := randomInstance(AutoAlphaStartMinN+1000, solver.Euc2D, 1e6, 8)
	def, _ := runAuto(t, in, solver.Params{TimeLimit: time.Second, Seed: 1})
	if strings.Contains(def.Device, "alpha-nearness") {
		t.Fatalf("by default: %s", def.Device)
	}
	on := map[string]string{OptAlphaStart: "on"}
	res, el := runAuto(t, in, solver.Params{TimeLimit: 3 * time.Second, Seed: 1, Extra: on})
	if el > 4*time.Second {
		t.Errorf("a 3 s run took %v", el)
	}
	if !strings.Contains(res.Device, "from the greedy tour on alpha-nearness lists") {
		t.Fatalf("alphastart=on: no start from the GPU's alpha lists: %s", res.Device)
	}
	t.Logf("%d cities, 3 s: %d; %s", in.N, res.Length, res.Device)
	// alpha lists for the search too, as the device line says (one
	// ascent for both where the start's is whole; at 3 s it is cut
	// short, and the engine runs its own)
	both, _ := runAuto(t, in, solver.Params{TimeLimit: 3 * time.Second, Seed: 1, Extra: map[string]string{OptAlphaStart: "on", "candidates": "alpha"}})
	for _, want := range []string{"from the greedy tour on alpha-nearness lists", "lists of an ascent on the GPU"} {
		if !strings.Contains(both.Device, want) {
			t.Fatalf("candidates=alpha: no %q in %s", want, both.Device)
		}
	}
}

// runAuto runs GPU auto on in with p and fails t unless it returns a valid
// tour of the reported length; it returns the result and the run's wall
// time.
func runAuto(t *testing.T, in *solver.Instance, p solver.Params) (solver.Result, time.Duration) {
	t.Helper()
	e, err := solver.Lookup(AlgoAuto, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	res, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		t.Fatal(err)
	}
	el := time.Since(t0)
	checkResult(t, "auto", in, res)
	return res, el
}
