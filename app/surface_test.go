package app

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/internal/fakeengine"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/session"
)

// TestOptionLabelsArePlainAndFit: every option of every engine this
// program registers (and every option the label table knows) has a label
// in words, not its --opt name, that fits the label column uncut; the
// Workers help speaks of cores, not of the program's goroutines.
func TestOptionLabelsArePlainAndFit(t *testing.T) {
	test.NewTempApp(t)
	check := func(name, backend string) {
		l := OptionLabel(name, backend)
		if l == name || strings.Contains(l, "_") || strings.ToUpper(l[:1]) != l[:1] {
			t.Errorf("option %s on %s: label %q is the raw name", name, backend, l)
		}
		if w := widget.NewLabel(l).MinSize().Width; w > labelWidth {
			t.Errorf("option %s on %s: label %q needs %.0f px, the column has %d: it would be cut", name, backend, l, w, labelWidth)
		}
	}
	seen := 0
	for _, a := range solver.Algorithms() {
		for _, b := range []string{solver.BackendCPU, solver.BackendGPU} {
			for _, o := range solver.OptionsFor(a, b) {
				check(o.Name, b)
				seen++
			}
		}
	}
	for name := range optionLabels {
		check(name, solver.BackendCPU)
		check(name, solver.BackendGPU)
	}
	if seen == 0 {
		t.Fatal("no engine options registered")
	}
	f := newSettingsForm(test.NewTempApp(t).Preferences(), "labels.", Settings{Algorithm: "auto", Backend: solver.BackendCPU, Seed: 1})
	f.SetInstance(grid(100))
	w := row(t, f, "workers")
	if h := w.help.Text; strings.Contains(h, "goroutine") || !strings.Contains(h, "cores") {
		t.Errorf("Workers help %q: want plain words about cores", h)
	}
}

// TestSettingsLabelsUncutOnScreen: in the single pane at 1280×800 the
// label of every field the annealer shows is as wide as its text.
func TestSettingsLabelsUncutOnScreen(t *testing.T) {
	ap, loads := newTestApp(t, Options{Algo: "pspm", Backend: solver.BackendCPU})
	waitLoad(t, loads)
	ap.Win.Resize(fyne.NewSize(1280, 800))
	layoutAgain(ap.Win.Content())
	n := 0
	for _, r := range ap.Single.settings.rows {
		if !r.box.Visible() {
			continue
		}
		n++
		if got, want := r.label.Size().Width, r.label.MinSize().Width; got < want {
			t.Errorf("label %q is %.0f px wide, its text needs %.0f: cut off", r.label.Text, got, want)
		}
	}
	if n == 0 {
		t.Fatal("pspm shows no option fields")
	}
}

// number is the text of pane p's live number k.
func number(p *Pane, k string) string { return p.numbers.value[k].Text }

// TestOpenTourFillsTheNumbers: a tour opened with Open tour… fills
// Length, Best and Gap with its length, as the title shows it.
func TestOpenTourFillsTheNumbers(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	in := p.Instance()
	if !in.HasOptimum() {
		t.Fatalf("the first sample %s has no optimum", in.Name)
	}
	var b strings.Builder
	for i := range in.N {
		fmt.Fprintln(&b, i+1)
	}
	file := writeFile(t, t.TempDir(), "order.txt", b.String())
	if err := ap.OpenStartTour(file); err != nil {
		t.Fatal(err)
	}
	l := solver.TourLength(in, solver.IdentityTour(in.N))
	g, _ := solver.GapPercent(l, in.Optimum)
	for k, want := range map[string]string{"Length": in.HumanLength(l), "Best": in.HumanLength(l), "Gap": fmt.Sprintf("%.2f %%", g)} {
		if got := number(p, k); got != want {
			t.Errorf("%s shows %q after Open tour…, want %q", k, got, want)
		}
	}
	if title := p.View.Scene().Title; !strings.Contains(title, in.HumanLength(l)) {
		t.Errorf("title %q lacks the length %s", title, in.HumanLength(l))
	}
}

