package tsplib

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseHeaderStopsAtTheFirstSection(t *testing.T) {
	// The data after the header is broken: a header read never sees it.
	src := "NAME : tiny\nCOMMENT : five cities\nTYPE : TSP\nDIMENSION : 5\nEDGE_WEIGHT_TYPE : euc_2d\nnode_coord_section\n1 0 0\n2 x y\n"
	h, err := ParseHeader(strings.NewReader(src), "tiny.tsp")
	if err != nil {
		t.Fatal(err)
	}
	want := Header{Name: "tiny", Type: "TSP", Comment: "five cities", Dimension: 5, Metric: "EUC_2D", Section: "NODE_COORD_SECTION"}
	if h != want {
		t.Errorf("header %+v, want %+v", h, want)
	}
	if _, err := Parse(strings.NewReader(src), "tiny.tsp"); err == nil {
		t.Error("the full reader accepted the broken data: the test proves nothing")
	}
}

func TestParseHeaderErrorsAreTheReaders(t *testing.T) {
	for _, c := range []struct{ src, want string }{
		{"NAME : a\nTYPE : ATSP\nDIMENSION : 3\n", "a.tsp:2: TYPE ATSP"},
		{"NAME : a\nDIMENSION : -4\nNODE_COORD_SECTION\n", "a.tsp:2: DIMENSION -4 must be at least 1"},
		{"NAME : a\nTYPE : TSP\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n", "a.tsp:4: no DIMENSION"},
		{"NAME : a\nDIMENSION : 3\nDIMENSION : 3\n", "a.tsp:3: DIMENSION given twice"},
		{"NAME : a\nEDGE_WEIGHT_TYPE : XRAY1\n", "a.tsp:2: EDGE_WEIGHT_TYPE XRAY1 is not supported"},
	} {
		_, herr := ParseHeader(strings.NewReader(c.src), "a.tsp")
		if herr == nil || !strings.HasPrefix(herr.Error(), c.want) {
			t.Errorf("%q: header error %v, want %q…", c.src, herr, c.want)
		}
		// The full reader gives the same line for a header fault.
		if _, err := Parse(strings.NewReader(c.src), "a.tsp"); err == nil || (!strings.Contains(c.want, "no DIMENSION") && err.Error() != herr.Error()) {
			t.Errorf("%q: reader says %v, header read says %v", c.src, err, herr)
		}
	}
}

func TestReadHeaderNameFromTheFileAndNotRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "noname.tsp")
	if err := os.WriteFile(p, []byte("TYPE: TSP\nDIMENSION: 7\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	h, err := ReadHeader(p)
	if err != nil {
		t.Fatal(err)
	}
	if h.Name != "noname" || h.Dimension != 7 || h.Metric != "EXPLICIT" || h.Format != "FULL_MATRIX" {
		t.Errorf("header %+v", h)
	}
	if _, err := ReadHeader(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := ReadHeader(filepath.Join(dir, "missing.tsp")); err == nil || !strings.HasPrefix(err.Error(), filepath.Join(dir, "missing.tsp")+": ") {
		t.Errorf("a missing file: %v", err)
	}
}

func TestKnownOptimumTablesOnly(t *testing.T) {
	dir, other := t.TempDir(), t.TempDir()
	p := filepath.Join(dir, "a.tsp")
	write := func(path, text string) {
		t.Helper()
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(dir, OptimaFile), "name,optimum\nbyname,7\n")
	write(filepath.Join(other, OptimaFile), "name,optimum\na,11\nbyname,99\n")
	write(filepath.Join(other, "env.csv"), "name,optimum\nfromenv,5\n")
	t.Setenv(OptimaEnv, filepath.Join(other, "env.csv"))
	for _, c := range []struct {
		name string
		dirs []string
		opt  int64
		ok   bool
	}{
		{"", nil, 0, false},             // a is only in the other folder
		{"", []string{other}, 11, true}, // found there by file name
		{"byname", nil, 7, true},        // beside the file, by NAME
		{"byname", []string{other}, 7, true},
		{"fromenv", nil, 5, true}, // $TSPLIB_OPTIMA last
	} {
		opt, src, ok := KnownOptimum(p, c.name, c.dirs...)
		if opt != c.opt || ok != c.ok || ok && src == "" {
			t.Errorf("KnownOptimum(a.tsp, %q, %v) = %d %q %v, want %d %v", c.name, c.dirs, opt, src, ok, c.opt, c.ok)
		}
	}
}
