package tsplib

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tsplab/tsplab/solver/problem"
)

// fuzzSeeds are small valid and broken instance files.
var fuzzSeeds = []string{
	square4,
	"NAME: t\nTYPE: TSP\nDIMENSION: 1\nEDGE_WEIGHT_TYPE: GEO\nNODE_COORD_SECTION\n1 16.47 96.10\nEOF\n",
	"NAME: t\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: MAX_3D\nNODE_COORD_SECTION\n1 0 0 0\n2 1 2 3\n3 -1 -2 -3.5\n",
	"NAME: t\r\nTYPE: TSP\r\nDIMENSION: 2\r\nEDGE_WEIGHT_TYPE: ATT\r\nNODE_COORD_SECTION\r\n2 6734 1453\r\n1 2233 10\r\nEOF\r\n",
	"DIMENSION: 4\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: LOWER_DIAG_ROW\nEDGE_WEIGHT_SECTION\n0 1 0 2 3 0\n4 5 6 0\nDISPLAY_DATA_SECTION\n1 0 0\n2 1 1\n3 2 2\n4 3 3\nEOF\n",
	"DIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 2 1 0 3 2 3 0\n",
	"DIMENSION: 4\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_COL\nEDGE_WEIGHT_SECTION\n1 2 3 4 5 6\n",
	"DIMENSION: 4\nEDGE_WEIGHT_TYPE: CEIL_2D\nFIXED_EDGES_SECTION\n1 2\n3 4\n-1\nNODE_COORD_SECTION\n1 0 0\n2 0 0\n3 0 0\n4 0 0\n",
	"TYPE: TSP (M.~Hofmeister)\nDIMENSION : 2\nEDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : UPPER_DIAG_ROW\nNODE_COORD_TYPE : NO_COORDS\nEDGE_WEIGHT_SECTION\n0 5\n0\nEOF",
	"DIMENSION: 99999999999\n",
	"DIMENSION: 2000000000\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n",
	"DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 NaN 0\n2 1 1\n3 Inf 2\n",
	"DIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n1 1 1\n3 2 2\nNODE_COORD_SECTION\n",
	"DIMENSION: 0\nTYPE: ATSP\nEDGE_WEIGHT_TYPE: XRAY1\n",
	"DIMENSION: -1\nEDGE_WEIGHT_FORMAT: FUNCTION\n: :\n",
	"NAME:\nCOMMENT:\n\n\n",
	"DIMENSION: 1\nNODE_COORD_TYPE: TWOD_COORDS\nNODE_COORD_SECTION\n1 0 0\nEDGE_WEIGHT_TYPE: MAN_3D\n",
	"DIMENSION: 2\nEDGE_WEIGHT_TYPE: EXPLICIT\nNODE_COORD_TYPE: THREED_COORDS\nNODE_COORD_SECTION\n1 0 0 0\n2 1 1 1\nEDGE_WEIGHT_FORMAT: LOWER_ROW\nEDGE_WEIGHT_SECTION\n7\n",
	"",
}

// FuzzParse feeds arbitrary bytes to Parse: it must never panic, must fail
// with one *Error naming the file, and whatever it accepts must keep the
// instance invariants and survive WriteInstance and Parse again.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Parse(bytes.NewReader(data), "fuzz.tsp")
		sameAsOneByte(t, data, in, err)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.File != "fuzz.tsp" || strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("error %q (%T) is not a one-line *Error for fuzz.tsp", err, err)
			}
			return
		}
		checkInstance(t, "fuzz", in)
		n := in.N
		if n > 300 {
			return
		}
		// Every distance can be computed.
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				_ = in.Dist(i, j)
			}
		}
		var buf bytes.Buffer
		if err := WriteInstance(&buf, in); err != nil {
			t.Fatalf("WriteInstance of a parsed instance: %v", err)
		}
		back, err := Parse(&buf, "again.tsp")
		if err != nil {
			t.Fatalf("reading back: %v\n%s", err, buf.Bytes())
		}
		if back.N != n || back.Metric != in.Metric || len(back.FixedEdges) != len(in.FixedEdges) {
			t.Fatalf("read back as N %d %v, want N %d %v", back.N, back.Metric, n, in.Metric)
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				if back.Dist(i, j) != in.Dist(i, j) {
					t.Fatalf("d(%d,%d) = %d after the round trip, was %d", i, j, back.Dist(i, j), in.Dist(i, j))
				}
			}
		}
	})
}

