package cpu_test

import (
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	_ "github.com/tsplab/tsplab/solver/cpu" // registers the CPU engines
)

// The CPU engines without a natural end declare solver.DefaultTimeLimit
// for a run without a time limit, none where a budget ends the run, and
// the annealers, whose schedule ends them, declare nothing.
func TestDefaultLimits(t *testing.T) {
	n := 20
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = float64(i*7%n), float64(i*11%n)
	}
	in := solver.NewCoordInstance("grid", solver.Euc2D, x, y, nil)
	tiny := solver.NewCoordInstance("tiny", solver.Euc2D, []float64{0, 1, 2, 3, 4}, []float64{0, 2, 1, 3, 0}, nil)
	ext := func(kv ...string) solver.Params {
		var p solver.Params
		for i := 0; i+1 < len(kv); i += 2 {
			if err := p.Set(kv[i] + "=" + kv[i+1]); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	cases := []struct {
		algo string
		in   *solver.Instance
		p    solver.Params
		want time.Duration
	}{
		{"auto", in, solver.Params{}, solver.DefaultTimeLimit},
		{"auto", in, ext("kicks", "10"), 0},
		{"2opt-ils", in, solver.Params{}, solver.DefaultTimeLimit},
		{"3opt-ils", in, ext("kicks", "10"), 0},
		{"pop", in, solver.Params{}, solver.DefaultTimeLimit},
		{"pop", in, ext("kicks", "10"), 0},
		{"2opt-climb", in, solver.Params{}, solver.DefaultTimeLimit},
		{"2opt-climb", in, ext("restarts", "3"), 0},
		{"swap-climb", in, ext("tabu", "100"), 0},
		// the few tours of a tiny instance are measured whatever the budget
		{"swap-climb", tiny, ext("tabu", "100"), solver.DefaultTimeLimit},
		{"sa", in, solver.Params{}, 0},
	}
	for _, c := range cases {
		e, err := solver.Lookup(c.algo, solver.BackendCPU)
		if err != nil {
			t.Fatal(err)
		}
		got := solver.DefaultLimitOf(e, c.in, c.p)
		if got != c.want {
			t.Errorf("%s on %d cities with %v: limit %v, want %v", c.algo, c.in.N, c.p.Extra, got, c.want)
		}
		c.p.TimeLimit = time.Second
		if got := solver.DefaultLimitOf(e, c.in, c.p); got != 0 {
			t.Errorf("%s: a default limit %v beside the limit given", c.algo, got)
		}
	}
}
