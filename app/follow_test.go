package app

import (
	"context"
	"errors"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	_ "github.com/tsplab/tsplab/solver/cpu"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/session"
)

// tapEngine stands in the registry for a real engine under its own name
// and keeps every snapshot the engine sends, unthrottled: the run's own
// record to hold what the app shows against.
type tapEngine struct {
	solver.Aided
	mu  sync.Mutex
	raw []solver.Snapshot
}

func (e *tapEngine) KeepsFixedEdges() bool {
	k, ok := e.Aided.(solver.FixedEdgesKeeper)
	return ok && k.KeepsFixedEdges()
}

func (e *tapEngine) Tune(in *solver.Instance, set solver.OptionSet) solver.OptionSet {
	if t, ok := e.Aided.(solver.Tuner); ok {
		return t.Tune(in, set)
	}
	return set
}

func (e *tapEngine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	return e.SolveAided(ctx, in, p, snaps, solver.Aid{})
}

func (e *tapEngine) SolveAided(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, aid solver.Aid) (solver.Result, error) {
	mine := make(chan solver.Snapshot, 1024)
	done := make(chan struct{})
	go func() {
		defer close(done)
		for s := range mine {
			e.mu.Lock()
			e.raw = append(e.raw, s)
			e.mu.Unlock()
			if snaps != nil {
				solver.Offer(snaps, s)
			}
		}
	}()
	res, err := e.Aided.SolveAided(ctx, in, p, mine, aid)
	close(mine)
	<-done
	return res, err
}

// improvements are the snapshots that carried a shorter best tour than
// every one before.
func (e *tapEngine) improvements() []solver.Snapshot {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []solver.Snapshot
	for _, s := range e.raw {
		if s.Best != nil && (len(out) == 0 || s.BestLength < out[len(out)-1].BestLength) {
			out = append(out, s)
		}
	}
	return out
}

// realAuto is solver/cpu's auto engine, taken before this package's
// init puts a fake in its place (package variables are set before init
// runs).
var realAuto, realAutoErr = cpuAuto()

// cpuAuto is the registered CPU auto engine as a solver.Aided.
func cpuAuto() (solver.Aided, error) {
	e, err := solver.Lookup("auto", solver.BackendCPU)
	if err != nil {
		return nil, err
	}
	a, ok := e.(solver.Aided)
	if !ok {
		return nil, errors.New("CPU auto takes no aid")
	}
	return a, nil
}

