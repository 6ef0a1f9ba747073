package tsplib

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver/problem"
)

func mustParse(t *testing.T, name, text string) *problem.Instance {
	t.Helper()
	in, err := Parse(strings.NewReader(text), name)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	checkInstance(t, name, in)
	return in
}

// sym5 is the symmetric 5×5 matrix every explicit-format test encodes.
var sym5 = [5][5]int32{
	{0, 3, 4, 2, 7},
	{3, 0, 4, 6, 3},
	{4, 4, 0, 5, 8},
	{2, 6, 5, 0, 6},
	{7, 3, 8, 6, 0},
}

// TestExplicitFormats reads sym5 written by hand in every
// EDGE_WEIGHT_FORMAT, with weights breaking across lines at odd places.
func TestExplicitFormats(t *testing.T) {
	formats := map[string]string{
		"FULL_MATRIX": "0 3 4 2 7\n3 0 4 6 3\n4 4 0 5 8\n2 6 5 0 6\n7 3 8 6 0\n",
		// row i lists w(i,j) for j > i
		"UPPER_ROW": "3 4 2 7 4 6\n3 5 8\n6\n",
		// row i lists w(i,j) for j < i
		"LOWER_ROW": "3 4 4\n2 6 5 7 3 8 6\n",
		// row i lists w(i,j) for j >= i
		"UPPER_DIAG_ROW": "0 3 4 2 7 0 4 6 3 0 5 8 0 6 0\n",
		// row i lists w(i,j) for j <= i
		"LOWER_DIAG_ROW": "0\n3 0\n4 4 0\n2 6 5 0\n7 3 8 6 0\n",
		// column j lists w(i,j) for i < j
		"UPPER_COL": "3\n4 4\n2 6 5\n7 3 8 6\n",
		// column j lists w(i,j) for i > j
		"LOWER_COL": "3 4 2 7\n4 6 3\n5 8\n6\n",
		// column j lists w(i,j) for i <= j
		"UPPER_DIAG_COL": "0 3 0 4 4 0 2 6 5 0 7 3 8 6 0\n",
		// column j lists w(i,j) for i >= j
		"LOWER_DIAG_COL": "0 3 4 2 7\n0 4 6 3\n0 5 8\n0 6\n0\n",
	}
	for f, data := range formats {
		text := "NAME: m5\nTYPE: TSP\nDIMENSION: 5\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: " + f + "\nEDGE_WEIGHT_SECTION\n" + data + "EOF\n"
		in := mustParse(t, f, text)
		if in.Metric != problem.Explicit || in.N != 5 || in.HasCoords() {
			t.Errorf("%s: metric %v N %d coords %v", f, in.Metric, in.N, in.HasCoords())
		}
		for i := 0; i < 5; i++ {
			for j := 0; j < 5; j++ {
				if got := in.Dist(i, j); got != int64(sym5[i][j]) {
					t.Errorf("%s: d(%d,%d) = %d, want %d", f, i+1, j+1, got, sym5[i][j])
				}
			}
		}
		if got := problem.TourLength(in, []int{0, 1, 2, 3, 4}); got != 3+4+5+6+7 {
			t.Errorf("%s: tour 1-2-3-4-5 has length %d, want 25", f, got)
		}
	}
}

// TestDisplayData checks that DISPLAY_DATA_SECTION of an EXPLICIT instance
// becomes X and Y, ids in any order.
func TestDisplayData(t *testing.T) {
	in := mustParse(t, "d3", `NAME : d3
TYPE : TSP
DIMENSION : 3
EDGE_WEIGHT_TYPE : EXPLICIT
EDGE_WEIGHT_FORMAT : UPPER_ROW
DISPLAY_DATA_TYPE : TWOD_DISPLAY
EDGE_WEIGHT_SECTION
 1 2
 3
DISPLAY_DATA_SECTION
 3 30.5 31
 1 10 11
 2 20 21.25
EOF
`)
	wantX, wantY := []float64{10, 20, 30.5}, []float64{11, 21.25, 31}
	for i := range wantX {
		if in.X[i] != wantX[i] || in.Y[i] != wantY[i] {
			t.Errorf("node %d at (%v,%v), want (%v,%v)", i+1, in.X[i], in.Y[i], wantX[i], wantY[i])
		}
	}
	if in.Dist(0, 2) != 2 || in.Dist(1, 2) != 3 {
		t.Errorf("d(1,3)=%d d(2,3)=%d, want 2 and 3", in.Dist(0, 2), in.Dist(1, 2))
	}
}

func coordFile(metric string, coords string) string {
	n := len(strings.Split(strings.TrimSpace(coords), "\n"))
	return fmt.Sprintf("NAME: c\nTYPE: TSP\nDIMENSION: %d\nEDGE_WEIGHT_TYPE: %s\nNODE_COORD_SECTION\n%sEOF\n", n, metric, coords)
}

