package ils

// The engine tests run every CPU engine of the registry, as the cpu
// package registers them.
import (
	_ "github.com/tsplab/tsplab/lab/cpu/anneal"
	_ "github.com/tsplab/tsplab/lab/cpu/climb"
	_ "github.com/tsplab/tsplab/solver/cpu/population"
)
