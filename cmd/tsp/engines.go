package main

// The engines link themselves into the solver registry in their init
// functions; the command line only needs them compiled in.
import (
	_ "github.com/tsplab/tsplab/gpu"
	_ "github.com/tsplab/tsplab/solver/cpu"
)