// FuzzParseTour feeds arbitrary bytes to ParseTour: it must never panic,
// and what it accepts is a permutation of the cities.
func FuzzParseTour(f *testing.F) {
	f.Add([]byte("NAME : x\nTYPE : TOUR\nDIMENSION : 4\nTOUR_SECTION\n3\n1\n4\n2\n-1\nEOF\n"), 4)
	f.Add([]byte("TOUR_SECTION\n1 2 3\n"), 3)
	f.Add([]byte("DIMENSION: 3\nTOUR_SECTION\n1 2 3\n"), 0)
	f.Add([]byte("TOUR_SECTION\n1 2 2\n"), 3)
	f.Add([]byte("DIMENSION: 99999999999\nTOUR_SECTION\n1\n"), 0)
	f.Fuzz(func(t *testing.T, data []byte, n int) {
		if n > 1<<16 {
			n = 1 << 16
		}
		tour, err := ParseTour(bytes.NewReader(data), "fuzz.tour", n)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("error %q (%T) is not a one-line *Error", err, err)
			}
			return
		}
		if n > 0 && len(tour) != n {
			t.Fatalf("tour of %d cities for n = %d", len(tour), n)
		}
		seen := make([]bool, len(tour))
		for _, c := range tour {
			if c < 0 || c >= len(tour) || seen[c] {
				t.Fatalf("not a permutation: %v", tour)
			}
			seen[c] = true
		}
	})
}

// TestMutatedInputs is a deterministic, structure-aware companion of
// FuzzParse that runs in every `go test`: it deletes, repeats, swaps and
// truncates lines of valid files and splices in keywords and odd numbers,
// and checks each result as FuzzParse does.
func TestMutatedInputs(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	pieces := []string{"EOF", "-1", "0", "1", "3", "99999999999", "NaN", "1e400", ":", "NODE_COORD_SECTION",
		"EDGE_WEIGHT_SECTION", "DISPLAY_DATA_SECTION", "FIXED_EDGES_SECTION", "DIMENSION: 2", "DIMENSION: 1",
		"EDGE_WEIGHT_TYPE: EXPLICIT", "EDGE_WEIGHT_TYPE: EUC_3D", "EDGE_WEIGHT_FORMAT: UPPER_ROW",
		"NODE_COORD_TYPE: THREED_COORDS", "TYPE: TOUR", "\r", "\t", ""}
	iterations := 20000
	if testing.Short() {
		iterations = 2000
	}
	accepted := 0
	for it := 0; it < iterations; it++ {
		lines := strings.Split(fuzzSeeds[rng.IntN(len(fuzzSeeds))], "\n")
		for m := rng.IntN(2); m >= 0; m-- {
			if len(lines) == 0 {
				break
			}
			i := rng.IntN(len(lines))
			switch rng.IntN(6) {
			case 0:
				lines = append(lines[:i], lines[i+1:]...)
			case 1:
				lines = append(lines[:i+1], lines[i:]...)
			case 2:
				j := rng.IntN(len(lines))
				lines[i], lines[j] = lines[j], lines[i]
			case 3:
				lines = lines[:i]
			case 4:
				lines[i] += " " + pieces[rng.IntN(len(pieces))]
			default:
				lines = append(lines[:i], append([]string{pieces[rng.IntN(len(pieces))]}, lines[i:]...)...)
			}
		}
		data := []byte(strings.Join(lines, "\n"))
		func() {
			defer func() {
				if r := recover(); r != nil {
					t.Fatalf("panic %v on\n%s", r, data)
				}
			}()
			in, err := Parse(bytes.NewReader(data), "fuzz.tsp")
			if it%8 == 0 {
				sameAsOneByte(t, data, in, err)
			}
			if err != nil {
				var e *Error
				if !errors.As(err, &e) || strings.ContainsAny(err.Error(), "\r\n") {
					t.Fatalf("error %q is not a one-line *Error", err)
				}
				return
			}
			accepted++
			checkInstance(t, "mutated", in)
			for i := 0; i < in.N; i++ {
				for j := 0; j < in.N; j++ {
					_ = in.Dist(i, j)
				}
			}
			var buf bytes.Buffer
			if err := WriteInstance(&buf, in); err != nil {
				t.Fatalf("WriteInstance: %v on\n%s", err, data)
			}
			if _, err := Parse(&buf, "again.tsp"); err != nil {
				t.Fatalf("reading back: %v on\n%s", err, data)
			}
		}()
	}
	// The mutations must leave a fair share of files valid, or the
	// round-trip checks above test nothing.
	if accepted < iterations/20 {
		t.Errorf("only %d of %d mutated files parsed", accepted, iterations)
	}
	t.Logf("%d of %d mutated files parsed", accepted, iterations)
}

// sameAsOneByte parses data again one byte per Read, so that every token
// and line end falls on a read boundary, and requires the same outcome.
func sameAsOneByte(t *testing.T, data []byte, in *problem.Instance, err error) {
	t.Helper()
	in2, err2 := Parse(iotest.OneByteReader(bytes.NewReader(data)), "fuzz.tsp")
	if (err == nil) != (err2 == nil) || (err != nil && err.Error() != err2.Error()) {
		t.Fatalf("whole read: %v; one byte per read: %v", err, err2)
	}
	if err == nil && (in.N != in2.N || in.Metric != in2.Metric || in.Name != in2.Name || in.Comment != in2.Comment ||
		len(in.X) != len(in2.X) || len(in.Matrix) != len(in2.Matrix) || len(in.FixedEdges) != len(in2.FixedEdges)) {
		t.Fatalf("whole read and one byte per read differ: %+v vs %+v", in, in2)
	}
}
