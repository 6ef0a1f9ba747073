package bench

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// gpusRowsOf are the rows of a measurement on counts GPUs at rates[i], the others' fields fixed.
func gpusRowsOf(what string, counts []int, rates []float64) []gpusRow {
	var out []gpusRow
	for i, n := range counts {
		out = append(out, gpusRow{what: what, gpus: n, used: n, rate: rates[i], unit: "moves/s", tours: "length 1,000"})
	}
	return out
}

func TestGPUsTable(t *testing.T) {
	rows := gpusRowsOf("pspm", []int{1, 2, 4}, []float64{2e11, 3.8e11, 6e11})
	rows = append(rows, gpusRowsOf("climb", []int{1, 2, 4}, []float64{1e12, 2e12, 4e12})...)
	rows = append(rows, gpusRow{what: "auto", gpus: 2, used: 1, tours: "gap 1.0000 %"},
		gpusRow{what: "auto 60", gpus: 4, notMade: "not made: no time"})
	tab := gpusTableOf(rows, 4)
	want := [][]string{
		{"pspm", "1", "1", "2e+11 moves/s", "1.00×", "100 %", "length 1,000"},
		{"pspm", "2", "2", "3.8e+11 moves/s", "1.90×", "95 %", "length 1,000"},
		{"pspm", "4", "4", "6e+11 moves/s", "3.00×", "75 %", "length 1,000"},
		{"climb", "1", "1", "1e+12 moves/s", "1.00×", "100 %", "length 1,000"},
		{"climb", "2", "2", "2e+12 moves/s", "2.00×", "100 %", "length 1,000"},
		{"climb", "4", "4", "4e+12 moves/s", "4.00×", "100 %", "length 1,000"},
		{"auto", "2", "1", "—", "—", "—", "gap 1.0000 %"},
		{"auto 60", "—", "—", "not made: no time", "—", "—", "—"},
	}
	if !slices.EqualFunc(tab.Rows, want, slices.Equal) {
		t.Errorf("rows\n%v\nwant\n%v", tab.Rows, want)
	}
	for _, r := range tab.Rows {
		if len(r) != len(tab.Header) {
			t.Errorf("row %v has %d cells, the header %d", r, len(r), len(tab.Header))
		}
	}
	// a host of two GPUs: the four-GPU runs are a row that says so, and no speed-up without one GPU's rate
	tab = gpusTableOf(gpusRowsOf("climb", []int{2}, []float64{2e12}), 2)
	if got := tab.Rows[0][4]; got != "—" {
		t.Errorf("speed-up without a one-GPU row: %q", got)
	}
	// a rate a person counts has its digits grouped
	batch := gpusRowsOf("batch", []int{1}, []float64{2470.4})
	batch[0].unit = "instances/s"
	if got := gpusTableOf(batch, 1).Rows[0][3]; got != "2,470 instances/s" {
		t.Errorf("the batch's rate: %q", got)
	}
	last := tab.Rows[len(tab.Rows)-1]
	if last[1] != "4" || last[3] != "not made: the host has 2 GPUs" {
		t.Errorf("the last row of a two-GPU host is %v", last)
	}
	if got := countsUpTo(2); !slices.Equal(got, []int{1, 2}) {
		t.Errorf("countsUpTo(2) = %v", got)
	}
}

func TestAutoNotMade(t *testing.T) {
	counts := []int{1, 2, 4}
	if why := autoNotMade(counts, 60*time.Second, 2*time.Second, 190*time.Second, 7*time.Minute); why != "" {
		t.Errorf("three runs of 62 s in 190 s left: %q", why)
	}
	why := autoNotMade(counts, 60*time.Second, 5*time.Second, 150*time.Second, 7*time.Minute)
	if want := "not made: its runs on 1, 2 and 4 GPUs need about 195 s, and 150 s of the part's 420 s was left"; why != want {
		t.Errorf("got %q, want %q", why, want)
	}
	if why := autoNotMade([]int{1}, 10*time.Second, 0, -time.Second, time.Minute); !strings.Contains(why, "and 0 s of") {
		t.Errorf("overrun budget: %q", why)
	}
}

