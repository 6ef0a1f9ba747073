package instfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// square4 is a 10×10 square: its optimal tour has length 40.
const square4 = "NAME: sq\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 10 0\n3 10 10\n4 0 10\nEOF\n"

// identityLength returns the length of the identity tour of in.
func identityLength(in *problem.Instance) int64 {
	return problem.TourLength(in, problem.IdentityTour(in.N))
}

func TestParsePointsGood(t *testing.T) {
	cases := []struct {
		name, data string
		n          int
		metric     problem.Metric
		length     string // the identity tour's length, as FormatLength shows it
	}{
		{"unit square csv", "x,y\n0,0\n1,0\n1,1\n0,1\n", 4, problem.Euc2D, "4"},
		{"unit square spaces", "0 0\n1 0\n\n1   1\n0 1\n", 4, problem.Euc2D, "4"},
		{"tabs with ids", "id\tx\ty\n7\t0\t0\n8\t3\t0\n9\t3\t4\n", 3, problem.Euc2D, "12"},
		{"ids without header", "1 0 0\n2 0 2.5\n", 2, problem.Euc2D, "5"},
		{"comma and blanks, CRLF, BOM", "\xEF\xBB\xBFX, Y\r\n0, 0\r\n0.001, 0\r\n", 2, problem.Euc2D, "0.002"},
		{"comments", "# drill holes\nx y\n0 0\n# middle\n1e6 0\n", 2, problem.Euc2D, "2000000"},
		{"large offset", "500000.25 4000000.5\n500000.75 4000000.5\n", 2, problem.Euc2D, "1"},
		{"one point", "3 4\n", 1, problem.Euc2D, "0"},
		{"duplicate points", "1 1\n1 1\n1 1\n", 3, problem.Euc2D, "0"},
		{"quoted header", "\"lat\",\"lon\"\n0,0\n0,1\n", 2, problem.GreatCircle, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := ParsePoints(strings.NewReader(c.data), "p.csv")
			if err != nil {
				t.Fatal(err)
			}
			if in.N != c.n || in.Metric != c.metric || in.Points == nil {
				t.Fatalf("N %d metric %v points %v, want %d %v", in.N, in.Metric, in.Points != nil, c.n, c.metric)
			}
			if c.length != "" {
				if got := in.FormatLength(identityLength(in)); got != c.length {
					t.Errorf("identity tour %s, want %s (scale 10^%d)", got, c.length, in.ScaleExp)
				}
			}
		})
	}
}

func TestParsePointsGreatCircle(t *testing.T) {
	// One degree of latitude along a meridian is R·π/180 metres.
	data := "lat,lon\n10,20\n11,20\n"
	in, err := ParsePoints(strings.NewReader(data), "geo.csv")
	if err != nil {
		t.Fatal(err)
	}
	want := problem.EarthRadius * math.Pi / 180
	got := in.LengthValue(in.Dist(0, 1))
	if math.Abs(got-want) > 1e-6*want {
		t.Fatalf("1° of latitude: %v m, want %v m", got, want)
	}
	if in.X[0] != 20 || in.Y[0] != 10 {
		t.Fatalf("X, Y = %v, %v: want longitude, latitude", in.X[0], in.Y[0])
	}
	// Columns in the other order give the same distance.
	in2, err := ParsePoints(strings.NewReader("lon,lat\n20,10\n20,11\n"), "geo.csv")
	if err != nil || in2.Dist(0, 1) != in.Dist(0, 1) {
		t.Fatalf("lon,lat: %v, %d vs %d", err, in2.Dist(0, 1), in.Dist(0, 1))
	}
	// Berlin to Paris along the great circle: 877.5 km on this sphere.
	bp, err := ParsePoints(strings.NewReader("latitude,longitude\n52.5200,13.4050\n48.8566,2.3522\n"), "bp.csv")
	if err != nil {
		t.Fatal(err)
	}
	if d := bp.LengthValue(bp.Dist(0, 1)); math.Abs(d-877464) > 1000 {
		t.Fatalf("Berlin–Paris %v m, want about 877,464 m", d)
	}
}

