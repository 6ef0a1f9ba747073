package bench

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// lamCapFake is an engine that never reaches the threshold: each run
// takes its whole time limit (reported, not slept) and counts its calls.
type lamCapFake struct {
	name  string
	calls *atomic.Int64
}

func (f lamCapFake) Name() string     { return f.name }
func (f lamCapFake) Backend() string  { return solver.BackendCPU }
func (f lamCapFake) Describe() string { return "test engine" }
func (f lamCapFake) Available() error { return nil }
func (f lamCapFake) Solve(ctx context.Context, in *solver.Instance, p solver.Params, _ chan solver.Snapshot) (solver.Result, error) {
	f.calls.Add(1)
	return solver.Result{Length: 1_000_000, Elapsed: p.TimeLimit, Params: p}, nil
}

// lamPriorCSV is a lam-table3.csv with a row for "sq" and an average row.
const lamPriorCSV = `instance,threshold (SSPM best),"SSPM runs, mean time",TC CPU SSPM,paper,TC CPU PSSM,paper,TC GPU PSPM,paper,GPU speedup,paper,GPU mean time to threshold s,SEC CPU SSPM %
sq,100,"10, 0.500 s",≤ 4.00 (8 of 10 trials reached it; 2 not within 60 s),0.5,not measured,not reported,50.00,37.31,≥ 12.5,75.1,0.250,not measured
"average (1 instance)",,,≤ 4.00,1.64,n/a,not reported,50.00,26.52,,39.5,,n/a
`

// TestLamTable3Prior: with --prior, an instance's threshold and its CPU
// SSPM and GPU PSPM columns are the earlier file's cells, CPU SSPM is not
// run, CPU PSSM's trials are capped at --scale × 5 × the mean time read
// back from the printed TC, and the convergence runs last the printed GPU
// time.
func TestLamTable3Prior(t *testing.T) {
	dir := t.TempDir()
	prior := filepath.Join(dir, "lam-table3.csv")
	if err := os.WriteFile(prior, []byte(lamPriorCSV), 0o644); err != nil {
		t.Fatal(err)
	}
	r, err := newRepro(context.Background(), "lam", Options{TSPLIBDir: "unused", Runs: 2, Time: time.Minute, Workers: 4, Scale: 0.2, Prior: prior})
	if err != nil {
		t.Fatal(err)
	}
	s := newLamSuite(r)
	var sspmCalls, pssmCalls, gpuCalls atomic.Int64
	s.eng = [3]solver.Engine{lamSSPM: lamCapFake{"sspm", &sspmCalls}, lamPSSM: lamCapFake{"pssm", &pssmCalls}, lamPSPM: lamCapFake{"pspm", &gpuCalls}}
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 10, 10, 0}, []float64{0, 0, 10, 10}, nil)
	in.Optimum = 40
	ins := []lamT3In{{name: "sq", in: in}}
	if err := s.attachPrior(ins); err != nil {
		t.Fatal(err)
	}
	s.table3(ins)
	s.averageRow3()
	if n := sspmCalls.Load(); n != 2 {
		t.Errorf("CPU SSPM ran %d times, want its 2 convergence runs alone (its trials come from --prior)", n)
	}
	if n := pssmCalls.Load(); n != 4 {
		t.Errorf("CPU PSSM ran %d times, want 2 trials + 2 convergence runs", n)
	}
	if n := gpuCalls.Load(); n != 2 {
		t.Errorf("GPU PSPM ran %d times, want its 2 convergence runs alone", n)
	}
	row := s.t3.Rows[0]
	want := map[string]string{
		"threshold (SSPM best)": "100", "SSPM runs, mean time": "10, 0.500 s",
		"TC CPU SSPM": "≤ 4.00 (8 of 10 trials reached it; 2 not within 60 s)",
		// 2 trials of 25 s each (0.2 × 5 × 100 / 4.00 s)
		"TC CPU PSSM": "≤ 4.00 (not reached within 25 s in any of 2 trials)",
		"TC GPU PSPM": "50.00", "GPU speedup": "≥ 12.5", "GPU mean time to threshold s": "0.250",
		"SEC GPU PSPM %": "2499900.00",
	}
	for i, h := range s.t3.Header {
		if w, ok := want[h]; ok && row[i] != w {
			t.Errorf("%s = %q, want %q", h, row[i], w)
		}
	}
	avg := s.t3.Rows[1]
	if avg[3] != "≤ 4.00" || avg[7] != "50.00" {
		t.Errorf("average TC SSPM / GPU = %q / %q, want the prior's ≤ 4.00 / 50.00", avg[3], avg[7])
	}
	if notes := strings.Join(s.table3Notes(), "\n"); !strings.Contains(notes, "Kept from --prior") || !strings.Contains(notes, " of sq.") {
		t.Errorf("notes do not say which rows came from --prior:\n%s", notes)
	}
}

// TestReadLamT3PriorErrors: a file that is not a Table 3 CSV, or a row
// whose kept cells are not measured, is refused with the file, line and
// cell named; rows without a threshold (the averages) are skipped.
func TestReadLamT3PriorErrors(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rows, err := readLamT3Prior(write("ok.csv", lamPriorCSV))
	if err != nil || len(rows) != 1 || rows["sq"] == nil {
		t.Fatalf("rows %v, err %v: want sq alone", rows, err)
	}
	p := rows["sq"]
	if p.sspmMean != 25*time.Second || !p.sspmBound || p.pspmBound || p.convAt != 250*time.Millisecond {
		t.Errorf("sq: SSPM mean %v bound %v, GPU bound %v, at %v", p.sspmMean, p.sspmBound, p.pspmBound, p.convAt)
	}
	for _, c := range []struct{ name, text, want string }{
		{"missing.csv", "", "no such file"},
		{"other.csv", "instance,n\nrd100,100\n", `line 1: no column "threshold (SSPM best)"`},
		{"badtc.csv", strings.Replace(lamPriorCSV, "≤ 4.00 (8 of", "not measured (8 of", 1), `line 2 (sq): TC CPU SSPM "not measured`},
		{"badat.csv", strings.Replace(lamPriorCSV, ",0.250,", ",n/a,", 1), `line 2 (sq): GPU mean time to threshold "n/a"`},
	} {
		path := filepath.Join(dir, c.name)
		if c.text != "" {
			path = write(c.name, c.text)
		}
		if _, err := readLamT3Prior(path); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: err %v, want it to say %q", c.name, err, c.want)
		}
	}
}