// TestCoordinateMetrics checks each coordinate metric against distances
// computed by hand from the TSPLIB95 definitions.
func TestCoordinateMetrics(t *testing.T) {
	cases := []struct {
		metric string
		coords string
		want   [][3]int64 // i, j (1-based), distance
	}{
		// sqrt(2) = 1.41 -> 1; 2.5 -> (int)(3.0) = 3
		{"EUC_2D", "1 0 0\n2 3 4\n3 1 1\n4 2.5 0\n", [][3]int64{{1, 2, 5}, {1, 3, 1}, {1, 4, 3}, {2, 3, 4}}},
		{"CEIL_2D", "1 0 0\n2 3 4\n3 1 1\n4 2.5 0\n", [][3]int64{{1, 2, 5}, {1, 3, 2}, {1, 4, 3}, {2, 3, 4}}},
		// r = sqrt(100/10) = 3.16, t = 3 < r -> 4; r = sqrt(25/10) = 1.58, t = 2 -> 2
		{"ATT", "1 0 0\n2 10 0\n3 3 4\n", [][3]int64{{1, 2, 4}, {1, 3, 2}}},
		// one degree of longitude on the equator: 6378.388 * pi/180 = 111.3, + 1 -> 112;
		// 0.30 is 30 minutes: 55.7 + 1 -> 56; distinct nodes on one point: 1
		{"GEO", "1 0 0\n2 0 1\n3 0 0.30\n4 0 0\n", [][3]int64{{1, 2, 112}, {1, 3, 56}, {1, 4, 1}, {1, 1, 0}}},
		{"MAN_2D", "1 0 0\n2 1.4 2.3\n3 1.2 1.2\n", [][3]int64{{1, 2, 4}, {1, 3, 2}}},
		{"MAX_2D", "1 0 0\n2 1.4 2.6\n3 -3 1\n", [][3]int64{{1, 2, 3}, {1, 3, 3}, {2, 3, 4}}},
		{"EUC_3D", "1 0 0 0\n2 1 2 2\n3 1 1 1\n", [][3]int64{{1, 2, 3}, {1, 3, 2}, {2, 3, 1}}},
		{"MAN_3D", "1 0 0 0\n2 1 2 2\n3 0.4 0.4 0.4\n", [][3]int64{{1, 2, 5}, {1, 3, 1}}},
		{"MAX_3D", "1 0 0 0\n2 1 2 2.6\n3 0 0 -4\n", [][3]int64{{1, 2, 3}, {1, 3, 4}, {2, 3, 7}}},
	}
	for _, c := range cases {
		in := mustParse(t, c.metric, coordFile(c.metric, c.coords))
		if in.Metric.String() != c.metric {
			t.Errorf("%s: metric %v", c.metric, in.Metric)
		}
		for _, w := range c.want {
			if got := in.Dist(int(w[0]-1), int(w[1]-1)); got != w[2] {
				t.Errorf("%s: d(%d,%d) = %d, want %d", c.metric, w[0], w[1], got, w[2])
			}
			if got := in.Dist(int(w[1]-1), int(w[0]-1)); got != w[2] {
				t.Errorf("%s: d(%d,%d) = %d, want %d", c.metric, w[1], w[0], got, w[2])
			}
		}
	}
}

// TestHeaderStyles reads the same instance with both KEY styles, CRLF,
// trailing spaces, tabs, no EOF, NAME with .tsp and a TYPE oddity.
func TestHeaderStyles(t *testing.T) {
	base := "1 0 0\n2 3 4\n3 6 0\n"
	variants := map[string]string{
		"colon-space": "NAME : t3\nTYPE : TSP\nDIMENSION : 3\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n" + base + "EOF\n",
		"colon-glued": "NAME: t3\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n" + base + "EOF\n",
		"no-space":    "NAME:t3\nTYPE:TSP\nDIMENSION:3\nEDGE_WEIGHT_TYPE:EUC_2D\nNODE_COORD_SECTION:\n" + base,
		"crlf":        strings.ReplaceAll("NAME: t3\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n"+base+"EOF\n", "\n", "\r\n"),
		"trailing":    "NAME: t3.tsp  \nTYPE: TSP (M.~Hofmeister)\nDIMENSION: 3   \nEDGE_WEIGHT_TYPE:\tEUC_2D \t\nNODE_COORD_SECTION   \n 1\t0 0  \n  2 3\t4\n3 6 0   \n\nEOF   \n\n",
		"no-eof":      "NAME: t3\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 3 4\n3 6 0",
		"lower-case":  "name: t3\ntype: tsp\ndimension: 3\nedge_weight_type: euc_2d\nnode_coord_section\n" + base,
		"bom-comment": "\xEF\xBB\xBFNAME: t3\nCOMMENT: first\nCOMMENT : second\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nEDGE_WEIGHT_FORMAT: FUNCTION\nDISPLAY_DATA_TYPE: COORD_DISPLAY\nNODE_COORD_SECTION\n" + base + "EOF\n",
	}
	for v, text := range variants {
		in := mustParse(t, v, text)
		if in.Name != "t3" || in.N != 3 || in.Metric != problem.Euc2D {
			t.Errorf("%s: name %q N %d metric %v", v, in.Name, in.N, in.Metric)
		}
		if got := problem.TourLength(in, []int{0, 1, 2}); got != 16 {
			t.Errorf("%s: length %d, want 16", v, got)
		}
		if in.X[2] != 6 || in.Y[1] != 4 {
			t.Errorf("%s: coordinates %v %v", v, in.X, in.Y)
		}
	}
	in := mustParse(t, "c", variants["bom-comment"])
	if in.Comment != "first\nsecond" {
		t.Errorf("comment %q, want both lines", in.Comment)
	}
	if in := mustParse(t, "noname.tsp", "DIMENSION: 1\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 5 5\n"); in.Name != "noname" {
		t.Errorf("name without NAME is %q, want the file's base name", in.Name)
	}
}