// TestPointsPrecision checks six significant digits at every scale: a
// square of side s has a tour of 4s shown exactly.
func TestPointsPrecision(t *testing.T) {
	for _, s := range []float64{1e-9, 1e-3, 0.5, 1, 7, 123.456, 1e5, 3e8, 1e12} {
		data := fmt.Sprintf("0 0\n%g 0\n%g %g\n0 %g\n", s, s, s, s)
		in, err := ParsePoints(strings.NewReader(data), "s.txt")
		if err != nil {
			t.Fatal(err)
		}
		got := in.LengthValue(identityLength(in))
		if math.Abs(got-4*s) > 1e-6*4*s {
			t.Errorf("side %g: tour %v, want %v (scale 10^%d)", s, got, 4*s, in.ScaleExp)
		}
		// The GPU engines' limits: a span within 1e7 units.
		for i := range in.N {
			if in.X[i] < 0 || in.X[i] >= pointSpan || in.Y[i] < 0 || in.Y[i] >= pointSpan {
				t.Fatalf("side %g: scaled point (%v, %v) outside [0, %g)", s, in.X[i], in.Y[i], float64(pointSpan))
			}
		}
	}
}

func TestParsePointsBad(t *testing.T) {
	cases := []struct{ name, data, want string }{
		{"empty", "", "p.csv: no points"},
		{"blank", "\n  \n\t\n", "p.csv: no points"},
		{"header only", "x,y\n", "p.csv:1: a header but no points"},
		{"unknown header", "a,b\n1,2\n", "p.csv:1: header \"a,b\": want columns x and y"},
		{"NaN", "0 0\nNaN 1\n", "p.csv:2: coordinate \"NaN\" is not a finite number"},
		{"Inf", "0 0\n1 -Inf\n", "p.csv:2: coordinate \"-Inf\" is not a finite number"},
		{"overflow", "0 0\n1e400 1\n", "p.csv:2: coordinate \"1e400\" is not a finite number"},
		{"too large", "0 0\n1e16 1\n", "p.csv:2: coordinate \"1e16\" is not a finite number within ±1e+15"},
		{"not a number", "0 0\n1 abc\n", "p.csv:2: coordinate \"abc\" is not a number"},
		{"ragged", "0 0\n1 1\n1 2 3\n", "p.csv:3: 3 fields, want 2 as on line 1 (x y)"},
		{"ragged with header", "id,x,y\n1,0,0\n2,1\n", "p.csv:3: 2 fields, want 3 as the header says (id,x,y)"},
		{"four fields", "1 2 3 4\n", "p.csv:1: 4 fields, want 2 (x y) or 3 (id x y)"},
		{"one field", "5\n", "p.csv:1: 1 fields, want 2 (x y) or 3 (id x y)"},
		{"empty field", "1,,2\n", "p.csv:1: coordinate \"\" is not a number"},
		{"name twice", "id,x,y\nParis,0,0\nLyon,1,1\nParis,2,2\n", "p.csv:4: id \"Paris\" given twice (first on line 2)"},
		{"duplicate id", "1 0 0\n2 1 1\n1 2 2\n2 3 3\n", "p.csv:3: id 1 given twice (first on line 1)"},
		{"latitude", "lat,lon\n91,0\n", "p.csv:2: latitude \"91\" is outside -90..90"},
		{"longitude", "lat,lon\n0,400\n", "p.csv:2: longitude \"400\" is outside -360..360"},
		{"long line", "0 " + strings.Repeat("1", 5000) + "\n", "p.csv:1: line longer than 4096 bytes"},
		{"long field", "0 " + strings.Repeat("1", 300) + "\n", "p.csv:1: field of 300 bytes is too long"},
		{"second header", "x,y\n0,0\nx,y\n", "p.csv:3: coordinate \"x\" is not a number"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParsePoints(strings.NewReader(c.data), "p.csv")
			var e *tsplib.Error
			if err == nil || !errors.As(err, &e) || !strings.HasPrefix(err.Error(), c.want) {
				t.Fatalf("got %v, want an *Error starting %q", err, c.want)
			}
		})
	}
}

