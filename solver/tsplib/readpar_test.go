package tsplib

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

// withParallel runs f with every coordinate section parsed in parallel in
// ranges of a few bytes.
func withParallel(t *testing.T, f func(t *testing.T)) {
	minN, chunk := parallelMin, parallelChunk
	parallelMin, parallelChunk = 1, 7
	defer func() { parallelMin, parallelChunk = minN, chunk }()
	f(t)
}

// TestParallelReaderPassesTheReaderTests runs the reader's tests with the
// parallel coordinate reader on every file: the same instances and the
// same FILE:LINE errors.
func TestParallelReaderPassesTheReaderTests(t *testing.T) {
	for name, f := range map[string]func(*testing.T){
		"Errors": TestErrors, "EdgeCases": TestEdgeCases, "CoordinateMetrics": TestCoordinateMetrics,
		"DisplayData": TestDisplayData, "HeaderStyles": TestHeaderStyles, "LineEnds": TestLineEnds,
		"FiniteCoordsOnly": TestFiniteCoordsOnly, "LongLines": TestLongLines, "MutatedInputs": TestMutatedInputs,
		"WriteInstanceRoundTrip": TestWriteInstanceRoundTrip,
	} {
		t.Run(name, func(t *testing.T) { withParallel(t, f) })
	}
}

// TestParallelReaderMatchesSequential: random sections, some with a
// broken record, blank lines, CRLF ends, ids out of order or a section
// after them, give the same instance or the same error both ways.
func TestParallelReaderMatchesSequential(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		n := 1 + rng.IntN(60)
		var b strings.Builder
		fmt.Fprintf(&b, "NAME : t%d\nTYPE : TSP\nDIMENSION : %d\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n", trial, n)
		nl := "\n"
		if rng.IntN(4) == 0 {
			nl = "\r\n"
		}
		for i := 1; i <= n; i++ {
			id := i
			if rng.IntN(200) == 0 {
				id = 1 + rng.IntN(n) // out of order or given twice
			}
			x, y := fmt.Sprint(rng.IntN(1000)-500), fmt.Sprintf("%.2f", rng.Float64()*1e4)
			switch rng.IntN(300) {
			case 0:
				x = "1e999"
			case 1:
				y = "abc"
			case 2:
				y += " 7"
			case 3:
				y = ""
			case 4, 5, 6:
				x = strings.Repeat(" ", 200) + x // longer than the read-ahead allows
			}
			fmt.Fprintf(&b, "%d %s\t%s%s", id, x, y, nl)
			if rng.IntN(20) == 0 {
				b.WriteString("  " + nl)
			}
		}
		if rng.IntN(3) == 0 {
			b.WriteString("DISPLAY_DATA_SECTION" + nl)
			for i := 1; i <= n; i++ {
				fmt.Fprintf(&b, "%d %d %d%s", i, i, 2*i, nl)
			}
		}
		if rng.IntN(2) == 0 {
			b.WriteString("EOF" + nl)
		}
		src := b.String()
		seq, seqErr := Parse(strings.NewReader(src), "t.tsp")
		var par any
		var parErr error
		withParallel(t, func(*testing.T) { par, parErr = Parse(strings.NewReader(src), "t.tsp") })
		if fmt.Sprint(seqErr) != fmt.Sprint(parErr) {
			t.Fatalf("trial %d: errors differ:\nsequential %v\nparallel   %v\n%s", trial, seqErr, parErr, src)
		}
		if seqErr == nil && !reflect.DeepEqual(seq, par) {
			t.Fatalf("trial %d: instances differ\n%s", trial, src)
		}
	}
}
