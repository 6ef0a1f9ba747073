package session

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/fakeengine"
	"github.com/tsplab/tsplab/solver"
)

// errNoDevice is why the fake GPU engine cannot run.
var errNoDevice = errors.New("no device in this test")

func init() {
	fakeengine.Register(
		fakeengine.Engine{Algo: "fake"},
		fakeengine.Engine{Algo: "fake", On: solver.BackendGPU, Unavailable: errNoDevice},
		fakeengine.Engine{Algo: "fake-account", Account: &solver.Account{Search: solver.SearchMerged, Restarts: &solver.RestartAccount{Count: 2}}},
	)
}

// ring returns n cities on a circle: the optimum is the circle order.
func ring(n int) *solver.Instance {
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		// A regular polygon, scaled so rounding keeps it convex.
		a := 2 * 3.141592653589793 * float64(i) / float64(n)
		x[i], y[i] = 1000+1000*cos(a), 1000+1000*sin(a)
	}
	in := solver.NewCoordInstance("ring", solver.Euc2D, x, y, nil)
	in.Optimum = solver.TourLength(in, solver.IdentityTour(n))
	return in
}

// waitFor polls cond until it holds or a generous timeout passes.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

type recorder struct {
	mu  sync.Mutex
	ups []Progress
}

func (r *recorder) add(p Progress) { r.mu.Lock(); r.ups = append(r.ups, p); r.mu.Unlock() }
func (r *recorder) all() []Progress {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Progress(nil), r.ups...)
}

