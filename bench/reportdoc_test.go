package bench

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// writeFiles writes name → content into a new temporary folder and returns it.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRenderReportSmall(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"report-ttq-tsplib.csv": "build,machine,date,instance,gap %\n" +
			"abc1234,\"H200, 16 cores\",2026-11-26,pr2392,0 / 0\n" +
			"abc1234,\"H200, 16 cores\",2026-11-26,a|b,0.0010 / 0.0020\n",
	})
	var b bytes.Buffer
	tmpl := "# T\n\nprose\n\n{{table \"ttq-tsplib\"}}\nmore prose\n\n{{table \"ttq-large\"}}"
	if err := renderReport(&b, tmpl, dir); err != nil {
		t.Fatal(err)
	}
	want := "# T\n\nprose\n\n*Build abc1234, H200, 16 cores, 2026-11-26.*\n\n" +
		"| instance | gap % |\n| --- | --- |\n| pr2392 | 0 / 0 |\n| a\\|b | 0.0010 / 0.0020 |\n" +
		"\nmore prose\n\n*Not measured yet: `tsp bench report --run gpu-b` writes it.*\n"
	if got := b.String(); got != want {
		t.Errorf("rendered:\n%s\nwant:\n%s", got, want)
	}
}

func TestRenderReportErrors(t *testing.T) {
	meta := "build,machine,date,x\n"
	cases := []struct{ name, csv, tmpl, want string }{
		{"two builds", meta + "a,m,d,1\nb,m,d,2\n", `{{table "kernel-pspm"}}`, `report-kernel-pspm.csv:3: build "b" differs from the table's "a"`},
		{"two dates", meta + "a,m,d,1\na,m,e,2\n", `{{table "kernel-pspm"}}`, `report-kernel-pspm.csv:3: date "e"`},
		{"no meta columns", "machine,build,date,x\na,m,d,1\n", `{{table "kernel-pspm"}}`, "report-kernel-pspm.csv:1: want a header"},
		{"no rows", meta, `{{table "kernel-pspm"}}`, "report-kernel-pspm.csv: no rows"},
		{"ragged", meta + "a,m,d\n", `{{table "kernel-pspm"}}`, "report-kernel-pspm.csv"},
		{"unknown table", meta + "a,m,d,1\n", `{{table "nonesuch"}}`, `table "nonesuch": no such table in the plan`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{"report-kernel-pspm.csv": c.csv})
			err := renderReport(&bytes.Buffer{}, c.tmpl, dir)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %v, want one containing %q", err, c.want)
			}
		})
	}
}

func TestReportBuilds(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"report-ttq-large.csv":   "build,machine,date,x\nb2,m,d,1\n",
		"report-ttq-tsplib.csv":  "build,machine,date,x\nb1,m,d,1\n",
		"report-kernel-pspm.csv": "build,machine,date,x\nb1,m,d,1\n",
		"report-other.csv":       "build,machine,date,x\nb3,m,d,1\n",
	})
	got, err := ReportBuilds(dir)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"b1", "b2"}; !slices.Equal(got, want) {
		t.Errorf("builds %v, want %v (the plan's order, each once, only the plan's tables)", got, want)
	}
}

func TestPivotCPU(t *testing.T) {
	tj := TableJSON{Header: []string{"instance", "n", "engine", "time s", "gap %"}, Rows: [][]string{
		{"a280", "280", "sa", "0.20", "4.1"}, {"a280", "280", "auto", "10.00", "0.00"},
		{"d493", "493", "sa", "0.30", "5.2"}, {"d493", "493", "auto", "10.01", "0.01"},
	}}
	got, err := pivotCPU(tj, []string{"a280", "d493"})
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{{"sa", "0.20", "4.1", "5.2"}, {"auto", "10.00", "0.00", "0.01"}}
	if !slices.EqualFunc(got.Rows, want, slices.Equal) {
		t.Errorf("rows %v, want %v", got.Rows, want)
	}
	if _, err := pivotCPU(TableJSON{Header: []string{"instance"}}, nil); err == nil {
		t.Error("a table without the engine column pivoted")
	}
}

func TestCells(t *testing.T) {
	if got := seedsCell([]float64{0.0012, nan, 0}, "%.4f"); got != "0.0012 / — / 0.0000" {
		t.Errorf("seedsCell = %q", got)
	}
	if got := spreadCell([]float64{1, 3, nan, 2}, "%.1f"); got != "2.0 (1.0–3.0)" {
		t.Errorf("spreadCell = %q", got)
	}
	if got := spreadCell([]float64{nan}, "%.1f"); got != "n/a" {
		t.Errorf("spreadCell of nothing = %q", got)
	}
}

