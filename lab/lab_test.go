package lab_test

import (
	"testing"

	"github.com/tsplab/tsplab/internal/fakeengine"
	"github.com/tsplab/tsplab/lab"
	"github.com/tsplab/tsplab/solver"
)

// TestRegister: an engine the lab registers is in the one registry, found
// by name and backend as any other, and Has tells it from an engine
// registered by solver.Register, on the same name's other backend too.
func TestRegister(t *testing.T) {
	mine := fakeengine.Engine{Algo: "lab-test", On: solver.BackendCPU}
	theirs := fakeengine.Engine{Algo: "lab-test", On: solver.BackendGPU}
	if got := lab.Register(mine, solver.OptionSet{}); got != mine {
		t.Fatalf("Register returned %v", got)
	}
	solver.Register(theirs)
	e, err := solver.Lookup("lab-test", solver.BackendCPU)
	if err != nil || e != mine {
		t.Fatalf("lookup: %v, %v", e, err)
	}
	if !lab.Has(mine) || !lab.Has(e) {
		t.Error("the lab's engine is not the lab's")
	}
	if lab.Has(theirs) {
		t.Error("an engine solver.Register registered is the lab's")
	}
}
