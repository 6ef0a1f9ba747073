package tsplib

import (
	"bytes"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver/problem"
)

// TestTourRoundTrip writes tours and reads them back.
func TestTourRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 10, 1000} {
		tour := rng.Perm(n)
		var buf bytes.Buffer
		if err := WriteTour(&buf, "rt", "line one\nline two", tour); err != nil {
			t.Fatal(err)
		}
		text := buf.String()
		if !strings.HasPrefix(text, "NAME : rt\nCOMMENT : line one\nCOMMENT : line two\nTYPE : TOUR\n") || !strings.HasSuffix(text, "\n-1\nEOF\n") {
			t.Errorf("n=%d: unexpected layout:\n%.200s", n, text)
		}
		got, err := ParseTour(strings.NewReader(text), "rt.tour", n)
		if err != nil {
			t.Fatalf("n=%d: %v", n, err)
		}
		for i := range tour {
			if got[i] != tour[i] {
				t.Fatalf("n=%d: city %d read back as %d, want %d", n, i, got[i], tour[i])
			}
		}
		if got, err := ParseTour(strings.NewReader(text), "rt.tour", 0); err != nil || len(got) != n {
			t.Errorf("n=%d with size from DIMENSION: %v, %d cities", n, err, len(got))
		}
	}
}

// TestParseTourForms reads tours ending at -1, at EOF, at an EOF keyword,
// with CRLF, several ids per line and a second tour that is ignored.
func TestParseTourForms(t *testing.T) {
	want := []int{2, 0, 3, 1}
	forms := []string{
		"NAME : x.tour\nTYPE : TOUR\nDIMENSION : 4\nTOUR_SECTION\n3\n1\n4\n2\n-1\nEOF\n",
		"NAME: x\nTYPE: TOUR\nDIMENSION: 4\nTOUR_SECTION\n3 1 4 2\n",
		"TOUR_SECTION\n3 1\n4 2\nEOF",
		strings.ReplaceAll("COMMENT : c\nTYPE : TOUR\nTOUR_SECTION\n3\n1\n4\n2\n-1\n", "\n", "\r\n"),
		"TYPE:TOUR\nTOUR_SECTION:\n3 1 4 2 -1\n1 2 3 4 -1\n-1\nEOF\n",
	}
	for _, f := range forms {
		got, err := ParseTour(strings.NewReader(f), "x.tour", 4)
		if err != nil {
			t.Errorf("%q: %v", f, err)
			continue
		}
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%q: got %v, want %v", f, got, want)
				break
			}
		}
	}
}

func TestParseTourErrors(t *testing.T) {
	cases := []struct {
		text string
		n    int
		line int
		msg  string
	}{
		{"", 3, 1, "missing TOUR_SECTION"},
		{"NAME: x\nEOF\n", 3, 2, "missing TOUR_SECTION"},
		{"TYPE: TSP\n", 3, 1, "TYPE \"TSP\" is not a tour"},
		{"DIMENSION: 4\nTOUR_SECTION\n1 2 3\n", 3, 1, "tour DIMENSION 4 does not match the instance's 3 cities"},
		{"DIMENSION: x\n", 3, 1, "DIMENSION \"x\" is not an integer"},
		{"DIMENSION: 3\nDIMENSION: 3\n", 3, 2, "DIMENSION given twice"},
		{"TOUR_SECTION\n1 2\n-1\n", 3, 3, "TOUR_SECTION has 2 nodes, want 3"},
		{"TOUR_SECTION\n1 2 3 1\n-1\n", 3, 2, "more than 3 nodes"},
		{"TOUR_SECTION\n1\n2\n1\n-1\n", 3, 4, "node 1 visited twice (first on line 2)"},
		{"TOUR_SECTION\n1\n0\n2\n", 3, 3, "node id 0 out of range 1..3"},
		{"TOUR_SECTION\n1\n4\n2\n", 3, 3, "node id 4 out of range 1..3"},
		{"TOUR_SECTION\n1\n2.5\n2\n", 3, 3, "node id \"2.5\" is not an integer"},
		{"TOUR_SECTION\n1 2 3\n", 0, 1, "TOUR_SECTION before DIMENSION and no instance size given"},
		{"NAME: x\nNODE_COORD_SECTION\n", 3, 2, "in a tour file is not supported"},
		{"hello\n", 3, 1, "unexpected \"hello\""},
		{"TOUR_SECTION\n1 " + strings.Repeat("2", 500) + "\n", 3, 2, "token too long"},
	}
	for _, c := range cases {
		_, err := ParseTour(strings.NewReader(c.text), "bad.tour", c.n)
		checkError(t, c.text, err, "bad.tour", c.line, c.msg)
	}
}

func TestReadTourMissing(t *testing.T) {
	if _, err := ReadTour("/nonexistent/x.tour", 3); err == nil || !strings.Contains(err.Error(), "/nonexistent/x.tour") {
		t.Errorf("missing tour file: %v", err)
	}
}