// TestReadDetects checks that Read tells point lists from TSPLIB files by
// content and extension, and that the errors name FILE:LINE.
func TestReadDetects(t *testing.T) {
	dir := t.TempDir()
	files := []struct{ name, data, want string }{
		{"sq.csv", "x,y\n0,0\n1,0\n1,1\n0,1\n", "points"},
		{"sq.txt", "0 0\n1 0\n1 1\n0 1\n", "points"},
		{"sq.dat", "0 0\n1 0\n1 1\n0 1\n", "points"},
		{"geo.tsv", "lat\tlon\n1\t2\n", "points"},
		{"sq.tsp", square4, "tsplib"},
		{"sq-tsp.txt", square4, "tsplib"},
		{"bad.csv", "name,value\n1,2\n", "bad.csv:1: header"},
		{"bad.tsp", "hello world\n", "bad.tsp:1: unknown keyword"},
		{"tabs.txt", "NAME\tt\nTYPE\tTSP\nDIMENSION\t1\nEDGE_WEIGHT_TYPE\tEUC_2D\nNODE_COORD_SECTION\n1 0 0\n", "tsplib"},
		{"names.csv", "name,lat,lon\n1,2,3\n", "points"},
	}
	for _, f := range files {
		p := filepath.Join(dir, f.name)
		if err := os.WriteFile(p, []byte(f.data), 0o644); err != nil {
			t.Fatal(err)
		}
		in, err := Read(p)
		switch f.want {
		case "points", "tsplib":
			if err != nil {
				t.Errorf("%s: %v", f.name, err)
				continue
			}
			if (in.Points != nil) != (f.want == "points") || in.Path != p {
				t.Errorf("%s: read as points=%v, want %s", f.name, in.Points != nil, f.want)
			}
		default:
			if err == nil || !strings.Contains(err.Error(), f.want) {
				t.Errorf("%s: got %v, want %q", f.name, err, f.want)
			}
		}
		h, herr := ReadHeader(p)
		if f.want == "points" && (herr != nil || h.Section != PointsSection || h.Dimension != in.N || h.Metric != in.Metric.String()) {
			t.Errorf("%s: header %+v, %v; want %d points of %v", f.name, h, herr, in.N, in.Metric)
		}
	}
	if !HasInstanceExtension("A.CSV") || !HasInstanceExtension("b.tsp") || HasInstanceExtension("c.png") {
		t.Error("HasInstanceExtension")
	}
}