// tapAuto puts the real CPU auto engine, tapped, in the registry for
// the test's length.
func tapAuto(t *testing.T) *tapEngine {
	t.Helper()
	if raceOn {
		// The app's following of an engine is held under the race detector
		// by the fake engine's tests; these hold it to half a second of the
		// real engine's own clock, which the detector slows tenfold.
		t.Skip("times the real auto engine on the wall clock: runs without -race")
	}
	if realAutoErr != nil {
		t.Fatal(realAutoErr)
	}
	was, err := solver.Lookup("auto", solver.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	tap := &tapEngine{Aided: realAuto}
	solver.Register(tap)
	t.Cleanup(func() { solver.Register(was) })
	return tap
}

// followSlack is how late after the engine found a best tour the app may
// show it: docs/DECISIONS.md#frame-interval's half a second.
const followSlack = 500 * time.Millisecond

// TestAppFollowsEachImprovementOfAuto runs the real auto engine on a
// generated 1,000-city instance and holds the app against the engine's
// own snapshots: Best, the title, the gap and the plot follow each new
// best tour within half a second, and each step of the plot is a best
// tour of the engine, at the time the engine found it.
func TestAppFollowsEachImprovementOfAuto(t *testing.T) {
	tap := tapAuto(t)
	in, err := gen.Generate("clustered", 1000, 3)
	if err != nil {
		t.Fatal(err)
	}
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	p.SetInstance(in, nil)
	p.SetSettings(Settings{Algorithm: "auto", Backend: solver.BackendCPU, TimeLimit: 5 * time.Second, Seed: 1})
	var shown []session.Progress
	p.OnUpdate = func(q *Pane, pr session.Progress) {
		shown = append(shown, pr)
		if pr.BestLength <= 0 {
			return
		}
		want := in.HumanLength(pr.BestLength)
		if got := q.numbers.value["Best"].Text; got != want {
			t.Errorf("at %v Best shows %q, the update %q", pr.Elapsed, got, want)
		}
		if title := q.View.Scene().Title; !strings.Contains(title, want) {
			t.Errorf("at %v the title %q lacks the best %s", pr.Elapsed, title, want)
		}
		if gap := q.numbers.value["Gap"].Text; gap == "–" || gap == "" {
			t.Errorf("at %v no gap beside the best %s", pr.Elapsed, want)
		}
	}
	if err := p.RunFor(0); err != nil {
		t.Fatal(err)
	}
	settle(t, p)
	imps := tap.improvements()
	if len(imps) < 2 {
		t.Fatalf("the engine sent %d improvements; the test needs a few", len(imps))
	}
	end := shown[len(shown)-1].Elapsed
	// Each improvement is on screen within followSlack of its snapshot.
	for _, s := range imps {
		if s.Elapsed+followSlack >= end {
			break
		}
		ok := false
		for _, pr := range shown {
			if pr.Elapsed <= s.Elapsed+followSlack && pr.BestLength > 0 && pr.BestLength <= s.BestLength {
				ok = true
				break
			}
		}
		if !ok {
			t.Errorf("the engine's best %d at %v was not on screen by %v", s.BestLength, s.Elapsed, s.Elapsed+followSlack)
		}
		if b := curveBestAt(p.Curve.Points(), s.Elapsed+followSlack); b == 0 || b > s.BestLength {
			t.Errorf("the plot at %v shows %d, the engine had %d at %v", s.Elapsed+followSlack, b, s.BestLength, s.Elapsed)
		}
	}
	// Each step down of the plot is one of the engine's best tours, at
	// the time the engine found it (the last may be the result's).
	pts := p.Curve.Points()
	res, _ := p.Runner.Result()
	steps := 0
	for i, pt := range pts {
		if i > 0 && pt.Best >= pts[i-1].Best {
			continue
		}
		steps++
		if pt.Best == res.Length && i == len(pts)-1 {
			continue
		}
		if !hasSnapshot(imps, pt) {
			t.Errorf("the plot's step to %d at %v is none of the engine's snapshots", pt.Best, pt.Elapsed)
		}
	}
	// Each best the pane showed is a step of the plot: a loaded machine
	// shows fewer frames, never a flat plot under changing numbers.
	distinct := map[int64]bool{}
	for _, pr := range shown {
		if pr.BestLength > 0 {
			distinct[pr.BestLength] = true
		}
	}
	if steps < len(distinct) || steps < 2 {
		t.Errorf("the plot has %d steps for the %d bests shown and the engine's %d improvements: %v", steps, len(distinct), len(imps), pts)
	}
}

// curveBestAt is the plot's best length at time d (0: none yet).
func curveBestAt(pts []export.CurvePoint, d time.Duration) int64 {
	var b int64
	for _, pt := range pts {
		if pt.Elapsed <= d && (b == 0 || pt.Best < b) {
			b = pt.Best
		}
	}
	return b
}

func hasSnapshot(imps []solver.Snapshot, pt export.CurvePoint) bool {
	for _, s := range imps {
		if s.BestLength == pt.Best && (s.BestElapsed == pt.Elapsed || s.Elapsed == pt.Elapsed) {
			return true
		}
	}
	return false
}

// thresholdRe reads one threshold of a compare summary line: "5 % at 1.23 s".
var thresholdRe = regexp.MustCompile(`([0-9.]+) % at ([0-9.]+) s`)

// TestCompareTimesComeFromTheRunsOwnSnapshots runs the real auto engine
// in pane A of compare mode: the summary's time to each gap is when the
// engine's own snapshots first came within it, within half a second.
func TestCompareTimesComeFromTheRunsOwnSnapshots(t *testing.T) {
	tap := tapAuto(t)
	in, err := gen.Generate("clustered", 1000, 5)
	if err != nil {
		t.Fatal(err)
	}
	// The gaps are measured against a reference the run crosses on its
	// way on any machine: a sixth below the nearest-neighbour tour.
	in.Optimum = solver.TourLength(in, construct.NearestNeighbor(in, 0, nil)) * 5 / 6
	in.OptimumSource = "the test's reference"
	ap, loads := newTestApp(t, Options{Compare: true})
	waitLoad(t, loads)
	for _, p := range ap.Panes() {
		p.SetInstance(in, nil)
	}
	ap.Left.SetSettings(Settings{Algorithm: "auto", Backend: solver.BackendCPU, TimeLimit: 5 * time.Second, Seed: 1})
	ap.Right.SetSettings(fakeSettings(time.Second))
	ap.Left.OnUpdate = func(*Pane, session.Progress) { ap.updateSummary() }
	if err := ap.RunCompareFor(3 * time.Second); err != nil {
		t.Fatal(err)
	}
	settle(t, ap.Left)
	settle(t, ap.Right)
	ap.updateSummary()
	ref, _ := ap.Left.Reference()
	line, _, _ := strings.Cut(ap.Summary(), "\n")
	t.Log(line)
	got := map[string]float64{}
	for _, m := range thresholdRe.FindAllStringSubmatch(line, -1) {
		got[m[1]], _ = strconv.ParseFloat(m[2], 64)
	}
	var raw []export.CurvePoint
	for _, s := range tap.improvements() {
		raw = append(raw, export.CurvePoint{Elapsed: s.Elapsed, Best: s.BestLength})
	}
	reached := 0
	for i, d := range ThresholdTimes(raw, ref) {
		key := strconv.FormatFloat(GapThresholds[i], 'g', -1, 64)
		at, ok := got[key]
		switch {
		case d < 0 && ok:
			t.Errorf("the summary has %s %% at %.2f s, the engine's snapshots never came within it: %q", key, at, line)
		case d < 0:
		case !ok:
			t.Errorf("the engine came within %s %% at %v, the summary does not say so: %q", key, d, line)
		default:
			reached++
			if diff := time.Duration(at*float64(time.Second)) - d; diff < -10*time.Millisecond || diff > followSlack {
				t.Errorf("the summary has %s %% at %.2f s, the engine's snapshots at %.2f s: %q", key, at, d.Seconds(), line)
			}
		}
	}
	if reached == 0 {
		t.Errorf("no threshold reached above %d: %q", ref, line)
	}
}
