package tsplib

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver/problem"
)

// square4 is a 10×10 square: its optimal tour has length 40.
const square4 = "NAME: sq\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 10 0\n3 10 10\n4 0 10\nEOF\n"

func writeFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadOptima(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "o.csv")
	writeFile(t, p, "optimum, comment ,Name\n10,a,x\n,unknown,y\n\n20,\"b, quoted\",z\n30,later,x\n")
	m, err := ReadOptima(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(m) != 2 || m["x"] != 30 || m["z"] != 20 {
		t.Errorf("ReadOptima = %v, want x:30 z:20", m)
	}
	bad := []struct{ text, msg string }{
		{"", ":1: empty file"},
		{"name,dimension\nx,3\n", ":1: header has no \"optimum\" column"},
		{"name,optimum\nx,3\ny,three\n", ":3: optimum \"three\" of \"y\" is not a non-negative integer"},
		{"name,optimum\nx,-3\n", ":2: optimum \"-3\""},
		{"name,optimum,name\n", ":1: column \"name\" given twice"},
		{"name,optimum\nx,\"3\n", ":2:"},
	}
	for _, b := range bad {
		writeFile(t, p, b.text)
		_, err := ReadOptima(p)
		if err == nil || !strings.Contains(err.Error(), p+b.msg) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want %s%s", b.text, err, p, b.msg)
		}
	}
	if _, err := ReadOptima(filepath.Join(dir, "none.csv")); err == nil {
		t.Error("missing CSV accepted")
	}
}

// TestFindOptimum walks the search order: optima.csv beside the file, the
// given dirs, then NAME.opt.tour beside the file or in opt/.
func TestFindOptimum(t *testing.T) {
	dir := t.TempDir()
	inst := filepath.Join(dir, "data", "square.tsp")
	writeFile(t, inst, square4)
	in, err := Read(inst)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, ok := FindOptimum(in); ok {
		t.Fatal("optimum found with no files around")
	}
	if _, _, ok := FindOptimum(nil); ok {
		t.Fatal("optimum found for a nil instance")
	}

	// An optimal tour in opt/: its length.
	tourPath := filepath.Join(dir, "data", "opt", "square.opt.tour")
	writeFile(t, tourPath, "TYPE: TOUR\nDIMENSION: 4\nTOUR_SECTION\n1 2 3 4\n-1\n")
	if opt, src, ok := FindOptimum(in); !ok || opt != 40 || src != tourPath {
		t.Errorf("from opt/: %d %q %v, want 40 from %s", opt, src, ok, tourPath)
	}
	if p := OptTourPath(inst, in); p != tourPath {
		t.Errorf("OptTourPath = %q", p)
	}
	// Beside the file wins over opt/.
	beside := filepath.Join(dir, "data", "square.opt.tour")
	writeFile(t, beside, "TOUR_SECTION\n1 3 2 4\n")
	if opt, src, ok := FindOptimum(in); !ok || opt != 48 || src != beside {
		t.Errorf("beside: %d %q %v, want 48 (sqrt(200)=14 twice + 20) from %s", opt, src, ok, beside)
	}
	// A CSV in a given dir wins over tours; matched by NAME when the file
	// name is absent.
	other := filepath.Join(dir, "other")
	writeFile(t, filepath.Join(other, "optima.csv"), "name,optimum\nsq,41\n")
	if opt, src, ok := FindOptimum(in, "", other); !ok || opt != 41 || src != filepath.Join(other, "optima.csv") {
		t.Errorf("dir: %d %q %v, want 41", opt, src, ok)
	}
	// A dir may name the CSV file itself.
	csvFile := filepath.Join(dir, "mine.csv")
	writeFile(t, csvFile, "optimum,name\n43,square\n")
	if opt, _, ok := FindOptimum(in, csvFile); !ok || opt != 43 {
		t.Errorf("csv path: %d %v, want 43", opt, ok)
	}
	// The CSV beside the file wins, by file name before NAME.
	besideCSV := filepath.Join(dir, "data", "optima.csv")
	writeFile(t, besideCSV, "name,dimension,edge_weight_type,optimum\nsq,4,EUC_2D,39\nsquare,4,EUC_2D,40\n")
	if opt, src, ok := FindOptimum(in, other); !ok || opt != 40 || src != besideCSV {
		t.Errorf("beside csv: %d %q %v, want 40 from %s", opt, src, ok, besideCSV)
	}
	// A broken CSV is skipped.
	writeFile(t, besideCSV, "nothing useful\n")
	if opt, _, ok := FindOptimum(in, other); !ok || opt != 41 {
		t.Errorf("broken beside csv: %d %v, want 41 from the dir", opt, ok)
	}

	// Load honours $TSPLIB_OPTIMA after the given dirs.
	env := filepath.Join(dir, "env")
	writeFile(t, filepath.Join(env, "optima.csv"), "name,optimum\nsquare,44\n")
	t.Setenv(OptimaEnv, env)
	os.Remove(besideCSV)
	got, err := Load(inst)
	if err != nil {
		t.Fatal(err)
	}
	if got.Optimum != 44 || got.OptimumSource != filepath.Join(env, "optima.csv") {
		t.Errorf("Load with $%s: %d from %q, want 44", OptimaEnv, got.Optimum, got.OptimumSource)
	}
	if got, _ := Load(inst, other); got.Optimum != 41 {
		t.Errorf("Load with a dir: %d, want 41", got.Optimum)
	}
	if _, err := Load(filepath.Join(dir, "missing.tsp")); err == nil {
		t.Error("Load of a missing file succeeded")
	}
}

