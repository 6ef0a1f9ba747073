package gen_test

import (
	"fmt"

	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/problem"
)

func ExampleGenerate() {
	in, err := gen.Generate("grid", 400, 1)
	if err != nil {
		panic(err)
	}
	tour, _ := gen.OptimalTour("grid", 400)
	fmt.Println(in.Name, in.N, in.Optimum, problem.TourLength(in, tour))
	// Output: grid-20x20 400 40000 40000
}

func ExampleGridShape() {
	rows, cols, _ := gen.GridShape(12)
	fmt.Println(rows, cols)
	_, _, err := gen.GridShape(9)
	fmt.Println(err != nil)
	// Output:
	// 4 3
	// true
}
