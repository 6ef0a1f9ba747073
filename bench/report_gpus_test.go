package bench

import (
	"slices"
	"strings"
	"testing"
	"time"
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
	for _, want := range []string{"gpus   gpus          about 7m0s", "gpus   total         about 7m0s"} {
		if !strings.Contains(plan, want) {
			t.Errorf("the plan lacks %q:\n%s", want, plan)
		}
	}
	full := gpusSettingOf(false)
	// the runs of fixed length: climbs and GPU auto's shorter runs, on 1, 2 and 4 GPUs, within the budget
	fixed := time.Duration(len(full.climbSizes))*full.climbTime + time.Duration(len(full.auto))*full.autoTimes[0]
	if 3*fixed > full.budget/2 {
		t.Errorf("the fixed runs take %v of the part's %v", 3*fixed, full.budget)
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

// TestLengthsAgainst: the same lengths are +0 % against themselves; one 1 % longer says so.
func TestLengthsAgainst(t *testing.T) {
	ref := []float64{100, 200}
	if got := lengthsAgainst(ref, ref); got != "+0.0000 (+0.0000–+0.0000) % against one GPU's tours" {
		t.Errorf("lengthsAgainst of the same lengths = %q", got)
	}
	if got := lengthsAgainst([]float64{101, 200}, ref); !strings.Contains(got, "+1.0000") {
		t.Errorf("one 1 %% longer: %q", got)
	}
}
