package tsplib_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

func ExampleParse() {
	const square = `NAME : square
TYPE : TSP
DIMENSION : 4
EDGE_WEIGHT_TYPE : EUC_2D
NODE_COORD_SECTION
1 0 0
2 30 0
3 30 40
4 0 40
EOF
`
	in, err := tsplib.Parse(strings.NewReader(square), "square.tsp")
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(in.Name, in.N, in.Metric)
	fmt.Println("d(1,3) =", in.Dist(0, 2))
	fmt.Println("tour 1-2-3-4:", problem.TourLength(in, []int{0, 1, 2, 3}))
	// Output:
	// square 4 EUC_2D
	// d(1,3) = 50
	// tour 1-2-3-4: 140
}

func ExampleParse_error() {
	_, err := tsplib.Parse(strings.NewReader("NAME: x\nTYPE: ATSP\n"), "x.atsp")
	fmt.Println(err)
	// Output:
	// x.atsp:2: TYPE ATSP (asymmetric TSP) is not supported: only TYPE TSP (symmetric) is
}

func ExampleWriteTour() {
	tsplib.WriteTour(os.Stdout, "square.tour", "length 140", []int{0, 1, 2, 3})
	// Output:
	// NAME : square.tour
	// COMMENT : length 140
	// TYPE : TOUR
	// DIMENSION : 4
	// TOUR_SECTION
	// 1
	// 2
	// 3
	// 4
	// -1
	// EOF
}