// TestFindOptimumGzip: a .tsp.gz is known by its name without .gz and
// .tsp, in optima.csv and for a sibling NAME.opt.tour or NAME.opt.tour.gz
// (the plain one first); NAME inside differs so that the file name must
// match.
func TestFindOptimumGzip(t *testing.T) {
	text := strings.Replace(square4, "NAME: sq", "NAME: inner", 1)
	cases := []struct {
		files map[string]string // name -> content, gzipped when a tour's name ends .gz
		opt   int64
		src   string
	}{
		{map[string]string{"optima.csv": "name,optimum\nsquare,40\n"}, 40, "optima.csv"},
		{map[string]string{"square.opt.tour.gz": "TOUR_SECTION\n1 3 2 4\n"}, 48, "square.opt.tour.gz"},
		{map[string]string{"opt/square.opt.tour.gz": "TOUR_SECTION\n1 2 3 4\n"}, 40, "opt/square.opt.tour.gz"},
		{map[string]string{"square.opt.tour": "TOUR_SECTION\n1 2 3 4\n", "square.opt.tour.gz": "TOUR_SECTION\n1 3 2 4\n"}, 40, "square.opt.tour"},
		{map[string]string{"square.opt.tour.gz": "not gzip data, skipped\n"}, 0, ""},
	}
	for i, c := range cases {
		dir := t.TempDir()
		inst := filepath.Join(dir, "square.tsp.gz")
		writeFile(t, inst, string(testinst.Gzip(t, text)))
		for name, data := range c.files {
			if strings.HasSuffix(name, ".gz") && strings.HasPrefix(data, "TOUR") {
				data = string(testinst.Gzip(t, data))
			}
			writeFile(t, filepath.Join(dir, name), data)
		}
		in, err := Load(inst)
		if err != nil {
			t.Fatal(err)
		}
		want := ""
		if c.src != "" {
			want = filepath.Join(dir, c.src)
		}
		if in.Optimum != c.opt || in.OptimumSource != want {
			t.Errorf("case %d: optimum %d from %q, want %d from %q", i, in.Optimum, in.OptimumSource, c.opt, want)
		}
		if opt, _, ok := KnownOptimum(inst, "inner"); ok != strings.HasSuffix(c.src, ".csv") || ok && opt != c.opt {
			t.Errorf("case %d: KnownOptimum %d %v", i, opt, ok)
		}
	}
}