func TestGPUsPlan(t *testing.T) {
	plan := strings.Join(ReportPlan(), "\n")
	budget := gpusPartBudget.String()
	for _, want := range []string{"gpus   gpus          about " + budget, "gpus   total         about " + budget} {
		if !strings.Contains(plan, want) {
			t.Errorf("the plan lacks %q:\n%s", want, plan)
		}
	}
	// the part and the binary's start fit in one call of the device (10 minutes)
	if gpusPartBudget > 10*time.Minute-20*time.Second {
		t.Errorf("the part's budget %v leaves no time for the binary's start in a call of 10 minutes", gpusPartBudget)
	}
	for _, quick := range []bool{false, true} {
		s := gpusSettingOf(quick)
		// GPU auto: one run an instance and count, read at each time, the last its end
		if len(s.autoAt) == 0 || s.autoAt[len(s.autoAt)-1] != s.autoRun || !slices.IsSorted(s.autoAt) {
			t.Errorf("quick %v: GPU auto read at %v of a run of %v", quick, s.autoAt, s.autoRun)
		}
		// the runs of fixed length (climbs, GPU auto) on 1, 2 and 4 GPUs leave a minute (a fifth of the quick
		// budget) for the warm-up, pspm, the batch and the set-up
		fixed := 3 * (time.Duration(len(s.climbSizes))*s.climbTime + time.Duration(len(s.auto))*s.autoRun)
		if fixed > s.budget-min(time.Minute, s.budget/5) {
			t.Errorf("quick %v: the fixed runs take %v of the part's %v", quick, fixed, s.budget)
		}
	}
	if full := gpusSettingOf(false); !slices.Contains(full.autoAt, 10*time.Second) || full.autoRun != time.Minute ||
		!slices.Contains(full.auto, "E1M.0") || !slices.Contains(full.auto, "E100k.0") {
		t.Errorf("GPU auto's full setting: %v read at %v of %v", full.auto, full.autoAt, full.autoRun)
	}
	files := ReportFiles([]string{"gpus"})
	for _, n := range append([]string{"d18512"}, gpusLam...) {
		if !slices.Contains(files, n+".tsp") {
			t.Errorf("ReportFiles(gpus) lacks %s.tsp: %v", n, files)
		}
	}
	for _, f := range files {
		if strings.HasPrefix(f, "E") {
			t.Errorf("ReportFiles(gpus) lists the generated %s", f)
		}
	}
}

func TestRenderGPUs(t *testing.T) {
	dir := t.TempDir()
	rr := &reportRun{repro: &repro{}, ropt: ReportOptions{Results: dir}, build: "abc1234", date: "2026-11-27", gpu: "NVIDIA H100 (sm_90, 132 SMs)", hostGPUs: 4}
	step, _ := reportStepOf("gpus")
	if err := rr.save(step, gpusTableOf(gpusRowsOf("`pspm`", []int{1, 4}, []float64{2e11, 7.2e11}), 4)); err != nil {
		t.Fatal(err)
	}
	md, err := tableMarkdown(dir, "gpus")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"*Build abc1234, 4 × NVIDIA H100 (sm_90, 132 SMs); ",
		"| what | GPUs | GPUs used | rate | speed-up | efficiency | tours |",
		"| `pspm` | 4 | 4 | 7.2e+11 moves/s | 3.60× | 90 % | length 1,000 |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the table lacks %q:\n%s", want, md)
		}
	}
	if strings.Count(md, "abc1234") != 1 || strings.Count(md, "2026-11-27") != 1 {
		t.Errorf("the build and date are not named once:\n%s", md)
	}
	var b strings.Builder
	if err := renderReport(&b, reportTemplate, dir); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "## <a id=\"gpus\"></a>Several GPUs of one host\n") || !strings.Contains(b.String(), md) {
		t.Errorf("the page has no several-GPU section with the table")
	}
}

// chunkBatch is a BatchGPU that returns each instance's identity tour and records the chunks each
// device (the gpus option) was given.
type chunkBatch struct {
	mu     sync.Mutex
	chunks map[string][]int // device → the sizes of its chunks
}

func (b *chunkBatch) SolveBatch(_ context.Context, ins []*solver.Instance, p solver.Params) ([]solver.Result, error) {
	b.mu.Lock()
	b.chunks[p.Extra[gpusOption]] = append(b.chunks[p.Extra[gpusOption]], len(ins))
	b.mu.Unlock()
	out := make([]solver.Result, len(ins))
	for i, in := range ins {
		t := make([]int, in.N)
		for k := range t {
			t[k] = k
		}
		out[i] = solver.Result{Tour: t, Length: solver.TourLength(in, t), Device: "fake"}
	}
	return out, nil
}

