package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// lineTSP writes ten cities on a line, x = 0..9 in a shuffled file order,
// as a TSPLIB file: the shortest tour is 18, the shortest open path 9.
func lineTSP(t *testing.T) string {
	t.Helper()
	xs := []int{4, 0, 7, 2, 9, 5, 1, 8, 3, 6}
	var b strings.Builder
	b.WriteString("NAME: line\nTYPE: TSP\nDIMENSION: 10\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n")
	for i, x := range xs {
		b.WriteString(strings.Join([]string{strconv.Itoa(i + 1), strconv.Itoa(x * 10), "0"}, " ") + "\n")
	}
	b.WriteString("EOF\n")
	return writeTestFile(t, t.TempDir(), "line.tsp", b.String())
}

// readReport reads the length and tour (1-based ids) of a solve's JSON report.
func readReport(t *testing.T, path string) (length int64, tour []int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var r struct {
		Length int64 `json:"length"`
		Tour   []int `json:"tour"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return r.Length, r.Tour
}

func TestSolveOpenAndEnds(t *testing.T) {
	file := lineTSP(t)
	dir := t.TempDir()
	cases := []struct {
		name   string
		args   []string
		length int64
		first  int // the path's first city (1-based id), 0: either end
		last   int
	}{
		// x: city 2 is at 0, city 5 at 90, city 7 at 10
		{"open", []string{"--open"}, 90, 0, 0},
		{"ends at the extremes", []string{"--ends", "2,5"}, 90, 2, 5},
		{"ends side by side", []string{"--ends", "2,7"}, 170, 2, 7},
		{"open from a start", []string{"--open", "--start", writeTestFile(t, dir, "s.txt", "1 2 3 4 5 6 7 8 9 10\n")}, 90, 0, 0},
	}
	for _, algo := range []string{"auto", "2opt-ils", "3opt-ils"} {
		for _, c := range cases {
			t.Run(algo+" "+c.name, func(t *testing.T) {
				js := filepath.Join(dir, "r.json")
				args := append([]string{"solve", file, "--algo", algo, "--backend", "cpu", "--time", "300ms", "--json", js}, c.args...)
				code, out, stderr := tsp(t, args...)
				if code != 0 {
					t.Fatalf("exit %d: %s", code, stderr)
				}
				if !strings.Contains(out, "the length has no closing edge") {
					t.Errorf("summary does not say it is a path: %q", out)
				}
				l, tour := readReport(t, js)
				if l != c.length || len(tour) != 10 {
					t.Fatalf("length %d of %d cities, want %d of 10", l, len(tour), c.length)
				}
				if c.first > 0 && (tour[0] != c.first || tour[9] != c.last) {
					t.Errorf("path %v: want from %d to %d", tour, c.first, c.last)
				}
			})
		}
	}
}

func TestSolvePathRefused(t *testing.T) {
	file := lineTSP(t)
	cases := []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--ends", "1,1"}, 2, "a path from a city to itself"},
		{[]string{"--ends", "1,11"}, 2, "id 11 is not a city of line"},
		{[]string{"--ends", "1"}, 2, "want two city ids or names A,B"},
		{[]string{"--open", "--ends", "1,2"}, 2, "give one of them"},
		{[]string{"--ends", "1,2", "--algo", "sa"}, 1, "sa/cpu does not keep fixed edges"},
		{[]string{"--ends", "1,2", "--algo", "2opt-climb"}, 1, "2opt-climb/cpu does not keep fixed edges"},
	}
	for _, c := range cases {
		code, _, stderr := tsp(t, append([]string{"solve", file, "--backend", "cpu", "--time", "100ms"}, c.args...)...)
		if code != c.code || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q: want %d and %q", c.args, code, stderr, c.code, c.want)
		}
	}
}

func TestRenderPath(t *testing.T) {
	file := lineTSP(t)
	dir := t.TempDir()
	out := filepath.Join(dir, "p.tour")
	if code, _, stderr := tsp(t, "solve", file, "--open", "--backend", "cpu", "--time", "200ms", "--out", out, "--quiet"); code != 0 {
		t.Fatalf("solve: exit %d: %s", code, stderr)
	}
	segments := func(args ...string) (int, string) {
		svg := filepath.Join(dir, "p.svg")
		if code, _, stderr := tsp(t, append([]string{"render", file, "--tour", out, "--out", svg}, args...)...); code != 0 {
			t.Fatalf("render %v: exit %d: %s", args, code, stderr)
		}
		b, err := os.ReadFile(svg)
		if err != nil {
			t.Fatal(err)
		}
		s := string(b)
		i := strings.Index(s, "stroke:#FF961E") // the tour's colour, the app's
		if args[len(args)-1] == "--svg-path" {
			i = strings.Index(s, " d=\"")
		}
		if i < 0 {
			t.Fatalf("render %v: no tour in %s", args, s)
		}
		j := strings.LastIndex(s[:i], "<path")
		d := s[j:i]
		if args[len(args)-1] == "--svg-path" {
			// M x,y L x,y x,y …: a segment per point after the first
			d = s[i+4:]
			d = d[:strings.Index(d, "\"")]
			return strings.Count(d, ",") - 1 + strings.Count(d, "Z"), s
		}
		return strings.Count(d, "L") + strings.Count(d, "Z"), s
	}
	// the file says it is an open path: drawn open without --path too
	if n, s := segments("--width", "300"); n != 9 || !strings.Contains(s, "line — 90 (open path)") {
		t.Errorf("a path's file drawn with %d segments, want 9, titled with its length 90", n)
	}
	if n, _ := segments("--svg-path"); n != 9 {
		t.Errorf("a path's file drawn for a plotter with %d segments, want 9", n)
	}
	if n, s := segments("--path", "--width", "300"); n != 9 || !strings.Contains(s, "line — 90 (open path)") {
		t.Errorf("a path drawn with %d segments, want 9, titled with its length 90", n)
	}
	if n, _ := segments("--path", "--svg-path"); n != 9 {
		t.Errorf("a plotter's path drawn with %d segments, want 9", n)
	}
	// a tour's file is drawn closed
	writeTestFile(t, dir, "p.tour", "TYPE : TOUR\nDIMENSION : 10\nTOUR_SECTION\n1 2 3 4 5 6 7 8 9 10\n-1\nEOF\n")
	if n, _ := segments("--width", "300"); n != 10 {
		t.Errorf("a tour drawn with %d segments, want 10", n)
	}
}

// A path written in every tour format reads back as a path: its file
// says so (a comment, a GeoJSON property, a GPX description, the
// report's route), GeoJSON and GPX do not close it, tsp eval gives the
// path's length, not the tour's it would close, and tsp render draws it
// open and titles the path's length.
func TestPathFilesReadBackAsPaths(t *testing.T) {
	dir := t.TempDir()
	inst := writeTestFile(t, dir, "stops.csv", "name,lat,lon\nBerlin,52.52,13.405\nParis,48.8566,2.3522\nLondon,51.5074,-0.1278\nBrussels,50.85,4.35\nAmsterdam,52.37,4.89\nLyon,45.76,4.83\n")
	for _, route := range [][]string{{"--open"}, {"--ends", "London,Berlin"}} {
		rep := filepath.Join(dir, "run.json")
		for _, ext := range []string{".tour", ".txt", ".csv", ".geojson", ".gpx"} {
			out := filepath.Join(dir, "path"+ext)
			args := append([]string{"solve", inst, "--backend", "cpu", "--time", "0.2", "--quiet", "--out", out, "--json", rep}, route...)
			if code, _, stderr := tsp(t, args...); code != 0 {
				t.Fatalf("%v: exit %d: %s", args, code, stderr)
			}
			var r struct {
				Length float64 `json:"length"`
				Tour   []int   `json:"tour"`
			}
			b, _ := os.ReadFile(rep)
			if err := json.Unmarshal(b, &r); err != nil {
				t.Fatal(err)
			}
			data, _ := os.ReadFile(out)
			if !strings.Contains(string(data), "open path") {
				t.Errorf("%v %s does not say it is an open path:\n%s", route, ext, data)
			}
			switch ext {
			case ".geojson":
				var g struct {
					Features []struct {
						Geometry struct {
							Coordinates [][2]float64 `json:"coordinates"`
						} `json:"geometry"`
						Properties struct {
							LengthM float64 `json:"length_m"`
						} `json:"properties"`
					} `json:"features"`
				}
				if err := json.Unmarshal(data, &g); err != nil {
					t.Fatal(err)
				}
				c := g.Features[0].Geometry.Coordinates
				if len(c) != 6 || c[0] == c[len(c)-1] || g.Features[0].Properties.LengthM != r.Length {
					t.Errorf("%v GeoJSON: %d points, first %v last %v, length_m %v: want the 6 cities unclosed and the path's length %v", route, len(c), c[0], c[len(c)-1], g.Features[0].Properties.LengthM, r.Length)
				}
			case ".gpx":
				if n := strings.Count(string(data), "<rtept"); n != 6 {
					t.Errorf("%v GPX: %d route points, want the 6 cities unclosed", route, n)
				}
			}
			for _, f := range []string{out, rep} {
				code, stdout, stderr := tsp(t, "eval", inst, f)
				lines := strings.Split(strings.TrimSpace(stdout), "\n")
				if code != 0 || lines[len(lines)-1] != strconv.FormatFloat(r.Length, 'f', -1, 64) || !strings.Contains(stdout, "open path") {
					t.Errorf("%v tsp eval %s: exit %d, %q %s: want the path's length %v", route, filepath.Base(f), code, stdout, stderr, r.Length)
				}
			}
			svg := filepath.Join(dir, "p.svg")
			if code, _, stderr := tsp(t, "render", inst, "--tour", out, "--out", svg); code != 0 {
				t.Fatalf("render: exit %d: %s", code, stderr)
			}
			if b, _ := os.ReadFile(svg); !strings.Contains(string(b), "(open path)") {
				t.Errorf("%v render --tour %s: the title does not say open path", route, ext)
			}
		}
	}
}