// TestEdgeCases: 1, 2 and 3 cities, all on one point, collinear, node ids
// out of order, a fixed edge before the coordinates.
func TestEdgeCases(t *testing.T) {
	one := mustParse(t, "one", coordFile("EUC_2D", "1 7 7\n"))
	if one.N != 1 || problem.TourLength(one, []int{0}) != 0 {
		t.Errorf("one city: N %d", one.N)
	}
	two := mustParse(t, "two", coordFile("EUC_2D", "1 0 0\n2 0 10\n"))
	if got := problem.TourLength(two, []int{0, 1}); got != 20 {
		t.Errorf("two cities: length %d, want 20", got)
	}
	same := mustParse(t, "same", coordFile("CEIL_2D", "1 2 2\n2 2 2\n3 2 2\n"))
	if got := problem.TourLength(same, []int{0, 1, 2}); got != 0 {
		t.Errorf("three cities on one point: length %d, want 0", got)
	}
	line := mustParse(t, "line", coordFile("EUC_2D", "1 0 0\n2 0 5\n3 0 -7\n4 0 12\n"))
	if got := problem.TourLength(line, []int{2, 0, 1, 3}); got != 38 {
		t.Errorf("collinear: length %d, want 38", got)
	}
	shuffled := mustParse(t, "shuffled", coordFile("EUC_2D", "3 30 0\n1 10 0\n2 20 0\n"))
	if shuffled.X[0] != 10 || shuffled.X[1] != 20 || shuffled.X[2] != 30 {
		t.Errorf("ids out of order: X = %v", shuffled.X)
	}
	fixed := mustParse(t, "fixed", "NAME: f\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EUC_2D\nFIXED_EDGES_SECTION\n1 3\n4 2\n-1\nNODE_COORD_SECTION\n1 0 0\n2 1 0\n3 1 1\n4 0 1\nEOF\n")
	if len(fixed.FixedEdges) != 2 || fixed.FixedEdges[0] != [2]int{0, 2} || fixed.FixedEdges[1] != [2]int{3, 1} {
		t.Errorf("fixed edges %v, want [[0 2] [3 1]]", fixed.FixedEdges)
	}
	whole := mustParse(t, "whole", "DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nFIXED_EDGES_SECTION\n1 2\n2 3\n3 1\nNODE_COORD_SECTION\n1 0 0\n2 1 0\n3 1 1\n")
	if len(whole.FixedEdges) != 3 {
		t.Errorf("fixed edges forming the whole tour: %v", whole.FixedEdges)
	}
	neg := mustParse(t, "neg", coordFile("EUC_2D", "1 -1.5e2 +3\n2 -150 -1\n"))
	if neg.X[0] != -150 || neg.Y[0] != 3 || neg.Dist(0, 1) != 4 {
		t.Errorf("signed/exponent coordinates: %v %v", neg.X, neg.Y)
	}
	for _, f := range []string{"UPPER_ROW", "LOWER_COL", "FULL_MATRIX", "LOWER_DIAG_ROW"} {
		data := map[bool]string{true: "0\n", false: ""}[strings.Contains(f, "DIAG") || f == "FULL_MATRIX"]
		in := mustParse(t, "one-"+f, "DIMENSION: 1\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: "+f+"\nEDGE_WEIGHT_SECTION\n"+data+"EOF\n")
		if in.N != 1 || len(in.Matrix) != 1 {
			t.Errorf("one city, %s: N %d, matrix %v", f, in.N, in.Matrix)
		}
	}
	float := mustParse(t, "floatw", "DIMENSION: 2\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n12.0\n")
	if float.Dist(0, 1) != 12 {
		t.Errorf("weight 12.0 read as %d", float.Dist(0, 1))
	}
}

