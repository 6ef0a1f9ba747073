package instfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

func TestParseMatrixCSVGood(t *testing.T) {
	cases := []struct {
		name, data string
		n, scale   int
		matrix     []int32
	}{
		{"plain", "0,3,4\n3,0,5\n4,5,0\n", 3, 0, []int32{0, 3, 4, 3, 0, 5, 4, 5, 0}},
		{"blanks and comments", "# road km\n0 3 4\n\n3 0 5\n4 5 0\n", 3, 0, []int32{0, 3, 4, 3, 0, 5, 4, 5, 0}},
		{"header of names", "A,B,C\n0,3,4\n3,0,5\n4,5,0\n", 3, 0, []int32{0, 3, 4, 3, 0, 5, 4, 5, 0}},
		{"names both ways", ",A,B,C\nA,0,3,4\nB,3,0,5\nC,4,5,0\n", 3, 0, []int32{0, 3, 4, 3, 0, 5, 4, 5, 0}},
		{"names in the first column only", "A\t0\t1\nB\t1\t0\n", 2, 0, []int32{0, 1, 1, 0}},
		{"fractions scaled", "0,1.5\n1.5,0\n", 2, 6, []int32{0, 1500000, 1500000, 0}},
		{"CRLF and BOM", "\xEF\xBB\xBF0,7\r\n7,0\r\n", 2, 0, []int32{0, 7, 7, 0}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := ParseMatrixCSV(strings.NewReader(c.data), "roads.csv")
			if err != nil {
				t.Fatal(err)
			}
			if in.N != c.n || in.Metric != problem.Explicit || in.ScaleExp != c.scale || !slices.Equal(in.Matrix, c.matrix) {
				t.Fatalf("n %d metric %v scale %d matrix %v, want %d EXPLICIT %d %v", in.N, in.Metric, in.ScaleExp, in.Matrix, c.n, c.scale, c.matrix)
			}
			if in.Name != "roads" {
				t.Errorf("name %q", in.Name)
			}
		})
	}
}

func TestParseMatrixCSVBad(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"asymmetric", "0,3,4\n3,0,5\n4,6,0\n", "m.csv:3: the matrix is not symmetric: row 3 column 2 is 6 but row 2 column 3 (line 2) is 5; TSP Lab solves the symmetric TSP"},
		{"asymmetric first pair", "0,1,2\n9,0,8\n7,8,0\n", "m.csv:2: the matrix is not symmetric: row 2 column 1 is 9 but row 1 column 2 (line 1) is 1; TSP Lab solves the symmetric TSP"},
		{"a short row", "0,3,4\n3,0\n4,5,0\n", "m.csv:2: 2 numbers, want 3 as on line 1: a cost matrix must be square"},
		{"too few rows", "0,3,4\n3,0,5\n", "m.csv:2: 2 rows of 3 numbers: a cost matrix must be square" + instanceLinesHint},
		{"too many rows", "0,1\n1,0\n2,2\n", "m.csv:3: more than 2 rows of 2 numbers: a cost matrix must be square" + instanceLinesHint},
		{"negative", "0,-3\n-3,0\n", "m.csv:1: column 2: cost -3 is negative"},
		{"not a number", "0,3,4\n3,0,x5\n4,5,0\n", `m.csv:2: column 3: "x5" is not a number`},
		{"NaN", "0,1\n1,NaN\n", `m.csv:2: column 2: "NaN" is not a number`},
		{"header count", "A,B\n0,1,2\n1,0,3\n2,3,0\n", "m.csv:1: the header names 2 cities, the rows have 3 numbers"},
		{"names disagree", ",A,B\nA,0,1\nC,1,0\n", `m.csv:3: row 2 is named "C" but column 2 "B"`},
		{"diagonal", "0,1,2\n1,5,3\n2,3,0\n", "m.csv:2: column 2: a city's cost to itself is 5, want 0" + instanceLinesHint},
		{"empty", "# nothing\n", "m.csv: no rows (want n rows of n numbers: a cost matrix)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseMatrixCSV(strings.NewReader(c.data), "m.csv")
			var te *tsplib.Error
			if !errors.As(err, &te) {
				t.Fatalf("%T %v, want *Error", err, err)
			}
			if err.Error() != c.want {
				t.Fatalf("error %q\nwant  %q", err, c.want)
			}
		})
	}
}

// TestReadTellsMatrices reads files through Read: cost matrices become
// EXPLICIT instances, point lists and TSPLIB files stay what they are.
func TestReadTellsMatrices(t *testing.T) {
	var wide strings.Builder
	const n = 6
	for i := range n {
		for j := range n {
			if j > 0 {
				wide.WriteString(",")
			}
			d := i - j
			wide.WriteString(string(rune('0' + max(d, -d))))
		}
		wide.WriteString("\n")
	}
	cases := []struct {
		name, data string
		explicit   bool
		n          int
	}{
		{"wide matrix", wide.String(), true, n},
		{"named 3x3", "Oslo,Bergen,Trondheim\n0,463,494\n463,0,700\n494,700,0\n", true, 3},
		{"point list 3 ids", "1,0,0\n2,3,0\n3,3,4\n", false, 3},
		{"point list xy", "x,y\n0,0\n3,4\n", false, 2},
		{"square points, nonzero diagonal", "1 2\n3 4\n", false, 2},
		{"tsplib", fiveCities, false, 5},
	}
	dir := t.TempDir()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := filepath.Join(dir, strings.ReplaceAll(c.name, " ", "_")+".csv")
			if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
				t.Fatal(err)
			}
			in, err := Read(p)
			if err != nil {
				t.Fatal(err)
			}
			if (in.Metric == problem.Explicit) != c.explicit || in.N != c.n {
				t.Fatalf("metric %v n %d, want explicit %v n %d", in.Metric, in.N, c.explicit, c.n)
			}
			h, err := ReadHeader(p)
			if err != nil {
				t.Fatal(err)
			}
			if h.Dimension != c.n || (h.Section == MatrixSection) != c.explicit {
				t.Fatalf("header %+v, want dimension %d, matrix %v", h, c.n, c.explicit)
			}
		})
	}
}

// A cost matrix of road distances with the cities' names in a header row.
func ExampleParseMatrixCSV() {
	roads := "Oslo,Bergen,Trondheim,Stavanger\n0,463,494,545\n463,0,700,209\n494,700,0,805\n545,209,805,0\n"
	in, err := ParseMatrixCSV(strings.NewReader(roads), "norway.csv")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(in.Name, in.N, in.Metric, in.Dist(1, 3))
	_, err = ParseMatrixCSV(strings.NewReader("0,1\n2,0\n"), "oneway.csv")
	fmt.Println(err)
	// Output:
	// norway 4 EXPLICIT 209
	// oneway.csv:2: the matrix is not symmetric: row 2 column 1 is 2 but row 1 column 2 (line 1) is 1; TSP Lab solves the symmetric TSP
}
