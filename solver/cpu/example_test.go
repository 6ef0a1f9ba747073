package cpu_test

import (
	"context"
	"fmt"
	"math"

	"github.com/tsplab/tsplab/solver"
	_ "github.com/tsplab/tsplab/solver/cpu" // registers the CPU engines
)

// Solve 64 cities on a circle with the default engine, bounded by a kick
// budget instead of a time limit so that the run is deterministic.
func Example() {
	n := 64
	x, y := make([]float64, n), make([]float64, n)
	for i := 0; i < n; i++ {
		a := 2 * math.Pi * float64((i*37)%n) / float64(n) // scrambled order
		x[i], y[i] = 1000*math.Cos(a), 1000*math.Sin(a)
	}
	in := solver.NewCoordInstance("circle64", solver.Euc2D, x, y, nil)

	e, note, err := solver.Resolve("auto", solver.BackendCPU)
	if err != nil {
		panic(err)
	}
	p := solver.Params{Seed: 1, Workers: 2}
	if err := p.Set("kicks=500"); err != nil { // as --opt kicks=500
		panic(err)
	}
	res, err := e.Solve(context.Background(), in, p, nil)
	if err != nil {
		panic(err)
	}
	// the optimum: the tour around the circle, 64 equal chords; city j
	// with 37·j ≡ 1 (mod 64) sits next to city 0
	j := 0
	for (j*37)%n != 1 {
		j++
	}
	around := int64(n) * in.Dist(0, j)
	fmt.Println(e.Name(), e.Backend(), note == "")
	fmt.Println("length:", res.Length, "optimum:", around)
	// Output:
	// auto cpu true
	// length: 6272 optimum: 6272
}