// TestErrors checks that bad input yields one *Error that names the file,
// the line and the problem.
func TestErrors(t *testing.T) {
	head := "NAME: x\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n"                    // data starts on line 6
	explicit3 := "DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n" // data on line 5
	cases := []struct {
		text string
		line int
		msg  string
	}{
		{"", 1, "missing DIMENSION"},
		{"NAME: x\nTYPE: ATSP\n", 2, "TYPE ATSP (asymmetric TSP) is not supported"},
		{"TYPE: HCP\n", 1, "TYPE HCP"},
		{"TYPE: CVRP\n", 1, "TYPE CVRP"},
		{"TYPE: SOP\n", 1, "TYPE SOP"},
		{"TYPE: TOUR\n", 1, "ReadTour"},
		{"TYPE: FOO\n", 1, "unknown TYPE"},
		{"DIMENSION: 3\nEDGE_WEIGHT_TYPE: XRAY1\n", 2, "EDGE_WEIGHT_TYPE XRAY1 is not supported"},
		{"EDGE_WEIGHT_TYPE: XRAY2\n", 1, "XRAY2 is not supported"},
		{"EDGE_WEIGHT_TYPE: SPECIAL\n", 1, "SPECIAL is not supported"},
		{"EDGE_WEIGHT_TYPE: GEOM\n", 1, "GEOM is not supported"},
		{"EDGE_WEIGHT_TYPE: EUC_4D\n", 1, "unknown EDGE_WEIGHT_TYPE"},
		{"EDGE_WEIGHT_FORMAT: EDGE_LIST\n", 1, "EDGE_WEIGHT_FORMAT EDGE_LIST is not supported"},
		{"EDGE_WEIGHT_FORMAT: DIAGONAL\n", 1, "unknown EDGE_WEIGHT_FORMAT"},
		{"DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FUNCTION\nEDGE_WEIGHT_SECTION\n1 2 3\n", 4, "EDGE_WEIGHT_FORMAT FUNCTION (line 3) cannot give an EXPLICIT matrix"},
		{"DIMENSION: -4\n", 1, "DIMENSION -4 must be at least 1"},
		{"DIMENSION: 0\n", 1, "DIMENSION 0 must be at least 1"},
		{"DIMENSION: 99999999999\n", 1, "DIMENSION 99999999999 is too large"},
		{"DIMENSION: 999999999999999999999999\n", 1, "too large"},
		{"DIMENSION: three\n", 1, "not an integer"},
		{"DIMENSION: 3\nDIMENSION: 3\n", 2, "DIMENSION given twice (first on line 1)"},
		{"CAPACITY: 3\n", 1, "CVRP"},
		{"EDGE_DATA_FORMAT: EDGE_LIST\n", 1, "HCP"},
		{"NODE_COORD_TYPE: FOURD\n", 1, "unknown NODE_COORD_TYPE \"FOURD\" (want TWOD_COORDS, THREED_COORDS or NO_COORDS)"},
		{"DISPLAY_DATA_TYPE: PICTURE\n", 1, "unknown DISPLAY_DATA_TYPE \"PICTURE\" (want COORD_DISPLAY, TWOD_DISPLAY or NO_DISPLAY)"},
		{"hello world\n", 1, "unknown keyword"},
		{"NAME: x\n: y\n", 2, "unexpected ':'"},
		{"NAME: x\nDEMAND_SECTION\n", 2, "DEMAND_SECTION belongs to CVRP"},
		{"NAME: x\nEDGE_DATA_SECTION\n", 2, "HCP"},
		{"NAME: x\nFOO_SECTION\n", 2, "unknown section"},
		{"NAME: x\nTOUR_SECTION\n", 2, "TOUR_SECTION in an instance file"},
		{"NODE_COORD_SECTION\n1 0 0\n", 1, "NODE_COORD_SECTION before DIMENSION"},
		{"DISPLAY_DATA_SECTION\n1 0 0\n", 1, "DISPLAY_DATA_SECTION before DIMENSION"},
		{"EDGE_WEIGHT_SECTION\n1\n", 1, "EDGE_WEIGHT_SECTION before DIMENSION"},
		{"DIMENSION: 2\nEDGE_WEIGHT_SECTION\n1\n", 2, "EDGE_WEIGHT_SECTION before EDGE_WEIGHT_TYPE"},
		{"DIMENSION: 2\nNODE_COORD_SECTION\n1 0 0\n", 2, "before EDGE_WEIGHT_TYPE"},
		{"DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\n", 2, "missing NODE_COORD_SECTION"},
		{"DIMENSION: 3\nNODE_COORD_TYPE: TWOD_COORDS\nNODE_COORD_SECTION\n1 0 0\n2 0 0\n3 0 0\n", 6, "missing EDGE_WEIGHT_TYPE"},
		{"DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\n", 3, "missing EDGE_WEIGHT_SECTION"},
		{"DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_3D\nNODE_COORD_TYPE: TWOD_COORDS\nNODE_COORD_SECTION\n", 4, "does not fit EDGE_WEIGHT_TYPE EUC_3D"},
		{"DIMENSION: 1\nNODE_COORD_TYPE: TWOD_COORDS\nNODE_COORD_SECTION\n1 0 0\nEDGE_WEIGHT_TYPE: EUC_3D\n", 5, "EDGE_WEIGHT_TYPE EUC_3D does not fit the 2-D NODE_COORD_SECTION (line 3)"},
		{"DIMENSION: 1\nNODE_COORD_TYPE: THREED_COORDS\nNODE_COORD_SECTION\n1 0 0 0\nEDGE_WEIGHT_TYPE: EUC_2D\n", 5, "EDGE_WEIGHT_TYPE EUC_2D does not fit the 3-D NODE_COORD_SECTION (line 3)"},
		{"DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_TYPE: NO_COORDS\nNODE_COORD_SECTION\n", 4, "NO_COORDS"},
		{head + "1 0 0\n2 1 1\n", 7, "NODE_COORD_SECTION ended after 2 of 3 nodes (found end of file)"},
		{head + "1 0 0\n2 1 1\nEOF\n", 8, "ended after 2 of 3 nodes (found \"EOF\")"},
		{head + "1 0 0\n2 1\n3 2 2\n", 7, "node 2 has 1 coordinate, want 2"},
		{head + "1 0 0\n2 1 1 1\n3 2 2\n", 7, "node 2 has extra field \"1\""},
		{head + "1 0 0\n2 1 1\n3 2 2\n4 3 3\n", 9, "unexpected data \"4\" where a keyword should be (more data than DIMENSION declares?)"},
		{head + "1 0 0\n1 1 1\n3 2 2\n", 7, "node id 1 given twice (first on line 6)"},
		{head + "1 0 0\n0 1 1\n", 7, "node id 0 out of range 1..3"},
		{head + "1 0 0\n4 1 1\n", 7, "node id 4 out of range 1..3"},
		{head + "1 0 0\n2.5 1 1\n", 7, "node id \"2.5\" is not an integer"},
		{head + "1 0 0\n2 NaN 1\n", 7, "not a finite number"},
		{head + "1 0 0\n2 1 -Inf\n", 7, "not a finite number"},
		{head + "1 0 0\n2 1 1e300\n", 7, "out of range"},
		{head + "1 0 0\n2 1 x1\n", 7, "coordinate \"x1\" is not a number"},
		{head + "1 0 0\n2 1 1\n3 2 2\nNODE_COORD_SECTION\n", 9, "NODE_COORD_SECTION given twice (first on line 5)"},
		{"DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 2\n1 0 3\n2 4 0\n", 7, "FULL_MATRIX is not symmetric: w(3,2) = 4 but w(2,3) = 3"},
		{explicit3 + "1 2\n", 5, "EDGE_WEIGHT_SECTION ended after 2 of 3 weights"},
		{explicit3 + "1 2\n3 4\n", 6, "unexpected data \"4\""},
		{explicit3 + "1 2.5 3\n", 5, "weight \"2.5\" is not an integer"},
		{explicit3 + "1 2\n9999999999\n", 6, "out of the int32 range"},
		{explicit3 + "1 2\n1e300\n", 6, "out of the int32 range"},
		{explicit3 + "1 2\n-x\n", 6, "is not a number"},
		{"DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_SECTION\n1 2 3\n", 3, "EDGE_WEIGHT_SECTION before EDGE_WEIGHT_FORMAT"},
		{"DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 2 3\n", 4, "EDGE_WEIGHT_SECTION in an instance with EDGE_WEIGHT_TYPE EUC_2D"},
		{"DIMENSION: 20000\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n1 2 3\n", 4, "EXPLICIT DIMENSION 20000 is too large (max 16384"},
		{"DIMENSION: 3\nFIXED_EDGES_SECTION\n1 4\n-1\n", 3, "node id 4 out of range 1..3"},
		{"DIMENSION: 3\nFIXED_EDGES_SECTION\n2 2\n-1\n", 3, "edge 2-2 is a loop"},
		{"DIMENSION: 3\nFIXED_EDGES_SECTION\n2.0 2\n-1\n", 3, "node id \"2.0\" is not an integer"},
		{"DIMENSION: 4\nFIXED_EDGES_SECTION\n1 2\n1 3\n4 1\n-1\n", 5, "node 1 is in more than two fixed edges"},
		{"DIMENSION: 4\nFIXED_EDGES_SECTION\n1 2\n2 3\n3 1\n-1\n", 5, "closes a cycle that is not a whole tour"},
		{"DIMENSION: 4\nFIXED_EDGES_SECTION\n1 2\n2 1\n-1\n", 4, "closes a cycle"},
		{"DIMENSION: 4\nFIXED_EDGES_SECTION\n1 2\n2\n", 4, "edge from node 2 has no second node"},
		{"FIXED_EDGES_SECTION\n1 2\n-1\n", 1, "FIXED_EDGES_SECTION before DIMENSION"},
		{"NAME: x\nCOMMENT: " + strings.Repeat("x", MaxLineLength+10) + "\n", 2, "line too long"},
		{head + "1 0 " + strings.Repeat("9", 1000) + "\n", 6, "token too long"},
	}
	for _, c := range cases {
		_, err := Parse(strings.NewReader(c.text), "bad.tsp")
		checkError(t, c.text, err, "bad.tsp", c.line, c.msg)
	}
}