func TestBatchOn(t *testing.T) {
	ins, err := batchInstances(20, 10)
	if err != nil {
		t.Fatal(err)
	}
	b := &chunkBatch{chunks: map[string][]int{}}
	rr := &reportRun{repro: &repro{ctx: context.Background()}}
	res, _, err := rr.batchOn(b, ins, 2, 4, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for i, x := range res {
		if want := solver.TourLength(ins[i], x.Tour); x.Length != want || len(x.Tour) != ins[i].N {
			t.Errorf("result %d is not instance %d's", i, i)
		}
	}
	var sizes []int
	for dev, c := range b.chunks {
		if dev != "0," && dev != "1," {
			t.Errorf("a chunk went to %q, not one device of the first two", dev)
		}
		sizes = append(sizes, c...)
	}
	slices.Sort(sizes)
	if !slices.Equal(sizes, []int{2, 4, 4}) {
		t.Errorf("chunk sizes %v, want 4, 4 and the 2 left", sizes)
	}
	if got := lengthsAgainst(res, res); got != "+0.0000 (+0.0000–+0.0000) % against one GPU's tours" {
		t.Errorf("lengthsAgainst of the same tours = %q", got)
	}
}

func TestAutoWhats(t *testing.T) {
	got := autoWhats("E1M.0", time.Minute, []time.Duration{10 * time.Second, time.Minute})
	want := []string{"GPU `auto`, E1M.0, best so far at 10 s of the 60-s run, seed 1", "GPU `auto`, E1M.0, 60 s, seed 1"}
	if !slices.Equal(got, want) {
		t.Errorf("autoWhats = %q, want %q", got, want)
	}
}

func TestAutoTours(t *testing.T) {
	c := ttqCase{refName: "best known", gap: func(l int64) float64 { return float64(l-1000) / 10 }}
	pts := []ttqPoint{{3 * time.Second, 1100}, {9 * time.Second, 1050}, {40 * time.Second, 1020}, {61 * time.Second, 1010}}
	for _, x := range []struct {
		at   time.Duration
		want string
	}{
		{2 * time.Second, "no tour by 2 s"},
		{10 * time.Second, "gap 5.0000 % (against the best known)"},
		// the run's end: its last tour, which may come a moment after the limit
		{time.Minute, "gap 1.0000 % (against the best known)"},
	} {
		if got := autoTours(pts, x.at, time.Minute, c); got != x.want {
			t.Errorf("at %v: %q, want %q", x.at, got, x.want)
		}
	}
	if got := autoTours(nil, time.Second, time.Minute, c); got != "no tour by 1 s" {
		t.Errorf("no curve: %q", got)
	}
}

func TestAutoSlackOf(t *testing.T) {
	rr := &reportRun{}
	if got := rr.autoSlackOf("E1M.0"); got != 0 {
		t.Errorf("no run yet: %v", got)
	}
	rr.autoSlack = map[string]time.Duration{"E100k.0": 2 * time.Second, "E10k.0": time.Second}
	if got := rr.autoSlackOf("E1M.0"); got != 2*time.Second {
		t.Errorf("an instance not run yet takes the most of the others: %v", got)
	}
	if got := rr.autoSlackOf("E10k.0"); got != time.Second {
		t.Errorf("an instance run takes its own: %v", got)
	}
}

// TestAutoRuns runs a real engine (CPU auto: the GPU's is absent here) through GPU auto's runs: one run a
// count, read at each time, each row naming its time and a gap no worse than the earlier time's.
func TestAutoRuns(t *testing.T) {
	var log strings.Builder
	r, err := newRepro(context.Background(), "report", Options{TSPLIBDir: "unused", Workers: 1, Log: &log})
	if err != nil {
		t.Fatal(err)
	}
	rr := &reportRun{repro: r}
	e := rr.engine("auto", solver.BackendCPU)
	if e == nil {
		t.Fatal("no CPU auto")
	}
	s := gpusSetting{autoRun: time.Second, autoAt: []time.Duration{300 * time.Millisecond, time.Second}}
	whats := autoWhats("E1k.0", s.autoRun, s.autoAt)
	rows, err := rr.autoRuns(e, "E1k.0", s, []int{1, 2}, whats)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || len(rows[0]) != 2 || len(rows[1]) != 2 {
		t.Fatalf("rows %v: want two times of two counts", rows)
	}
	for i, at := range rows {
		for k, row := range at {
			if row.what != whats[i] || row.gpus != []int{1, 2}[k] || row.used != 1 || row.notMade != "" {
				t.Errorf("row %d of time %d: %+v", k, i, row)
			}
		}
	}
	for k := range 2 {
		early, end := cellGap(t, rows[0][k].tours), cellGap(t, rows[1][k].tours)
		if end > early {
			t.Errorf("count %d: the end's gap %v above the earlier best %v", k, end, early)
		}
	}
	if _, ok := rr.autoSlack["E1k.0"]; !ok {
		t.Errorf("no set-up recorded: %v", rr.autoSlack)
	}
}

// cellGap reads the gap of a tours cell ("gap 1.2345 % (against …)"), +Inf for "no tour by …".
func cellGap(t *testing.T, cell string) float64 {
	t.Helper()
	if strings.HasPrefix(cell, "no tour by ") {
		return math.Inf(1)
	}
	var g float64
	if _, err := fmt.Sscanf(cell, "gap %g %%", &g); err != nil {
		t.Fatalf("tours cell %q: %v", cell, err)
	}
	return g
}
