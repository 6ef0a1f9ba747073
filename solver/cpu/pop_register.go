package cpu

// The pop engine (a pool of tours recombined by partition crossover)
// registers itself from its own package.
import _ "github.com/tsplab/tsplab/solver/cpu/population"
