package instfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// fiveCities is a TSPLIB instance of five cities with ids 1..5.
const fiveCities = "NAME: five\nTYPE: TSP\nDIMENSION: 5\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 10 0\n3 10 10\n4 0 10\n5 5 5\nEOF\n"

func parseFive(t *testing.T, data string) *problem.Instance {
	t.Helper()
	in, err := tsplib.Parse(strings.NewReader(data), "five.tsp")
	if err != nil {
		t.Fatal(err)
	}
	return in
}

func TestParseStartTourGood(t *testing.T) {
	in := parseFive(t, fiveCities)
	pts, err := ParsePoints(strings.NewReader("id,x,y\n17,0,0\n3,10,0\n9,10,10\n4,0,10\n50,5,5\n"), "p.csv")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		in   *problem.Instance
		data string
		want []int
	}{
		{"tsplib tour", in, "NAME: t\nTYPE: TOUR\nDIMENSION: 5\nTOUR_SECTION\n2\n3\n1\n5\n4\n-1\nEOF\n", []int{1, 2, 0, 4, 3}},
		{"one id a line", in, "3\n1\n2\n4\n5\n", []int{2, 0, 1, 3, 4}},
		{"csv on one line", in, "5,4,3,2,1\n", []int{4, 3, 2, 1, 0}},
		{"blanks, comments and -1", in, "# mine\n1 2  3\n\n4 5 -1\n", []int{0, 1, 2, 3, 4}},
		{"header of a tour csv", in, "id,x,y\n2,10,0\n1,0,0\n5,5,5\n4,0,10\n3,10,10\n", []int{1, 0, 4, 3, 2}},
		{"city column", in, "x,y,city\n0,0,1\n0,0,3\n0,0,2\n0,0,4\n0,0,5\n", []int{0, 2, 1, 3, 4}},
		{"point list ids", pts, "50\n17\n3\n9\n4\n", []int{4, 0, 1, 2, 3}},
		{"CRLF and BOM", in, "\xEF\xBB\xBF1\r\n2\r\n3\r\n4\r\n5\r\n", []int{0, 1, 2, 3, 4}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, _, err := ParseRoute(strings.NewReader(c.data), "start.txt", c.in)
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, c.want) {
				t.Fatalf("tour %v, want %v", got, c.want)
			}
		})
	}
}