// wanderEngine ends with its best tour, the instance's file order, while
// its last update's current tour is that order reversed in its first
// half: a longer tour, as an annealer's current tour often is at the end.
type wanderEngine struct{}

func (wanderEngine) Name() string     { return "wander" }
func (wanderEngine) Backend() string  { return solver.BackendCPU }
func (wanderEngine) Describe() string { return "test engine: ends away from its best tour" }
func (wanderEngine) Available() error { return nil }
func (e wanderEngine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	best := solver.IdentityTour(in.N)
	cur := slices.Clone(best)
	slices.Reverse(cur[:in.N/2+1])
	cur[0], cur[in.N/3] = cur[in.N/3], cur[0]
	snaps <- solver.Snapshot{Tour: cur, Length: solver.TourLength(in, cur), Best: best, BestLength: solver.TourLength(in, best),
		Elapsed: time.Since(start), Phase: solver.PhaseSearch, PhaseProgress: solver.UnknownProgress}
	return solver.Finish(in, e, p, solver.Outcome{Tour: best, Start: start, Device: "test"})
}

func init() { solver.Register(wanderEngine{}) }

// TestFinishedRunLengthIsTheTourDrawn: after a run whose current tour
// ended longer than its best, the canvas draws the best tour and Length
// is that tour's length, equal to Best.
func TestFinishedRunLengthIsTheTourDrawn(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	in := p.Instance()
	p.SetSettings(Settings{Algorithm: "wander", Backend: solver.BackendCPU, TimeLimit: time.Second, Seed: 1})
	test.Tap(p.controls.run)
	settle(t, p)
	if st := p.Runner.State(); st != session.Done {
		t.Fatalf("state %v", st)
	}
	drawn := p.View.Scene().Tour
	if len(drawn) != in.N {
		t.Fatalf("the canvas draws %d cities", len(drawn))
	}
	want := in.HumanLength(solver.TourLength(in, drawn))
	if got := number(p, "Length"); got != want || number(p, "Best") != want {
		t.Errorf("finished: Length %q, Best %q, the tour drawn is %s", got, number(p, "Best"), want)
	}
}

// TestProgressBarNeverGoesBack: through a set-up phase whose own progress
// runs ahead of the clock, a pause and a Step, the bar only moves
// forward, and its words say it measures the time limit.
func TestProgressBarNeverGoesBack(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	s := fakeSettings(2 * time.Second)
	s.Algorithm = "slowstart"
	p.SetSettings(s)
	var vals []float64
	var texts []string
	p.OnUpdate = func(p *Pane, _ session.Progress) {
		vals = append(vals, p.status.bar.Value())
		texts = append(texts, p.status.bar.Text())
	}
	if err := p.RunFor(0); err != nil {
		t.Fatal(err)
	}
	pump(t, "the search phase", func() bool { return p.Runner.Last().Phase == solver.PhaseSearch && p.Runner.Last().BestLength > 0 })
	p.Pause()
	settle(t, p)
	p.Step()
	settle(t, p)
	p.Run()
	settle(t, p)
	if len(vals) < 5 {
		t.Fatalf("only %d updates", len(vals))
	}
	for i := 1; i < len(vals); i++ {
		if vals[i] < vals[i-1] {
			t.Errorf("update %d: the bar went back from %.3f to %.3f (%q, then %q)", i, vals[i-1], vals[i], texts[i-1], texts[i])
		}
	}
	for i, txt := range texts {
		if !strings.HasSuffix(txt, " of 2 s") {
			t.Errorf("update %d: the bar says %q, want the time of the 2 s limit", i, txt)
			break
		}
	}
}

