package cpu

// The pop engine registers itself from its own package.
import _ "github.com/tsplab/tsplab/solver/cpu/population"
