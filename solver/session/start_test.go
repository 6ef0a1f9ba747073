package session

import (
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestPipelineChecksTheStartTour refuses start tours that are not tours
// of the instance, whatever the engine.
func TestPipelineChecksTheStartTour(t *testing.T) {
	cases := []struct {
		name  string
		start []int
		want  string
	}{
		{"too short", []int{0, 1, 2}, "tour has 3 cities, instance has 5"},
		{"a city twice", []int{0, 1, 1, 3, 4}, "city 2 visited twice"},
		{"out of range", []int{0, 1, 2, 3, 9}, "city 10 out of range 1..5"},
	}
	var pl Pipeline
	for _, c := range cases {
		_, _, err := pl.Plan(ring(5), solver.Params{Algorithm: "fake", Backend: solver.BackendCPU, Start: c.start})
		if err == nil || !strings.Contains(err.Error(), "start tour: ") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: error %v, want start tour: …%s", c.name, err, c.want)
		}
	}
	if _, _, err := pl.Plan(ring(5), solver.Params{Algorithm: "fake", Backend: solver.BackendCPU, Start: []int{4, 3, 2, 1, 0}}); err != nil {
		t.Errorf("a good start tour refused: %v", err)
	}
}