// TestCompareSummaryFollowsEveryChange: after a compare run the summary
// and the panes follow a click on another instance (no word of the old
// run is left) and a change of a pane's engine.
func TestCompareSummaryFollowsEveryChange(t *testing.T) {
	ap, loads := newTestApp(t, Options{Compare: true})
	waitLoad(t, loads)
	ap.Left.SetSettings(fakeSettings(time.Second))
	rs := fakeSettings(time.Second)
	rs.Algorithm = "fake2"
	ap.Right.SetSettings(rs)
	if err := ap.RunCompareFor(300 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	settle(t, ap.Left)
	settle(t, ap.Right)
	pump(t, "the summary of the run", func() bool { return strings.Contains(ap.Summary(), "best ") })
	first := ap.Left.Instance()
	if len(ap.Entries()) < 2 {
		t.Fatal("fewer than 2 samples listed")
	}
	next := 0
	if ap.Entries()[0].Path == ap.current {
		next = 1
	}
	ap.Select(next)
	waitLoad(t, loads)
	if ap.Left.Instance() == first {
		t.Fatal("the other instance was not loaded")
	}
	pump(t, "the summary to forget the old run", func() bool { return !strings.Contains(ap.Summary(), "best ") })
	if s := ap.Summary(); !strings.Contains(s, "Run both") {
		t.Errorf("summary after another instance: %q", s)
	}
	for _, p := range ap.Panes() {
		if got := number(p, "Best"); got != "–" {
			t.Errorf("pane %s still shows Best %q of the old instance", p.Name, got)
		}
	}
	ap.Left.SetSettings(rs)
	pump(t, "the summary to name A's new engine", func() bool { return strings.Contains(ap.Summary(), "A fake2/cpu") })
}

// TestInstanceListShowsWhatMatters: the bundled sample opened at start is
// marked in the list; each entry's second line fits the list at
// 1280×800, a file's reason it cannot be read shown whole on as many
// lines as it takes, without running into the next entry; a picture
// opened for TSP art is listed and marked while on screen.
func TestInstanceListShowsWhatMatters(t *testing.T) {
	ap, loads := newTestApp(t, Options{Open: "grid-20x20"})
	waitLoad(t, loads)
	ap.Win.Resize(fyne.NewSize(1280, 800))
	pump(t, "the sample opened at start to be marked", func() bool {
		return ap.selected >= 0 && ap.Entries()[ap.selected].Path == ap.current
	})
	if e := ap.Entries()[ap.selected]; e.Name != "grid-20x20" {
		t.Errorf("the list marks %s, want grid-20x20", e.Name)
	}

	dir := t.TempDir()
	good := writeFile(t, dir, "tiny.tsp", tinyTSP)
	bad := writeFile(t, dir, "bad.tsp", "NAME : bad\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 x 1\n")
	writeFile(t, dir, "towns.csv", "lat,lon\n48.85,2.35\n51.51,-0.13\n52.52,13.40\n40.42,-3.70\n")
	ap.OpenFile(good)
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	pump(t, "the check to mark bad.tsp", func() bool {
		for _, e := range ap.Entries() {
			if e.Path == bad {
				return e.Err != ""
			}
		}
		return false
	})
	layoutAgain(ap.Win.Content())
	room := ap.textRoom()
	fits := func(s string) bool { return fyne.MeasureText(s, theme.TextSize(), fyne.TextStyle{}).Width <= room }
	far := Entry{Name: "world", Dimension: 123456, Type: "TSP", Metric: "GREAT_CIRCLE"}
	for _, e := range append(slices.Clone(ap.Entries()), far) {
		if e.Err != "" {
			continue
		}
		// The line shows the cities and the optimum whole, the rest as it fits.
		line, parts := fitSummary(e, room), e.summaryParts()
		if !fits(line) || !strings.HasPrefix(line, strings.Join(parts[:2], " · ")) {
			t.Errorf("%s: the list's %.0f px show %q of %q", e.Name, room, line, e.Summary())
		}
	}
	var reason string
	for _, e := range ap.Entries() {
		if e.Path == bad {
			reason = e.Summary()
		}
	}
	if !strings.Contains(reason, "line 7") || strings.Contains(reason, dir) {
		t.Errorf("bad.tsp's reason %q: want the line, without the file's path", reason)
	}
	texts := visibleTexts(ap.list)
	if o := overlaps(texts); len(o) > 0 {
		t.Errorf("%d overlapping texts in the list, first %s", len(o), o[0])
	}
	var shown []string
	for _, x := range texts {
		shown = append(shown, x.text)
	}
	words := strings.Fields(reason)
	if all := strings.Join(shown, " "); !strings.Contains(all, words[len(words)-1]) || strings.Contains(all, "…") {
		t.Errorf("the list shows %q, want the whole reason %q", all, reason)
	}

	pic := writePicture(t, t.TempDir())
	ap.OpenPicture(pic, 300)
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	if ap.selected < 0 || ap.Entries()[ap.selected].Path != pic {
		t.Fatalf("the picture on screen is not marked in the list (%d entries)", len(ap.Entries()))
	}
	if s := ap.Entries()[ap.selected].Summary(); s != "picture · 300 points" {
		t.Errorf("the picture is listed as %q", s)
	}
}

// runCompare runs both compare panes for d and waits for their ends.
func runCompare(t *testing.T, ap *App, d time.Duration) {
	t.Helper()
	if err := ap.RunCompareFor(d); err != nil {
		t.Fatal(err)
	}
	settle(t, ap.Left)
	settle(t, ap.Right)
}

// TestCompareSharesTheCores: two engines that each run on every core
// they are given get half the cores each, and the summary says so; an
// engine that takes no workers leaves the other pane every core.
func TestCompareSharesTheCores(t *testing.T) {
	ap, loads := newTestApp(t, Options{Compare: true})
	waitLoad(t, loads)
	ap.Left.SetSettings(fakeSettings(time.Second))
	rs := fakeSettings(time.Second)
	rs.Algorithm = "fake2"
	ap.Right.SetSettings(rs)
	runCompare(t, ap, 300*time.Millisecond)
	share := max(1, runtime.NumCPU()/2)
	for _, p := range ap.Panes() {
		res, ok := p.Runner.Result()
		if !ok || res.Params.Workers != share {
			t.Errorf("pane %s ran on %d workers, want its share %d of %d cores", p.Name, res.Params.Workers, share, runtime.NumCPU())
		}
	}
	want := fmt.Sprintf("each pane had %d of the %s", share, report.Plural(runtime.NumCPU(), "core"))
	a8 := PaneSummary{Label: "A auto/cpu", Ran: true, Cores: 8, TotalCores: 16}
	b8 := PaneSummary{Label: "B auto/gpu", Backend: solver.BackendGPU, Ran: true, Cores: 8, TotalCores: 16}
	if got := CoresLine(a8, b8); got != "Cores shared fairly: each pane had 8 of the 16 cores." {
		t.Errorf("16 cores shared: %q", got)
	}
	b8.Cores = 0
	a8.Cores = 16
	if got := CoresLine(a8, b8); got != "Cores: A had 16 of the 16 cores; B ran on the GPU." {
		t.Errorf("one pane on the GPU alone: %q", got)
	}
	pump(t, "the summary to say how the cores were shared", func() bool { return strings.Contains(ap.Summary(), want) })
	if lines := ap.RunLines(); len(lines) != 2 || !strings.Contains(lines[0], fmt.Sprintf("(seed 2 on %d of ", share)) {
		t.Errorf("run lines %q: want each pane's seed and cores", lines)
	}

	// exact takes no workers: A keeps every core.
	ap.Right.SetSettings(Settings{Algorithm: "exact", Backend: solver.BackendCPU, Seed: 1})
	runCompare(t, ap, 300*time.Millisecond)
	if res, _ := ap.Left.Runner.Result(); res.Params.Workers != 0 && res.Params.Workers != runtime.NumCPU() {
		t.Errorf("beside an engine without workers A ran on %d workers, want every core", res.Params.Workers)
	}
	want = fmt.Sprintf("A had %d of the %s; B ran on one core", runtime.NumCPU(), report.Plural(runtime.NumCPU(), "core"))
	pump(t, "the summary to say what each pane had", func() bool { return strings.Contains(ap.Summary(), want) })
}

// TestSameEngineShowsSeedsAndSpread: with the same engine in both panes
// the summary names each pane's seed and says how to see what the seeds
// change; Swap seeds swaps them and runs the pair again, and the summary
// then gives each seed's result in both panes.
func TestSameEngineShowsSeedsAndSpread(t *testing.T) {
	ap, loads := newTestApp(t, Options{Compare: true})
	waitLoad(t, loads)
	ls, rs := fakeSettings(time.Second), fakeSettings(time.Second)
	ls.Seed, rs.Seed = 1, 2
	ap.Left.SetSettings(ls)
	ap.Right.SetSettings(rs)
	_ = ap.budget.Set("0.3")
	runCompare(t, ap, 300*time.Millisecond)
	pump(t, "the seeds in the summary", func() bool {
		s := ap.Summary()
		return strings.Contains(s, "A fake/cpu (seed 1)") && strings.Contains(s, "B fake/cpu (seed 2)") && strings.Contains(s, "Swap seeds")
	})
	// Swap seeds swaps them and runs the pair again, with the budget
	if err := ap.SwapSeeds(); err != nil {
		t.Fatal(err)
	}
	if l, _ := ap.Left.Settings(); l.Seed != 2 {
		t.Fatalf("after Swap seeds A has seed %d", l.Seed)
	}
	for _, p := range []*Pane{ap.Left, ap.Right} {
		if st := p.Runner.State(); st != session.Running && st != session.Done {
			t.Fatalf("Swap seeds did not run the pair again: %v", st)
		}
	}
	settle(t, ap.Left)
	settle(t, ap.Right)
	if res, _ := ap.Left.Runner.Result(); res.Params.Seed != 2 {
		t.Errorf("A ran seed %d after Swap seeds, want 2", res.Params.Seed)
	}
	pump(t, "the results by seed", func() bool { return strings.Contains(ap.Summary(), "results by seed") })
	s := ap.Summary()
	for _, seed := range []string{"seed 1 gave ", "seed 2 gave "} {
		i := strings.Index(s, seed)
		part, _, _ := strings.Cut(s[i:], ";")
		if !strings.Contains(part, "(A)") || !strings.Contains(part, "(B)") {
			t.Errorf("%q: want the seed's result in both panes", part)
		}
	}
}

func init() {
	fakeengine.Register(fakeengine.Engine{Algo: "noted", Account: &notedAccount})
}

// notedAccount is the account of the fake engine "noted": a pool.
var notedAccount = solver.Account{Pool: &solver.PoolAccount{Tours: 8, Capacity: 8, Crossovers: 5}}

// TestDetailsShowTheRunsAccount: once a run ends, the details expander
// beneath the status holds its account a fact a line; before any run
// there is none.
func TestDetailsShowTheRunsAccount(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	if p.details.Visible() {
		t.Error("details shown before any run")
	}
	s := fakeSettings(300 * time.Millisecond)
	s.Algorithm = "noted"
	p.SetSettings(s)
	test.Tap(p.controls.run)
	settle(t, p)
	want := report.Lines(p.Instance(), notedAccount)
	if got := p.details.Lines(); len(want) == 0 || !slices.Equal(got, want) || !strings.HasPrefix(got[0], "pool: 8 of 8 tours") || !p.details.Visible() {
		t.Errorf("details %q (shown %v)", got, p.details.Visible())
	}
	test.Tap(p.controls.reset)
	if p.details.Visible() {
		t.Error("details outlived the run")
	}
}
