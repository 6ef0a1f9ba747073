package tsplib

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver/problem"
)

// optimaRow is one row of the TSPLIB folder's optima.csv.
type optimaRow struct {
	dim    int
	metric string
	opt    int64
}

func readOptimaRows(t *testing.T, dir string) map[string]optimaRow {
	t.Helper()
	recs, err := readCSV(filepath.Join(dir, "optima.csv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]optimaRow{}
	for _, r := range recs.rows {
		var row optimaRow
		row.dim = int(mustInt(t, r[recs.col["dimension"]]))
		row.metric = r[recs.col["edge_weight_type"]]
		row.opt = mustInt(t, r[recs.col["optimum"]])
		rows[r[recs.col["name"]]] = row
	}
	return rows
}

// TestAllInstancesLoad reads every instance of the TSPLIB folder and checks
// DIMENSION and EDGE_WEIGHT_TYPE against optima.csv.
func TestAllInstancesLoad(t *testing.T) {
	dir := tsplibdir.Need(t)
	rows := readOptimaRows(t, dir)
	files, _ := filepath.Glob(filepath.Join(dir, "*.tsp"))
	if len(files) != 112 || len(rows) != 112 {
		t.Errorf("found %d .tsp files and %d optima rows, want 112 each", len(files), len(rows))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".tsp")
		in, err := Read(f)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		row, ok := rows[name]
		if !ok {
			t.Errorf("%s: no row in optima.csv", name)
			continue
		}
		if in.N != row.dim {
			t.Errorf("%s: N = %d, optima.csv says %d", name, in.N, row.dim)
		}
		if in.Metric.String() != row.metric {
			t.Errorf("%s: metric %v, optima.csv says %s", name, in.Metric, row.metric)
		}
		if in.Path != f {
			t.Errorf("%s: Path = %q", name, in.Path)
		}
		if strings.HasSuffix(in.Name, ".tsp") || in.Name == "" {
			t.Errorf("%s: Name = %q", name, in.Name)
		}
		checkInstance(t, name, in)
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if in.Metric == problem.Explicit && in.HasCoords() != bytes.Contains(raw, []byte("DISPLAY_DATA_SECTION")) {
			t.Errorf("%s: has coordinates %v, but DISPLAY_DATA_SECTION present is %v", name, in.HasCoords(), !in.HasCoords())
		}
		if (len(in.FixedEdges) > 0) != bytes.Contains(raw, []byte("FIXED_EDGES_SECTION")) {
			t.Errorf("%s: fixed edges %v", name, in.FixedEdges)
		}
	}
	if in := readData(t, "linhp318"); len(in.FixedEdges) != 1 || in.FixedEdges[0] != [2]int{0, 213} || in.Name != "lin318" {
		t.Errorf("linhp318: NAME %q, fixed edges %v, want lin318 and [[0 213]]", in.Name, in.FixedEdges)
	}
	if in := readData(t, "ulysses22"); in.Name != "ulysses22" {
		t.Errorf("ulysses22: NAME %q, want it without .tsp", in.Name)
	}
}

// checkInstance asserts the invariants every parsed instance keeps.
func checkInstance(t *testing.T, name string, in *problem.Instance) {
	t.Helper()
	n := in.N
	if n < 1 {
		t.Fatalf("%s: N = %d", name, n)
	}
	if in.Metric == problem.Explicit {
		if len(in.Matrix) != n*n {
			t.Fatalf("%s: matrix has %d entries, want %d", name, len(in.Matrix), n*n)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < i; j++ {
				if in.Matrix[i*n+j] != in.Matrix[j*n+i] {
					t.Fatalf("%s: matrix not symmetric at (%d,%d)", name, i, j)
				}
			}
		}
		if in.X != nil && (len(in.X) != n || len(in.Y) != n) {
			t.Fatalf("%s: display coordinates have %d/%d entries, want %d", name, len(in.X), len(in.Y), n)
		}
		return
	}
	if len(in.X) != n || len(in.Y) != n {
		t.Fatalf("%s: coordinates have %d/%d entries, want %d", name, len(in.X), len(in.Y), n)
	}
	if in.Metric.Is3D() != (len(in.Z) == n) {
		t.Fatalf("%s: Z has %d entries for %v", name, len(in.Z), in.Metric)
	}
}

func mustInt(t *testing.T, s string) int64 {
	t.Helper()
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestOptimalToursMatchOptima evaluates each opt/*.opt.tour on its
// instance: its length must equal the optimum in optima.csv. Together the
// tours cover EUC_2D, CEIL_2D, ATT and GEO.
func TestOptimalToursMatchOptima(t *testing.T) {
	dir := tsplibdir.Need(t)
	rows := readOptimaRows(t, dir)
	tours, _ := filepath.Glob(filepath.Join(dir, "opt", "*.opt.tour"))
	if len(tours) != 25 {
		t.Errorf("found %d optimal tours, want 25", len(tours))
	}
	metrics := map[problem.Metric]bool{}
	for _, tp := range tours {
		name := strings.TrimSuffix(filepath.Base(tp), ".opt.tour")
		in, err := Read(filepath.Join(dir, name+".tsp"))
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		tour, err := ReadTour(tp, in.N)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if err := problem.ValidateTour(tour, in.N); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		if got, want := problem.TourLength(in, tour), rows[name].opt; got != want {
			t.Errorf("%s (%v): optimal tour length %d, optima.csv says %d", name, in.Metric, got, want)
		}
		metrics[in.Metric] = true
	}
	for _, m := range []problem.Metric{problem.Euc2D, problem.Ceil2D, problem.Att, problem.Geo} {
		if !metrics[m] {
			t.Errorf("no optimal tour checked %v", m)
		}
	}
}

// readData reads NAME.tsp of the TSPLIB folder, skipping when absent.
func readData(t *testing.T, name string) *problem.Instance {
	t.Helper()
	in, err := Read(tsplibdir.Instance(t, name))
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestLoadData attaches the optimum from the folder's optima.csv, matching
// the file name before NAME (linhp318 says NAME: lin318).
func TestLoadData(t *testing.T) {
	dir := tsplibdir.Need(t)
	rows := readOptimaRows(t, dir)
	for _, name := range []string{"a280", "linhp318", "lin318", "ulysses16", "gr17", "sw24978"} {
		in, err := Load(filepath.Join(dir, name+".tsp"))
		if err != nil {
			t.Fatal(err)
		}
		// optima.csv lists linhp318's Hamiltonian path between the fixed
		// edge's ends; the tour optimum adds the fixed edge.
		want := rows[name].opt
		for _, e := range in.FixedEdges {
			want += in.Dist(e[0], e[1])
		}
		if in.Optimum != want || !strings.HasPrefix(in.OptimumSource, filepath.Join(dir, "optima.csv")) {
			t.Errorf("%s: optimum %d from %q, want %d from optima.csv", name, in.Optimum, in.OptimumSource, want)
		}
	}
	in := readData(t, "a280")
	if p := OptTourPath(in.Path, in); p != filepath.Join(dir, "opt", "a280.opt.tour") {
		t.Errorf("OptTourPath(a280) = %q", p)
	}
	if p := OptTourPath(filepath.Join(dir, "gr17.tsp"), nil); p != "" {
		t.Errorf("OptTourPath(gr17) = %q, want none", p)
	}
}

// TestGzipData reads TSPLIB instances gzip-compressed as TSPLIB95
// distributes them: the same instance as the plain file, the optimum
// from the folder's optima.csv by the name without .tsp.gz, and the
// optimal tour from a sibling .opt.tour.gz.
func TestGzipData(t *testing.T) {
	dir := tsplibdir.Need(t)
	tmp := t.TempDir()
	for _, name := range []string{"a280", "pr2392", "gr17"} {
		plain := filepath.Join(dir, name+".tsp")
		data, err := os.ReadFile(plain)
		if err != nil {
			t.Skipf("%s: %v", name, err)
		}
		gz := filepath.Join(tmp, name+".tsp.gz")
		if err := os.WriteFile(gz, testinst.Gzip(t, string(data)), 0o644); err != nil {
			t.Fatal(err)
		}
		want, err := Load(plain)
		if err != nil {
			t.Fatal(err)
		}
		got, err := Load(gz, dir)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got.N != want.N || got.Name != want.Name || got.Optimum != want.Optimum || got.Metric != want.Metric {
			t.Errorf("%s.tsp.gz: %d cities, name %q, optimum %d; the plain file: %d, %q, %d", name, got.N, got.Name, got.Optimum, want.N, want.Name, want.Optimum)
		}
		for i := range min(got.N, 50) {
			if got.Dist(0, i) != want.Dist(0, i) {
				t.Fatalf("%s.tsp.gz: d(1,%d) = %d, want %d", name, i+1, got.Dist(0, i), want.Dist(0, i))
			}
		}
		tour, err := os.ReadFile(filepath.Join(dir, "opt", name+".opt.tour"))
		if err != nil {
			continue
		}
		tgz := filepath.Join(tmp, name+".opt.tour.gz")
		if err := os.WriteFile(tgz, testinst.Gzip(t, string(tour)), 0o644); err != nil {
			t.Fatal(err)
		}
		if p := OptTourPath(gz, got); p != tgz {
			t.Errorf("%s: OptTourPath = %q, want %q", name, p, tgz)
		}
		if o, src, ok := FindOptimum(got); !ok || o != want.Optimum || src != tgz {
			t.Errorf("%s: optimum %d from %q, want %d from the .opt.tour.gz", name, o, src, want.Optimum)
		}
	}
}