func checkError(t *testing.T, text string, err error, file string, line int, msg string) {
	t.Helper()
	short := text
	if len(short) > 80 {
		short = short[:80] + "..."
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Errorf("%q: error %v (%T), want *Error", short, err, err)
		return
	}
	if e.File != file || e.Line != line || !strings.Contains(e.Msg, msg) {
		t.Errorf("%q:\n got  %v\n want %s:%d: ...%s...", short, err, file, line, msg)
	}
	s := err.Error()
	if strings.ContainsAny(s, "\n\r") || !strings.HasPrefix(s, fmt.Sprintf("%s:%d: ", file, line)) {
		t.Errorf("%q: message %q is not one line FILE:LINE: problem", short, s)
	}
}

func TestReadMissingFile(t *testing.T) {
	_, err := Read("/nonexistent/x.tsp")
	var e *Error
	if !errors.As(err, &e) || e.File != "/nonexistent/x.tsp" || err.Error() != "/nonexistent/x.tsp: no such file or directory" {
		t.Errorf("missing file: %v", err)
	}
	dir := t.TempDir()
	_, err = Read(dir)
	if !errors.As(err, &e) || e.File != dir || strings.Count(err.Error(), dir) != 1 {
		t.Errorf("reading a directory: %v", err)
	}
}