// TestWriteTourCSV writes a tour and reads it back: ids, coordinates as
// written and the header come back in tour order.
func TestWriteTourCSV(t *testing.T) {
	in, err := ParsePoints(strings.NewReader("id,x,y\n10,0.1,0.2\n20,3,0.30000000000000004\n30,-5,7\n"), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := WriteTourCSV(&b, in, []int{2, 0, 1}); err != nil {
		t.Fatal(err)
	}
	want := "id,x,y\n30,-5,7\n10,0.1,0.2\n20,3,0.30000000000000004\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
	back, err := ParsePoints(&b, "back.csv")
	if err != nil || back.Points.ID(0) != 30 || back.Points.Cols[1][2] != 0.30000000000000004 {
		t.Fatalf("read back: %v %+v", err, back)
	}
	if err := WriteTourCSV(io.Discard, in, []int{0, 0, 1}); err == nil {
		t.Fatal("a tour that is not a permutation was written")
	}
	// A TSPLIB instance writes its node ids and coordinates.
	sq, err := tsplib.Parse(strings.NewReader(square4), "sq.tsp")
	if err != nil {
		t.Fatal(err)
	}
	b.Reset()
	if err := WriteTourCSV(&b, sq, []int{1, 0, 2, 3}); err != nil || !strings.HasPrefix(b.String(), "id,x,y\n2,") {
		t.Fatalf("TSPLIB tour csv: %v\n%s", err, b.String())
	}
}

// linesReader generates n lines "i x y" without holding them in memory.
type linesReader struct {
	i, n int
	buf  []byte
}

func (r *linesReader) Read(p []byte) (int, error) {
	for len(r.buf) < len(p) && r.i < r.n {
		x := (r.i * 7919) % 100003
		r.buf = fmt.Appendf(r.buf, "%d,%d.%d,%d\n", r.i+1, x, r.i%10, r.i/97)
		r.i++
	}
	if len(r.buf) == 0 {
		return 0, io.EOF
	}
	k := copy(p, r.buf)
	r.buf = r.buf[:copy(r.buf, r.buf[k:])]
	return k, nil
}

// TestParsePointsTenMillion reads ten million lines: the reader is linear
// in time and memory (about 40 bytes a point kept). The reader is one
// goroutine's; under the race detector the ten million lines take some
// 100 CPU-s, so make test runs it without (make plain).
func TestParsePointsTenMillion(t *testing.T) {
	if testing.Short() {
		t.Skip("10 million lines: not with -short")
	}
	if raceOn {
		t.Skip("10 million lines: make test runs it without -race")
	}
	const n = 10_000_000
	in, err := ParsePoints(&linesReader{n: n}, "big.csv")
	if err != nil {
		t.Fatal(err)
	}
	if in.N != n || in.Points.ID(n-1) != n {
		t.Fatalf("N = %d, last id %d", in.N, in.Points.ID(n-1))
	}
	if in.Dist(0, 1) <= 0 {
		t.Fatal("distinct points at distance 0")
	}
}

// FuzzParsePoints feeds arbitrary bytes to ParsePoints: it must never
// panic, must fail with a one-line *Error naming the file, and whatever it
// accepts must have finite scaled coordinates and survive WriteTourCSV and
// ParsePoints again with the same distances.
func FuzzParsePoints(f *testing.F) {
	for _, s := range []string{
		"x,y\n0,0\n1,0\n1,1\n0,1\n", "0 0\n", "1 1\n1 1\n", "id\tx\ty\n3\t1e-9\t2\n4\t0\t0\n",
		"lat,lon\n52.5,13.4\n48.9,2.35\n-33.9,151.2\n", "", "x,y\n", "NaN 1\n", "1 2 3\n4 5\n",
		"1,,2\n", "# c\r\n\r\n5 5\r\n", "1 0 0\n1 0 0\n", "1e15 -1e15\n-1e15 1e15\n", "0x10 1\n",
		"name,lat,lon\n\"A, B\",1,2\n\"C\"\"D\",3,4\n", "name;lat;lon\nA;1,5;2,5\n", "pop,y,x,id\n5,1,2,a\n6,3,4,b\n", "\"x\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := ParsePoints(bytes.NewReader(data), "fuzz.csv")
		if err != nil {
			var e *tsplib.Error
			if !errors.As(err, &e) || e.File != "fuzz.csv" || strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("error %q (%T) is not a one-line *Error for fuzz.csv", err, err)
			}
			return
		}
		if in.N < 1 || len(in.X) != in.N || len(in.Y) != in.N {
			t.Fatalf("N %d with %d, %d coordinates", in.N, len(in.X), len(in.Y))
		}
		for i := range in.N {
			if math.IsNaN(in.X[i]) || math.IsInf(in.X[i], 0) || math.IsNaN(in.Y[i]) || math.IsInf(in.Y[i], 0) {
				t.Fatalf("point %d at (%v, %v)", i, in.X[i], in.Y[i])
			}
		}
		if in.N > 200 {
			return
		}
		var b bytes.Buffer
		if err := WriteTourCSV(&b, in, problem.IdentityTour(in.N)); err != nil {
			t.Fatal(err)
		}
		back, err := ParsePoints(&b, "back.csv")
		if err != nil {
			t.Fatalf("written tour does not read back: %v\n%s", err, b.String())
		}
		for i := 0; i+1 < in.N; i++ {
			if d, e := in.Dist(i, i+1), back.Dist(i, i+1); d != e || d < 0 {
				t.Fatalf("distance %d-%d: %d, read back %d", i, i+1, d, e)
			}
		}
	})
}