// TestWriteInstanceRoundTrip writes random instances of every metric and
// reads them back: the same coordinates bit for bit, the same distances.
func TestWriteInstanceRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	metrics := []problem.Metric{problem.Euc2D, problem.Ceil2D, problem.Att, problem.Geo, problem.Man2D,
		problem.Max2D, problem.Euc3D, problem.Man3D, problem.Max3D}
	coord := func() float64 {
		switch rng.IntN(4) {
		case 0:
			return float64(rng.IntN(10000))
		case 1:
			return rng.Float64()*2e6 - 1e6
		case 2:
			return rng.NormFloat64() * 1e-7 // exponent form
		default:
			return math.Round(rng.Float64()*1e4) / 100
		}
	}
	for _, m := range metrics {
		n := 1 + rng.IntN(40)
		x, y := make([]float64, n), make([]float64, n)
		var z []float64
		if m.Is3D() {
			z = make([]float64, n)
		}
		for i := range x {
			x[i], y[i] = coord(), coord()
			if z != nil {
				z[i] = coord()
			}
		}
		if m == problem.Geo {
			for i := range x {
				x[i], y[i] = math.Mod(x[i], 90), math.Mod(y[i], 180)
			}
		}
		in := problem.NewCoordInstance("rt-"+m.String(), m, x, y, z)
		in.Comment = "written\nby the test"
		if n >= 2 {
			in.FixedEdges = [][2]int{{0, n - 1}}
		}
		var buf bytes.Buffer
		if err := WriteInstance(&buf, in); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(&buf, "rt.tsp")
		if err != nil {
			t.Fatalf("%v: %v", m, err)
		}
		if back.Name != in.Name || back.Comment != in.Comment || back.N != n || back.Metric != m {
			t.Errorf("%v: header read back as %q %q %d %v", m, back.Name, back.Comment, back.N, back.Metric)
		}
		if len(back.FixedEdges) != len(in.FixedEdges) {
			t.Errorf("%v: fixed edges %v, want %v", m, back.FixedEdges, in.FixedEdges)
		}
		for i := 0; i < n; i++ {
			if math.Float64bits(back.X[i]) != math.Float64bits(x[i]) || math.Float64bits(back.Y[i]) != math.Float64bits(y[i]) ||
				(z != nil && math.Float64bits(back.Z[i]) != math.Float64bits(z[i])) {
				t.Fatalf("%v: city %d read back as (%v,%v), want (%v,%v)", m, i+1, back.X[i], back.Y[i], x[i], y[i])
			}
			for j := 0; j < n; j++ {
				if back.Dist(i, j) != in.Dist(i, j) {
					t.Fatalf("%v: d(%d,%d) changed", m, i, j)
				}
			}
		}
	}
}

// TestWriteExplicitRoundTrip writes an EXPLICIT instance (FULL_MATRIX and
// display data) and reads it back.
func TestWriteExplicitRoundTrip(t *testing.T) {
	n := 5
	m := make([]int32, n*n)
	for i := 0; i < n; i++ {
		for j := 0; j < n; j++ {
			m[i*n+j] = sym5[i][j]
		}
	}
	in := problem.NewMatrixInstance("m5", n, m)
	for _, withXY := range []bool{false, true} {
		if withXY {
			in.X, in.Y = []float64{1, 2, 3, 4, 5}, []float64{5, 4, 3, 2, 1.5}
		}
		var buf bytes.Buffer
		if err := WriteInstance(&buf, in); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(&buf, "m5.tsp")
		if err != nil {
			t.Fatal(err)
		}
		for k := range m {
			if back.Matrix[k] != m[k] {
				t.Fatalf("matrix entry %d read back as %d, want %d", k, back.Matrix[k], m[k])
			}
		}
		if back.HasCoords() != withXY || (withXY && back.Y[4] != 1.5) {
			t.Errorf("display data with=%v read back as %v %v", withXY, back.X, back.Y)
		}
	}
}

func TestWriteInstanceRejects(t *testing.T) {
	bad := []*problem.Instance{
		nil,
		{Name: "empty", N: 0, Metric: problem.Euc2D},
		{Name: "short", N: 3, Metric: problem.Euc2D, X: []float64{1}, Y: []float64{1}},
		{Name: "no-z", N: 1, Metric: problem.Euc3D, X: []float64{1}, Y: []float64{1}},
		{Name: "nan", N: 1, Metric: problem.Euc2D, X: []float64{math.NaN()}, Y: []float64{1}},
		{Name: "far", N: 1, Metric: problem.Euc2D, X: []float64{1e9}, Y: []float64{1}},
		{Name: "matrix", N: 2, Metric: problem.Explicit, Matrix: []int32{0}},
		{Name: "metric", N: 1, Metric: problem.Metric(99), X: []float64{1}, Y: []float64{1}},
		{Name: "fixed", N: 2, Metric: problem.Euc2D, X: []float64{1, 2}, Y: []float64{1, 2}, FixedEdges: [][2]int{{0, 2}}},
	}
	for _, in := range bad {
		if err := WriteInstance(&bytes.Buffer{}, in); err == nil {
			t.Errorf("WriteInstance accepted %+v", in)
		}
	}
}

// TestWriteReadDataRoundTrip writes every instance of the TSPLIB folder
// that is small enough and reads it back unchanged.
func TestWriteReadDataRoundTrip(t *testing.T) {
	for _, name := range []string{"a280", "gr17", "bays29", "ulysses16", "linhp318", "att48", "dsj1000", "pa561"} {
		in := readData(t, name)
		var buf bytes.Buffer
		if err := WriteInstance(&buf, in); err != nil {
			t.Fatal(err)
		}
		back, err := Parse(&buf, name+".tsp")
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if back.N != in.N || back.Metric != in.Metric || len(back.FixedEdges) != len(in.FixedEdges) || back.HasCoords() != in.HasCoords() {
			t.Fatalf("%s: read back as N %d %v", name, back.N, back.Metric)
		}
		for i := 0; i < in.N; i += 7 {
			for j := 0; j < in.N; j += 3 {
				if back.Dist(i, j) != in.Dist(i, j) {
					t.Fatalf("%s: d(%d,%d) changed", name, i, j)
				}
			}
		}
	}
}