// heapGrowth returns the bytes allocated while f runs.
func heapGrowth(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// TestHugeDimension: a short file claiming a huge DIMENSION fails at once,
// without allocating by the claim.
func TestHugeDimension(t *testing.T) {
	cases := []struct{ text, msg string }{
		{"NAME: big\nTYPE: TSP\nDIMENSION: 99999999999\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\nEOF\n", "too large"},
		{"NAME: big\nTYPE: TSP\nDIMENSION: 2000000000\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1 1\nEOF\n", "ended after 2 of 2000000000 nodes"},
		{"NAME: big\nTYPE: TSP\nDIMENSION: 2000000000\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n2000000000 0 0\n5 1 1\nEOF\n", "ended after 2 of 2000000000 nodes"},
		{"NAME: big\nTYPE: TSP\nDIMENSION: 16384\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 2\nEOF\n", "ended after 3 of 268435456 weights"},
		{"DIMENSION: 2000000000\nFIXED_EDGES_SECTION\n1 1999999999\n-1\nTOUR_SECTION\n", "TOUR_SECTION"},
	}
	for _, c := range cases {
		var err error
		grew := heapGrowth(func() { _, err = Parse(strings.NewReader(c.text), "big.tsp") })
		if err == nil || !strings.Contains(err.Error(), c.msg) {
			t.Errorf("%q: error %v, want %q", c.text[:40], err, c.msg)
		}
		if grew > 1<<20 {
			t.Errorf("%q: allocated %d bytes for a %d-byte file", c.text[:40], grew, len(c.text))
		}
	}
}

// repeatReader yields prefix, then s repeated n times, then suffix, without
// holding them in memory.
func repeatReader(prefix, s string, n int, suffix string) io.Reader {
	k := max(1, (64<<10)/len(s)) // copies of s per block
	return io.MultiReader(strings.NewReader(prefix), &repeater{block: strings.Repeat(s, k), per: k, unit: len(s), n: n}, strings.NewReader(suffix))
}

// repeater reads n copies of a unit string, a block of per copies at a time.
type repeater struct {
	block     string
	per, unit int
	n         int // copies left
	off       int // offset into the current block
}

func (r *repeater) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	avail := min(r.per, r.n)*r.unit - r.off
	c := copy(p, r.block[r.off:r.off+avail])
	r.off += c
	if r.off == min(r.per, r.n)*r.unit {
		r.n -= min(r.per, r.n)
		r.off = 0
	}
	return c, nil
}

// TestLongLines feeds 20 MB lines: a header line, a single token, extra
// data after a section, and (without -short) a valid matrix written on one
// line. Each ends in an error, or a result, without holding the line in
// memory.
func TestLongLines(t *testing.T) {
	const size = 20 << 20
	head := "NAME: long\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n"
	cases := []struct {
		r    io.Reader
		line int
		msg  string
	}{
		{repeatReader("NAME: long\nCOMMENT: ", "x", size, "\n"), 2, "line too long"},
		{repeatReader(head+"1 ", "7", size, " 0\n"), 6, "token too long"},
		{repeatReader(head+"1 0 0\n2 1 1\n3 2 2\n", "4 ", size/2, "\n"), 9, "unexpected data \"4\""},
		{repeatReader(head+"1 0 0 ", "5 ", size/2, "\n"), 6, "node 1 has extra field \"5\""},
		{repeatReader("NAME: long\n", "\n", size, "x"), size + 2, "unknown keyword"},
		{repeatReader("NAME: long\n", " ", size, "x"), 2, "unknown keyword"},
	}
	for _, c := range cases {
		var err error
		grew := heapGrowth(func() { _, err = Parse(c.r, "long.tsp") })
		checkError(t, c.msg, err, "long.tsp", c.line, c.msg)
		if grew > 8<<20 {
			t.Errorf("%s: allocated %d bytes", c.msg, grew)
		}
	}
	if testing.Short() {
		return
	}
	// A valid EXPLICIT instance whose whole matrix is one 20 MB line.
	n := 3163 // n(n-1)/2 = 5M weights of 2 bytes each
	r := repeatReader(fmt.Sprintf("DIMENSION: %d\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n", n), "7 ", n*(n-1)/2, "\nEOF\n")
	in, err := Parse(r, "oneline.tsp")
	if err != nil {
		t.Fatal(err)
	}
	if in.N != n || in.Dist(0, n-1) != 7 || in.Dist(5, 5) != 0 {
		t.Errorf("one-line matrix: N %d, d(1,n) %d", in.N, in.Dist(0, n-1))
	}
}