// hexWord finds words that read as commit hashes: seven or more hex digits with a digit and a letter.
var hexWord = regexp.MustCompile(`\b[0-9a-f]{7,40}\b`)

// TestBenchmarksDoc holds docs/BENCHMARKS.md to what the generator writes for docs/results: a hand
// edit of the page, or a table changed without the page, fails here.
func TestBenchmarksDoc(t *testing.T) {
	results := filepath.Join("..", "docs", "results")
	page, err := os.ReadFile(filepath.Join("..", "docs", "BENCHMARKS.md"))
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := WriteReportDoc(&want, results); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(page, want.Bytes()) {
		t.Fatalf("docs/BENCHMARKS.md differs from what the generator writes for docs/results: run `go run ./cmd/tsp bench report` in the repository root (the page is never edited by hand; its prose is bench/report.md.tmpl)")
	}
	if n := bytes.Count(page, []byte("\n")); n > ReportDocMaxLines {
		t.Errorf("the page has %d lines, at most %d", n, ReportDocMaxLines)
	}
	builds, err := ReportBuilds(results)
	if err != nil {
		t.Fatal(err)
	}
	if len(builds) > len(ReportParts) {
		t.Errorf("the page names %d builds (%v), at most one a part: %d", len(builds), builds, len(ReportParts))
	}
	for _, w := range hexWord.FindAllString(string(page), -1) {
		if strings.ContainsAny(w, "0123456789") && strings.ContainsAny(w, "abcdef") && !slices.ContainsFunc(builds, func(b string) bool {
			return strings.HasPrefix(b, w) || strings.HasPrefix(w, strings.TrimSuffix(b, "+dirty"))
		}) {
			t.Errorf("the page names %s, not a build of its tables", w)
		}
	}
	if strings.ContainsAny(string(page), "°†‡§") {
		t.Error("the page has a build marker (° † ‡ §): a table is from one build")
	}
}

func TestGPUName(t *testing.T) {
	for in, want := range map[string]string{
		"NVIDIA H200 (sm_90, 132 SMs), a warp per instance: 4593138 kicks": "NVIDIA H200 (sm_90, 132 SMs)",
		"cpu: 16 cores; NVIDIA H100 80GB HBM3 (sm_90)":                     "NVIDIA H100 80GB HBM3 (sm_90)",
		"NVIDIA H200; 16 cores":                                            "NVIDIA H200",
		"GPU unavailable: no driver":                                       "",
	} {
		if got := gpuName(in); got != want {
			t.Errorf("gpuName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestReportFiles(t *testing.T) {
	got := ReportFiles([]string{"gpu-b", "cpu"})
	for _, want := range []string{"pla85900.tsp", "mona-lisa100K.tsp", "d18512.tsp", "d493.tsp", "rd100.tsp", "a280.tsp", "usa13509.tsp"} {
		if !slices.Contains(got, want) {
			t.Errorf("ReportFiles lacks %s: %v", want, got)
		}
	}
	for i, f := range got {
		if strings.HasPrefix(f, "E100k") || strings.HasPrefix(f, "E10M") || slices.Index(got, f) != i {
			t.Errorf("ReportFiles lists %s, generated or twice: %v", f, got)
		}
	}
	if got := ReportFiles([]string{"gpu-a"}); slices.Contains(got, "a280.tsp") {
		t.Errorf("gpu-a reads a280, the cpu part's: %v", got)
	}
}

// ReportDocMaxLines is the most lines of the page; the builds it names
// are at most one a part of the plan (ReportParts), each part one run of
// one build.
const ReportDocMaxLines = 250

// ReportBuilds are the builds the tables in results name, each once, in the plan's order.
func ReportBuilds(results string) ([]string, error) {
	var out []string
	for _, s := range reportPlan {
		path := filepath.Join(results, "report-"+s.id+".csv")
		b, err := os.ReadFile(path)
		if errors.Is(err, os.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, err
		}
		meta, _, err := readReportCSV(bytes.NewReader(b), path)
		if err != nil {
			return nil, err
		}
		if !slices.Contains(out, meta[0]) {
			out = append(out, meta[0])
		}
	}
	return out, nil
}
