package bench

import (
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestNNFromNote: a GPU PSPM run's progress line names the temperature
// its draw switched to the nearest cities at when the run reports one,
// and not when the draw is uniform (which ignores nnfrom) or none is
// reported (the CPU engines).
func TestNNFromNote(t *testing.T) {
	chosen := solver.Result{Settings: solver.Settings{NNFrom: 412.5}}
	if got := nnFromNote(chosen); got != ", nn below T = 412.5" {
		t.Errorf("chosen by the engine: %q", got)
	}
	for _, c := range []struct {
		extra map[string]string
		want  string
	}{
		{nil, ""},
		{map[string]string{"nnfrom": "412.5"}, ", nn below T = 412.5"},
		{map[string]string{"draw": "mixed", "nnfrom": "3"}, ", nn below T = 3"},
		{map[string]string{"draw": "uniform", "nnfrom": "3"}, ""},
		{map[string]string{"draw": "nn"}, ""},
	} {
		if got := nnFromNote(solver.Result{Params: solver.Params{Extra: c.extra}}); got != c.want {
			t.Errorf("%v: %q, want %q", c.extra, got, c.want)
		}
	}
}