// allocPerPoint returns the bytes ParsePoints allocates a point on n
// generated lines.
func allocPerPoint(t *testing.T, n int) float64 {
	var a, b runtime.MemStats
	runtime.ReadMemStats(&a)
	in, err := ParsePoints(&linesReader{n: n}, "lin.csv")
	runtime.ReadMemStats(&b)
	if err != nil || in.N != n {
		t.Fatalf("%d lines: %v", n, err)
	}
	return float64(b.TotalAlloc-a.TotalAlloc) / float64(n)
}

// TestParsePointsLinearMemory checks that memory grows with the points,
// not faster: the bytes allocated a point stay the same from 50,000 to
// 800,000 lines, and stay under 600.
func TestParsePointsLinearMemory(t *testing.T) {
	small, large := allocPerPoint(t, 50_000), allocPerPoint(t, 800_000)
	if large > 1.5*small || large > 600 {
		t.Fatalf("%.0f bytes a point at 50,000 lines, %.0f at 800,000: want about the same, under 600", small, large)
	}
	t.Logf("%.0f and %.0f bytes allocated a point", small, large)
}

// TestReadStartTourFormats reads tours as TSPLIB files and as point lists, for a
// TSPLIB instance (ids 1..N) and a point list (its own ids).
func TestReadStartTourFormats(t *testing.T) {
	dir := t.TempDir()
	sq, err := tsplib.Parse(strings.NewReader(square4), "sq.tsp")
	if err != nil {
		t.Fatal(err)
	}
	pl, err := ParsePoints(strings.NewReader("id x y\n7 0 0\n9 1 0\n8 1 1\n"), "pl.txt")
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, data string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	writeGz := func(name, data string) string { return write(name, string(testinst.Gzip(t, data))) }
	cases := []struct {
		in   *problem.Instance
		path string
		want string // the tour, or the error's start
	}{
		{sq, write("a.tour", "TOUR_SECTION\n2\n1\n3\n4\n-1\n"), "[1 0 2 3]"},
		{sq, writeGz("a.tour.gz", "TOUR_SECTION\n2\n1\n3\n4\n-1\n"), "[1 0 2 3]"},
		{sq, writeGz("a.csv.gz", "id,x,y\n4,0,0\n3,0,0\n2,0,0\n1,0,0\n"), "[3 2 1 0]"},
		{sq, write("cut.tour.gz", string(testinst.Gzip(t, "TOUR_SECTION\n2\n1\n3\n4\n-1\n")[:20])), "corrupt gzip stream: the data ends early"},
		{sq, write("a.csv", "id,x,y\n4,0,0\n3,0,0\n2,0,0\n1,0,0\n"), "[3 2 1 0]"},
		{pl, write("b.csv", "id,x,y\n8,1,1\n7,0,0\n9,1,0\n"), "[2 0 1]"},
		{pl, write("c.csv", "id,x,y\n8,1,1\n7,0,0\n"), "2 of the 3 cities given"},
		{pl, write("d.csv", "id,x,y\n8,1,1\n7,0,0\n5,0,0\n"), "id 5 is not a city of pl"},
		{pl, write("e.csv", "x,y\n1,1\n0,0\n2,2\n"), "point 3 (2, 2) is not a city of pl"},
	}
	for _, c := range cases {
		tour, err := ReadStartTour(c.path, c.in)
		got := fmt.Sprint(tour)
		if err != nil {
			got = strings.TrimPrefix(err.Error(), c.path+": ")
		}
		if !strings.HasPrefix(got, c.want) && (err == nil || !strings.Contains(got, ": "+c.want)) {
			t.Errorf("%s: got %s, want %s", filepath.Base(c.path), got, c.want)
		}
	}
}