// TestFindOptimumFixedEdges: a tour that misses a fixed edge is not the
// optimum of the fixed-edge variant.
func TestFindOptimumFixedEdges(t *testing.T) {
	dir := t.TempDir()
	inst := filepath.Join(dir, "sqf.tsp")
	writeFile(t, inst, strings.Replace(square4, "NODE_COORD_SECTION", "FIXED_EDGES_SECTION\n1 3\n-1\nNODE_COORD_SECTION", 1))
	writeFile(t, filepath.Join(dir, "sqf.opt.tour"), "TOUR_SECTION\n1 2 3 4\n-1\n")
	in, err := Read(inst)
	if err != nil {
		t.Fatal(err)
	}
	if opt, _, ok := FindOptimum(in); ok {
		t.Errorf("tour without the fixed edge gave optimum %d", opt)
	}
	writeFile(t, filepath.Join(dir, "sqf.opt.tour"), "TOUR_SECTION\n1 3 2 4\n-1\n")
	if opt, _, ok := FindOptimum(in); !ok || opt != 48 {
		t.Errorf("tour with the fixed edge: %d %v, want 48", opt, ok)
	}
}

func TestAppendOptimum(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "optima.csv")
	if err := AppendOptimum(p, "circle100", 100, "EUC_2D", 628); err != nil {
		t.Fatal(err)
	}
	if err := AppendOptimum(p, "grid16", 16, "EUC_2D", 160); err != nil {
		t.Fatal(err)
	}
	if err := AppendOptimum(p, "circle100", 100, "EUC_2D", 627); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(p)
	want := "name,dimension,edge_weight_type,optimum\ncircle100,100,EUC_2D,627\ngrid16,16,EUC_2D,160\n"
	if string(data) != want {
		t.Errorf("file:\n%s\nwant:\n%s", data, want)
	}
	m, err := ReadOptima(p)
	if err != nil || m["circle100"] != 627 || m["grid16"] != 160 {
		t.Errorf("read back %v %v", m, err)
	}

	// Another layout: columns and extra data are kept.
	writeFile(t, p, "optimum,name,note\n5,a,keep me\n7,b,\"x, y\"\n")
	if err := AppendOptimum(p, "a", 3, "GEO", 6); err != nil {
		t.Fatal(err)
	}
	if err := AppendOptimum(p, "c", 3, "GEO", 9); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(p)
	want = "optimum,name,note\n6,a,keep me\n7,b,\"x, y\"\n9,c,\n"
	if string(data) != want {
		t.Errorf("file:\n%s\nwant:\n%s", data, want)
	}
	writeFile(t, p, "just,columns\n")
	if err := AppendOptimum(p, "a", 3, "GEO", 6); err == nil {
		t.Error("AppendOptimum accepted a CSV without name and optimum columns")
	}
	if err := AppendOptimum(filepath.Join(dir, "no", "such", "dir.csv"), "a", 3, "GEO", 6); err == nil {
		t.Error("AppendOptimum into a missing directory succeeded")
	}
}

// TestAppendOptimumForGenerated writes an instance and its optimum the way
// `tsp gen` does, then Load finds it.
func TestAppendOptimumForGenerated(t *testing.T) {
	dir := t.TempDir()
	in := problem.NewCoordInstance("grid9", problem.Euc2D, []float64{0, 1, 2, 0, 1, 2, 0, 1, 2}, []float64{0, 0, 0, 1, 1, 1, 2, 2, 2}, nil)
	in.Comment = "3x3 grid, optimum 10"
	var buf bytes.Buffer
	if err := WriteInstance(&buf, in); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "grid9.tsp")
	writeFile(t, path, buf.String())
	if err := AppendOptimum(filepath.Join(dir, OptimaFile), in.Name, in.N, in.Metric.String(), 10); err != nil {
		t.Fatal(err)
	}
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if got.Optimum != 10 || got.Comment != in.Comment {
		t.Errorf("Load: optimum %d comment %q", got.Optimum, got.Comment)
	}
}
