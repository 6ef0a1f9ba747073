package cpu

import (
	// the climbing engines (2opt-climb, swap-climb) register themselves
	_ "github.com/tsplab/tsplab/lab/cpu/climb"
	// the annealing engines (sa, pssm, pspm, sspm) register themselves
	_ "github.com/tsplab/tsplab/lab/cpu/anneal"
	// the iterated local searches register themselves
	_ "github.com/tsplab/tsplab/solver/cpu/ils"
)