func TestFiniteCoordsOnly(t *testing.T) {
	for _, v := range []string{"NaN", "nan", "Inf", "+Inf", "-inf", "infinity"} {
		_, err := Parse(strings.NewReader(coordFile("EUC_2D", "1 0 "+v+"\n")), "f.tsp")
		if err == nil {
			t.Errorf("coordinate %s accepted", v)
		}
	}
	if _, err := Parse(strings.NewReader(coordFile("EUC_2D", "1 0 1e8\n2 0 -2.68e8\n")), "f.tsp"); err != nil {
		t.Errorf("large finite coordinates: %v", err)
	}
}

func TestErrorString(t *testing.T) {
	cases := []struct {
		e    Error
		want string
	}{
		{Error{File: "a.tsp", Line: 3, Msg: "bad"}, "a.tsp:3: bad"},
		{Error{File: "a.tsp", Msg: "gone"}, "a.tsp: gone"},
		{Error{File: "odd\nname", Line: 1, Msg: "x"}, "odd name:1: x"},
		{Error{Line: 2, Msg: "x"}, "<input>:2: x"},
	}
	for _, c := range cases {
		if got := c.e.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
}

// TestLineEnds reads the same files with "\n", "\r\n" and lone "\r" line
// ends, whole and one byte per Read (so that every line end falls on a
// read boundary): same instances, same error lines.
func TestLineEnds(t *testing.T) {
	good := coordFile("EUC_2D", "1 0 0\n2 3 4\n3 6 0\n")
	bad := "NAME: x\n\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 1\n"
	for _, nl := range []string{"\n", "\r\n", "\r", "\r\r\n"} {
		for _, oneByte := range []bool{false, true} {
			wrap := func(s string) io.Reader {
				var r io.Reader = strings.NewReader(strings.ReplaceAll(s, "\n", nl))
				if oneByte {
					r = iotest.OneByteReader(r)
				}
				return r
			}
			in, err := Parse(wrap(good), "le.tsp")
			if err != nil {
				t.Errorf("%q one byte %v: %v", nl, oneByte, err)
				continue
			}
			if in.N != 3 || problem.TourLength(in, []int{0, 1, 2}) != 16 || in.Name != "c" {
				t.Errorf("%q one byte %v: N %d name %q", nl, oneByte, in.N, in.Name)
			}
			want := 7
			if nl == "\r\r\n" {
				want = 13 // "\r" then "\r\n": two line ends each
			}
			_, err = Parse(wrap(bad), "le.tsp")
			checkError(t, fmt.Sprintf("%q one byte %v", nl, oneByte), err, "le.tsp", want, "node 2 has 1 coordinate")
			tour, err := ParseTour(wrap("TOUR_SECTION\n2\n1\n3\n-1\nEOF\n"), "le.tour", 3)
			if err != nil || tour[0] != 1 {
				t.Errorf("%q one byte %v: tour %v %v", nl, oneByte, tour, err)
			}
		}
	}
}

// TestReadFailure: an I/O error while reading becomes an *Error with the line.
func TestReadFailure(t *testing.T) {
	r := io.MultiReader(strings.NewReader("NAME: x\nDIMENSION: 3\n"), iotest.ErrReader(errors.New("disk on fire")))
	_, err := Parse(r, "io.tsp")
	checkError(t, "io error", err, "io.tsp", 3, "read error: disk on fire")
	// No EOF keyword: the reader must read on and meet the timeout.
	r = iotest.TimeoutReader(strings.NewReader("DIMENSION: 2\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 3 4\n"))
	if _, err := Parse(r, "slow.tsp"); err == nil || !strings.Contains(err.Error(), "timeout") {
		t.Errorf("timeout reader: %v", err)
	}
}

// TestReadGzip: Read, ReadHeader and ReadTour take gzip data, told by its
// magic bytes whatever the name, and read it as the plain file; a name
// without NAME loses .gz with the extension.
func TestReadGzip(t *testing.T) {
	dir := t.TempDir()
	noName := strings.Replace(square4, "NAME: sq\n", "", 1)
	cases := []struct{ file, text, name string }{
		{"sq.tsp.gz", square4, "sq"},
		{"gz-named-plain.tsp", square4, "sq"},
		{"anon.tsp.gz", noName, "anon"},
		{"ANON2.TSP.GZ", noName, "ANON2.TSP"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.file)
		if err := os.WriteFile(p, testinst.Gzip(t, c.text), 0o644); err != nil {
			t.Fatal(err)
		}
		in, err := Read(p)
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if in.N != 4 || in.Path != p || in.Name != c.name || problem.TourLength(in, []int{0, 1, 2, 3}) != 40 {
			t.Errorf("%s: N %d path %q name %q", c.file, in.N, in.Path, in.Name)
		}
		if h, err := ReadHeader(p); err != nil || h.Dimension != 4 || h.Name != strings.TrimSuffix(c.name, ".TSP") {
			t.Errorf("%s: header %+v, %v", c.file, h, err)
		}
	}
	tour := filepath.Join(dir, "sq.opt.tour.gz")
	if err := os.WriteFile(tour, testinst.Gzip(t, "TYPE: TOUR\nDIMENSION: 4\nTOUR_SECTION\n1 4 3 2\n-1\nEOF\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := ReadTour(tour, 4); err != nil || fmt.Sprint(got) != "[0 3 2 1]" {
		t.Errorf("ReadTour(.opt.tour.gz) = %v, %v", got, err)
	}
}

// TestReadGzipCorrupt: a gzip stream that does not read is a one-line
// *Error naming the file, even where a parser stopped early (at EOF, or
// at data the corruption garbled); nothing panics.
func TestReadGzipCorrupt(t *testing.T) {
	dir := t.TempDir()
	good := testinst.Gzip(t, coordFile("EUC_2D", "1 0 0\n2 3 4\n3 6 8\n"))
	flip := func(i int) []byte {
		b := bytes.Clone(good)
		b[(i+len(b))%len(b)] ^= 0xff
		return b
	}
	cases := []struct {
		name string
		data []byte
		msg  string
	}{
		{"magic-only", []byte("\x1f\x8b"), "corrupt gzip stream: the data ends early (a truncated file?)"},
		{"bad-method", []byte("\x1f\x8b\x09\x00\x00\x00\x00\x00\x00\x03"), "corrupt gzip stream: invalid header"},
		{"truncated", good[:len(good)-12], "corrupt gzip stream: the data ends early (a truncated file?)"},
		{"checksum", flip(-6), "corrupt gzip stream: checksum mismatch"},
		{"size", flip(-2), "corrupt gzip stream:"},
		{"deflate", append(bytes.Clone(good[:10]), 0xff, 0xff, 0xff, 0xff), "corrupt gzip stream: invalid data at compressed byte"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name+".tsp.gz")
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		for what, read := range map[string]func() error{
			"Read":     func() error { _, err := Read(p); return err },
			"ReadTour": func() error { _, err := ReadTour(p, 3); return err },
		} {
			err := read()
			var e *Error
			if !errors.As(err, &e) || e.File != p || !strings.HasPrefix(err.Error(), p+": "+c.msg) || strings.ContainsAny(err.Error(), "\n\r") {
				t.Errorf("%s %s: %v, want %s: %s", what, c.name, err, p, c.msg)
			}
		}
	}
}

// TestReadGzipBomb: a 1 MB file of gzip members expanding to 1 GiB stops
// at the ratio limit, in a header, a coordinate section (read in bulk by
// the parallel reader) and a tour, with memory bounded by the limit
// rather than by the expanded size.
func TestReadGzipBomb(t *testing.T) {
	if testing.Short() {
		t.Skip("decompresses 3 × 64 MB")
	}
	dir := t.TempDir()
	var member bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&member, gzip.BestCompression)
	if _, err := io.Copy(zw, repeatReader("", " ", 16<<20, "")); err != nil {
		t.Fatal(err)
	}
	zw.Close()
	cases := []struct {
		name, prefix string
		read         func(string) error
	}{
		{"comment", "NAME: bomb\nCOMMENT: ", func(p string) error { _, err := Read(p); return err }},
		{"coords", "NAME: bomb\nTYPE: TSP\nDIMENSION: 2000000000\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n", func(p string) error { _, err := Read(p); return err }},
		{"tour", "TYPE: TOUR\nTOUR_SECTION\n", func(p string) error { _, err := ReadTour(p, 5); return err }},
	}
	for _, c := range cases {
		// Concatenated gzip members read as one stream.
		data := append(testinst.Gzip(t, c.prefix), bytes.Repeat(member.Bytes(), 64)...)
		p := filepath.Join(dir, c.name+".gz")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		var err error
		grew := heapGrowth(func() { err = c.read(p) })
		want := p + ": gzip data expands more than 100-fold past 64 MiB"
		if err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%s: %v, want %q", c.name, err, want)
		}
		if grew > 8*GzipMinLimit {
			t.Errorf("%s: allocated %d MB", c.name, grew>>20)
		}
	}
}

// TestBinaryKeyword: a keyword of control bytes says the file looks
// binary, gzip data that it is gzip, instead of quoting the bytes.
func TestBinaryKeyword(t *testing.T) {
	cases := []struct {
		text string
		line int
		msg  string
	}{
		{string(testinst.Gzip(t, square4)), 1, "the file looks binary: it is gzip-compressed data"},
		{"\x00\x01\x02\x03 : x\n", 1, "the file looks binary, not a TSPLIB text file"},
		{"\x7fELF\x02\x01\x01\n", 1, "the file looks binary, not a TSPLIB text file"},
		{"NAME: x\n\x00\x00\x00\n", 2, "binary data where a keyword should be"},
	}
	for _, c := range cases {
		_, err := Parse(strings.NewReader(c.text), "bin.tsp")
		checkError(t, c.text, err, "bin.tsp", c.line, c.msg)
		if err != nil && strings.ContainsRune(err.Error(), 0) {
			t.Errorf("%q: the message quotes the bytes: %q", c.text, err)
		}
		_, err = ParseTour(strings.NewReader(c.text), "bin.tour", 4)
		checkError(t, c.text, err, "bin.tour", c.line, c.msg)
	}
}