func TestRunnerRunsToTheTimeLimit(t *testing.T) {
	in := ring(60)
	r := NewRunner()
	var rec recorder
	r.OnUpdate = rec.add
	if err := r.Start(in, solver.Params{Algorithm: "fake", Backend: "cpu", TimeLimit: 300 * time.Millisecond, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	if err := r.Start(in, solver.Params{Algorithm: "fake", Backend: "cpu"}); err == nil {
		t.Error("a second Start while running succeeded")
	}
	r.Wait()
	if st := r.State(); st != Done {
		t.Fatalf("state %v after the time limit, want done", st)
	}
	res, ok := r.Result()
	if !ok {
		t.Fatal("no result")
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatal(err)
	}
	if res.Length != solver.TourLength(in, res.Tour) {
		t.Errorf("result length %d, tour is %d", res.Length, solver.TourLength(in, res.Tour))
	}
	ups := rec.all()
	if len(ups) < 2 {
		t.Fatalf("%d updates, want several", len(ups))
	}
	last := ups[len(ups)-1]
	if last.State != Done || last.BestLength != res.Length || last.Fraction != 1 {
		t.Errorf("last update %+v, want done with the result's length and full progress", last)
	}
	// Updates are rate-limited, whatever the engine's snapshot rate (one
	// per 200 µs): the first at once, then one per UpdateInterval, the last
	// snapshot flushed at the end and the run's final update, with an
	// interval's slack between the engine's clock and the forwarder's.
	if max := int(res.Elapsed/UpdateInterval) + 4; len(ups) > max {
		t.Errorf("%d updates in %v, more than one per %v", len(ups), res.Elapsed, UpdateInterval)
	}
	// The best length never gets worse from one update to the next.
	for i := 1; i < len(ups); i++ {
		if ups[i].BestLength > ups[i-1].BestLength && ups[i-1].BestLength > 0 {
			t.Fatalf("best length rose from %d to %d", ups[i-1].BestLength, ups[i].BestLength)
		}
	}
	if ups[0].Engine != "fake/cpu" {
		t.Errorf("engine %q", ups[0].Engine)
	}
}

func TestRunnerPauseResumeStop(t *testing.T) {
	in := ring(80)
	r := NewRunner()
	if err := r.Resume(); err == nil {
		t.Error("Resume of an idle runner succeeded")
	}
	if err := r.Start(in, solver.Params{Algorithm: "fake", Backend: "cpu", TimeLimit: 5 * time.Second, Seed: 1, Extra: map[string]string{"t0": "50"}}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a first update", func() bool { return r.Last().BestLength > 0 })
	r.Pause()
	r.Wait()
	if st := r.State(); st != Paused {
		t.Fatalf("state %v after Pause, want paused", st)
	}
	best, bestLen := r.Best()
	if len(best) != in.N || bestLen != solver.TourLength(in, best) {
		t.Fatalf("paused best %d cities, length %d", len(best), bestLen)
	}
	before := r.Last()
	calls := fakeengine.Calls()
	if err := r.Resume(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the resumed Solve", func() bool { return fakeengine.Calls() > calls })
	p := fakeengine.LastParams()
	if len(p.Start) != in.N {
		t.Fatalf("resumed without the best tour as start")
	}
	if solver.TourLength(in, p.Start) != bestLen {
		t.Errorf("resumed from a tour of length %d, best was %d", solver.TourLength(in, p.Start), bestLen)
	}
	if t0, _ := strconv.ParseFloat(p.Extra["t0"], 64); t0 <= 0 || t0 >= 50 {
		t.Errorf("resumed at t0 %v, want the cooled temperature below 50", p.Extra["t0"])
	}
	if p.TimeLimit <= 0 || p.TimeLimit >= 5*time.Second {
		t.Errorf("resumed with time limit %v, want what is left of 5s", p.TimeLimit)
	}
	waitFor(t, "progress after resuming", func() bool { return r.Last().Moves > before.Moves })
	r.Stop()
	r.Wait()
	if st := r.State(); st != Done {
		t.Fatalf("state %v after Stop, want done", st)
	}
	res, _ := r.Result()
	if res.Length > bestLen {
		t.Errorf("after Stop the best is %d, worse than %d before", res.Length, bestLen)
	}
	if res.Moves < before.Moves {
		t.Errorf("moves %d after two segments, fewer than the first segment's %d", res.Moves, before.Moves)
	}
	if !res.Stopped {
		t.Error("result of a stopped run not marked Stopped")
	}
}

func TestRunnerStep(t *testing.T) {
	in := ring(40)
	r := NewRunner()
	if err := r.StepFrom(in, solver.Params{Algorithm: "fake", Backend: "cpu", TimeLimit: 10 * time.Second, Extra: map[string]string{"k": "3"}}); err != nil {
		t.Fatal(err)
	}
	r.Wait()
	if st := r.State(); st != Paused {
		t.Fatalf("state %v after a step, want paused", st)
	}
	first := r.Last().Steps
	if first < 3 {
		t.Fatalf("one step did %d temperature steps, want at least k=3", first)
	}
	if err := r.Step(); err != nil {
		t.Fatal(err)
	}
	r.Wait()
	if st, s := r.State(), r.Last().Steps; st != Paused || s < first+3 {
		t.Errorf("second step: state %v, steps %d (first %d)", st, s, first)
	}
	r.Stop()
	if st := r.State(); st != Done {
		t.Errorf("Stop of a paused run: state %v", st)
	}
	r.Reset()
	if b, _ := r.Best(); r.State() != Idle || b != nil {
		t.Errorf("after Reset: state %v, best %v", r.State(), b)
	}
}

func TestRunnerErrors(t *testing.T) {
	r := NewRunner()
	if err := r.Start(nil, solver.Params{Algorithm: "fake"}); err == nil {
		t.Error("Start without an instance succeeded")
	}
	if err := r.Start(ring(10), solver.Params{Algorithm: "no-such", Backend: "cpu"}); err == nil || !strings.Contains(err.Error(), "no-such") {
		t.Errorf("unknown algorithm: %v", err)
	}
	// Settings outside what the engine takes are refused before the run,
	// with the CLI's one-line error naming the setting and its range.
	var pe *solver.ParamError
	for _, p := range []solver.Params{
		{Algorithm: "fake", Backend: solver.BackendCPU, Extra: map[string]string{"blocks": fmt.Sprint(1 << 62)}},
		{Algorithm: "fake", Backend: solver.BackendCPU, TimeLimit: -time.Second},
		{Algorithm: "fake", Backend: solver.BackendCPU, Extra: map[string]string{"t0": "1", "tend": "5"}},
	} {
		err := r.Start(ring(10), p)
		if !errors.As(err, &pe) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%+v: %v, want a one-line *solver.ParamError", p, err)
		}
		if st := r.State(); st != Idle {
			t.Errorf("state %v after a refused start, want idle", st)
		}
	}
	// An engine that cannot run here is refused with its reason, and
	// the runner stays idle.
	err := r.Start(ring(10), solver.Params{Algorithm: "fake", Backend: solver.BackendGPU})
	if !errors.Is(err, errNoDevice) {
		t.Errorf("an unavailable GPU engine: %v, want its reason %q", err, errNoDevice)
	}
	if st := r.State(); st != Idle {
		t.Errorf("state %v after a refused start, want idle", st)
	}
	// Backend auto falls back to the CPU engine and says why.
	if err := r.Start(ring(10), solver.Params{Algorithm: "fake", Backend: solver.BackendAuto, TimeLimit: 50 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	r.Wait()
	if last := r.Last(); last.Engine != "fake/cpu" || !strings.Contains(last.Note, errNoDevice.Error()) {
		t.Errorf("auto ran %q with note %q, want fake/cpu and the GPU's reason", last.Engine, last.Note)
	}
}

func cos(a float64) float64 { return math.Cos(a) }
func sin(a float64) float64 { return math.Sin(a) }

func TestRunnerReportsPhases(t *testing.T) {
	fakeengine.Register(fakeengine.Engine{Algo: "slowstart", SetupDelay: 300 * time.Millisecond})
	in := ring(50)
	r := NewRunner()
	var rec recorder
	r.OnUpdate = rec.add
	if err := r.Start(in, solver.Params{Algorithm: "slowstart", Backend: solver.BackendCPU, TimeLimit: time.Second}); err != nil {
		t.Fatal(err)
	}
	r.Wait()
	ups := rec.all()
	var setup, search int
	lastPhaseProgress := -1.0
	for i, u := range ups {
		switch u.Phase {
		case solver.PhaseStart:
			setup++
			if search > 0 {
				t.Fatalf("update %d: back in the start-tour phase after the search began", i)
			}
			if u.PhaseProgress < lastPhaseProgress || u.PhaseProgress > 1 {
				t.Errorf("update %d: start-tour progress %v after %v", i, u.PhaseProgress, lastPhaseProgress)
			}
			lastPhaseProgress = u.PhaseProgress
			if u.BestLength != 0 || u.Best != nil {
				t.Errorf("update %d: a best tour during set-up", i)
			}
		case solver.PhaseSearch:
			search++
			if u.PhaseProgress >= 0 {
				t.Errorf("update %d: search progress %v, want unknown", i, u.PhaseProgress)
			}
		}
		if i > 0 && (u.Moves < ups[i-1].Moves || u.Steps < ups[i-1].Steps) {
			t.Fatalf("update %d: counters went back (%d moves after %d)", i, u.Moves, ups[i-1].Moves)
		}
	}
	if setup == 0 || search == 0 {
		t.Errorf("%d start-tour and %d search updates, want both phases seen", setup, search)
	}
	if last := ups[len(ups)-1]; last.State != Done || last.Phase != "" {
		t.Errorf("last update: state %v phase %q, want done and no phase", last.State, last.Phase)
	}
}

// TestRunnerShowsTheAccount: the engine's account reaches the updates
// while it runs, the last update (the app's status line) and the result.
func TestRunnerShowsTheAccount(t *testing.T) {
	r := NewRunner()
	var rec recorder
	r.OnUpdate = rec.add
	if err := r.Start(ring(30), solver.Params{Algorithm: "fake-account", Backend: "cpu", TimeLimit: 50 * time.Millisecond, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	r.Wait()
	ups := rec.all()
	has := func(a *solver.Account) bool {
		return a != nil && a.Search == solver.SearchMerged && a.Restarts != nil && a.Restarts.Count == 2
	}
	if len(ups) == 0 || !has(ups[len(ups)-1].Account) {
		t.Fatalf("last update %+v: want the engine's account", ups[len(ups)-1:])
	}
	running := false
	for _, u := range ups {
		running = running || (u.State == Running && has(u.Account))
	}
	if !running {
		t.Error("no update of the running engine carries its account")
	}
	if res, ok := r.Result(); !ok || !has(&res.Account) {
		t.Errorf("result account %+v", res.Account)
	}
}
