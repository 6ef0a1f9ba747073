package cpu_test

import (
	"reflect"
	"testing"

	"github.com/tsplab/tsplab/solver"
	_ "github.com/tsplab/tsplab/solver/cpu" // registers the CPU engines
)

// TestEnginesComparable: every registered engine can be compared with ==
// (the app tells the engine on screen from a newly chosen one so); a
// func, map or slice field in an engine's type would panic there.
func TestEnginesComparable(t *testing.T) {
	for _, e := range solver.Engines() {
		if !reflect.TypeOf(e).Comparable() {
			t.Errorf("%s/%s: its type %T cannot be compared", e.Name(), e.Backend(), e)
		}
	}
}
