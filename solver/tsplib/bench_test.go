package tsplib

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver/problem"
)

// BenchmarkParseCoords parses a generated EUC_2D instance of 100000 cities.
func BenchmarkParseCoords(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	n := 100000
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = float64(rng.IntN(1000000)), float64(rng.IntN(1000000))
	}
	var buf bytes.Buffer
	if err := WriteInstance(&buf, problem.NewCoordInstance("bench", problem.Euc2D, x, y, nil)); err != nil {
		b.Fatal(err)
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Parse(bytes.NewReader(data), "bench.tsp"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkParseMatrix parses a generated UPPER_ROW instance of 2000 cities
// (about 2 million weights).
func BenchmarkParseMatrix(b *testing.B) {
	rng := rand.New(rand.NewPCG(2, 2))
	n := 2000
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "DIMENSION: %d\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n", n)
	for i := 0; i < n; i++ {
		for j := i + 1; j < n; j++ {
			fmt.Fprintf(&buf, "%d ", rng.IntN(10000))
		}
		buf.WriteByte('\n')
	}
	data := buf.Bytes()
	b.SetBytes(int64(len(data)))
	b.ResetTimer()
	for b.Loop() {
		if _, err := Parse(bytes.NewReader(data), "bench.tsp"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReadPla85900 reads the largest TSPLIB instance from disk.
func BenchmarkReadPla85900(b *testing.B) {
	p := filepath.Join(tsplibdir.Need(b), "pla85900.tsp")
	st, err := os.Stat(p)
	if err != nil {
		b.Skip(err)
	}
	b.SetBytes(st.Size())
	for b.Loop() {
		if _, err := Read(p); err != nil {
			b.Fatal(err)
		}
	}
}