// Points named rather than numbered (name,lat,lon, the common export of
// a spreadsheet) keep their names as ids: a tour is written and read back
// by name, an integer among the names is a name too.
func TestNamedPoints(t *testing.T) {
	data := "name,lat,lon\nParis,48.8566,2.3522\n\"Berlin\",52.52,13.405\n7,51.5074,-0.1278\nMadrid,40.4168,-3.7038\n"
	in, err := ParsePoints(strings.NewReader(data), "cities.csv")
	if err != nil {
		t.Fatal(err)
	}
	if in.N != 4 || in.Metric != problem.GreatCircle || in.Points.IDs != nil {
		t.Fatalf("%d cities, %s, ids %v", in.N, in.Metric, in.Points.IDs)
	}
	if got := []string{in.Points.Label(0), in.Points.Label(1), in.Points.Label(2), in.Points.Label(3)}; fmt.Sprint(got) != "[Paris Berlin 7 Madrid]" {
		t.Fatalf("labels %v", got)
	}
	var b strings.Builder
	if err := WriteTourCSV(&b, in, []int{3, 0, 2, 1}); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "name,lat,lon\nMadrid,40.4168,-3.7038\nParis,") {
		t.Fatalf("tour csv:\n%s", b.String())
	}
	p := filepath.Join(t.TempDir(), "tour.csv")
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	tour, err := ReadStartTour(p, in)
	if err != nil || fmt.Sprint(tour) != "[3 0 2 1]" {
		t.Fatalf("read back: %v %v", tour, err)
	}
	if err := os.WriteFile(p, []byte("name,lat,lon\nMadrid,0,0\nParis,0,0\nRome,0,0\nBerlin,0,0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadStartTour(p, in); err == nil || !strings.Contains(err.Error(), `"Rome" is not a city of cities`) {
		t.Fatalf("unknown name: %v", err)
	}
	xy, err := ParsePoints(strings.NewReader("name,x,y\nA1,0,0\nB2,3,4\n"), "xy.csv")
	if err != nil || xy.Points.Label(1) != "B2" || xy.Metric != problem.Euc2D {
		t.Fatalf("name,x,y: %v", err)
	}
}

// TestGreatCirclePrecision checks six significant digits for a lat/lon
// box of side s metres near 60° north, from metres to a continent.
func TestGreatCirclePrecision(t *testing.T) {
	for _, deg := range []float64{1e-5, 1e-3, 0.1, 5, 25} {
		data := fmt.Sprintf("lat,lon\n60,10\n60,%v\n%v,%v\n%v,10\n", 10+2*deg, 60+deg, 10+2*deg, 60+deg)
		in, err := ParsePoints(strings.NewReader(data), "g.csv")
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range [][2]int{{0, 1}, {1, 2}, {0, 2}} {
			exact := haversine(in.Y[p[0]], in.X[p[0]], in.Y[p[1]], in.X[p[1]])
			got := in.LengthValue(in.Dist(p[0], p[1]))
			if math.Abs(got-exact) > 1e-6*exact {
				t.Errorf("%v°: d%v = %v m, want %v (scale 10^%d)", deg, p, got, exact, in.ScaleExp)
			}
		}
	}
}

// haversine is the great-circle distance in metres, computed apart from
// the solver's.
func haversine(lat1, lon1, lat2, lon2 float64) float64 {
	r := math.Pi / 180
	a := math.Pow(math.Sin((lat2-lat1)*r/2), 2) + math.Cos(lat1*r)*math.Cos(lat2*r)*math.Pow(math.Sin((lon2-lon1)*r/2), 2)
	return 2 * problem.EarthRadius * math.Atan2(math.Sqrt(a), math.Sqrt(1-a))
}

// TestReadHeaderRefusesWhatReadRefuses: a file whose first point Read
// refuses (a tour's ids, one a line, as tsp solve --out ho.txt writes
// it) is refused by ReadHeader too, with Read's words, so that a folder
// list does not describe it as a point list until it is read whole.
func TestReadHeaderRefusesWhatReadRefuses(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ name, data string }{
		{"ho.txt", "3\n1\n4\n2\n"},
		{"four.csv", "1 2 3 4\n5 6 7 8\n"},
		{"abc.txt", "x y\n1 abc\n"},
		{"ragged.txt", "id,x,y\n1,0\n"},
	} {
		p := filepath.Join(dir, c.name)
		if err := os.WriteFile(p, []byte(c.data), 0o644); err != nil {
			t.Fatal(err)
		}
		_, rerr := Read(p)
		h, herr := ReadHeader(p)
		if rerr == nil || herr == nil || herr.Error() != rerr.Error() {
			t.Errorf("%s: ReadHeader = %+v, %v; Read says %v", c.name, h, herr, rerr)
		}
	}
}