func TestParseStartTourBad(t *testing.T) {
	in := parseFive(t, fiveCities)
	fixed := parseFive(t, strings.Replace(fiveCities, "EOF\n", "FIXED_EDGES_SECTION\n1 2\n-1\nEOF\n", 1))
	cases := []struct {
		name string
		in   *problem.Instance
		data string
		want string // the whole message
	}{
		{"unknown id", in, "1\n2\n9\n3\n4\n", "start.txt:3: id 9 is not a city of five (ids 1..5)"},
		{"id zero", in, "0 1 2 3 4\n", "start.txt:1: id 0 is not a city of five (ids 1..5)"},
		{"a city twice", in, "1\n2\n3\n2\n5\n", "start.txt:4: city 2 given twice (first on line 2)"},
		{"a missing city", in, "1\n2\n3\n5\n", "start.txt:4: 4 of the 5 cities given: city 4 (id 4) is missing"},
		{"missing before -1", in, "1,2,3,-1\n4\n5\n", "start.txt:1: 3 of the 5 cities given: city 4 (id 4) is missing"},
		{"not a number", in, "1\n2\nthree\n4\n5\n", `start.txt:3: "three" is not a city id (an integer)`},
		{"empty", in, "\n# nothing\n", "start.txt:2: 0 of the 5 cities given: city 1 (id 1) is missing"},
		{"header without the column", in, "x,y,id\n1\n", "start.txt:2: 1 fields, the header names the id in column 3"},
		{"tsplib twice", in, "TYPE: TOUR\nTOUR_SECTION\n1\n2\n1\n4\n5\n-1\n", "start.txt:5: TOUR_SECTION: node 1 visited twice (first on line 3)"},
		{"tsplib short", in, "TOUR_SECTION\n1\n2\n3\n-1\n", "start.txt:5: TOUR_SECTION has 3 nodes, want 5"},
		{"fixed edge dropped", fixed, "1\n3\n2\n4\n5\n", "start.txt: tour does not use the fixed edge 1-2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := ParseRoute(strings.NewReader(c.data), "start.txt", c.in)
			if err == nil {
				t.Fatal("no error")
			}
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

// TestReadStartTourOptimal reads TSPLIB's optimal tours as start tours:
// each has the length the optimum table gives.
func TestReadStartTourOptimal(t *testing.T) {
	dir := tsplibdir.Need(t)
	for _, name := range []string{"berlin52", "kroA100", "a280"} {
		in, err := Load(filepath.Join(dir, name+".tsp"), dir)
		if err != nil {
			t.Fatal(err)
		}
		tour, err := ReadStartTour(filepath.Join(dir, "opt", name+".opt.tour"), in)
		if err != nil {
			t.Fatal(err)
		}
		if l := problem.TourLength(in, tour); !in.HasOptimum() || l != in.Optimum {
			t.Errorf("%s: optimal tour of length %d, optimum %d", name, l, in.Optimum)
		}
	}
}

// TestReadStartTourGzip reads start tours gzip-compressed, in each form
// ParseRoute takes; a corrupt stream is one line naming the file.
func TestReadStartTourGzip(t *testing.T) {
	in := parseFive(t, fiveCities)
	dir := t.TempDir()
	badSum := testinst.Gzip(t, "1 2 3 4 5\n")
	badSum[len(badSum)-8] ^= 0xff // the CRC-32 of the trailer
	cases := []struct {
		name string
		data []byte
		want string // the tour, or the error after "FILE: "
	}{
		{"t.tour.gz", testinst.Gzip(t, "TYPE: TOUR\nTOUR_SECTION\n5 4 3 2 1\n-1\nEOF\n"), "[4 3 2 1 0]"},
		{"ids.txt.gz", testinst.Gzip(t, "2,1,3,4,5\n"), "[1 0 2 3 4]"},
		{"gzip-named.txt", testinst.Gzip(t, "1 2 3 5 4\n"), "[0 1 2 4 3]"},
		{"bad-header.txt.gz", []byte("\x1f\x8b\x08\xff"), "corrupt gzip stream: the data ends early (a truncated file?)"},
		{"checksum.tour.gz", badSum, "corrupt gzip stream: checksum mismatch"},
	}
	for _, c := range cases {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, c.data, 0o644); err != nil {
			t.Fatal(err)
		}
		tour, err := ReadStartTour(p, in)
		got := fmt.Sprint(tour)
		if err != nil {
			got = strings.TrimPrefix(err.Error(), p+": ")
		}
		if got != c.want {
			t.Errorf("%s: %s, want %s", c.name, got, c.want)
		}
	}
}

// TestParseStartTourNames reads start tours that name a point list's
// cities by the names its file gives.
func TestParseStartTourNames(t *testing.T) {
	in, err := ParsePoints(strings.NewReader("name,x,y\nParis,0,0\nLyon,1,0\nNice,1,1\nBrest,0,1\n"), "cities.csv")
	if err != nil || cityNames(in) == nil {
		t.Skipf("this reader keeps no names of a point list's cities (%v)", err)
	}
	got, _, err := ParseRoute(strings.NewReader("Lyon\nNice\nBrest\nParis\n"), "s.txt", in)
	if err != nil || !slices.Equal(got, []int{1, 2, 3, 0}) {
		t.Fatalf("tour %v, %v", got, err)
	}
	for data, want := range map[string]string{
		"Lyon,Nice,Rome,Paris\n":       `s.txt:1: "Rome" is not a city of cities (the names its file gives)`,
		"name\nLyon\nNice\nLyon\n":     `s.txt:4: city "Lyon" given twice (first on line 2)`,
		"Lyon\nNice\nParis\n":          `s.txt:3: 3 of the 4 cities given: city 4 (id "Brest") is missing`,
		"id,x,y\nLyon,1,0\nNice,1,1\n": `s.txt:3: 2 of the 4 cities given: city 1 (id "Paris") is missing`,
	} {
		if _, _, err := ParseRoute(strings.NewReader(data), "s.txt", in); err == nil || err.Error() != want {
			t.Errorf("%q: error %v, want %s", data, err, want)
		}
	}
}

// A start tour given as a CSV of TSPLIB ids, and one that repeats a city.
func ExampleParseRoute() {
	in, _ := tsplib.Parse(strings.NewReader(fiveCities), "five.tsp")
	t, _, err := ParseRoute(strings.NewReader("3,1,2,4,5\n"), "start.csv", in)
	fmt.Println(t, err)
	_, _, err = ParseRoute(strings.NewReader("3\n1\n3\n"), "bad.txt", in)
	fmt.Println(err)
	// Output:
	// [2 0 1 3 4] <nil>
	// bad.txt:3: city 3 given twice (first on line 1)
}
