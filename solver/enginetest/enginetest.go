// Package enginetest is the contract every solver.Engine keeps, written
// once as a table of cases that each implementation runs (as gonum runs
// every shortest-path implementation over one table): a run ends with an
// exact, valid tour; its snapshots come in order; cancellation, a time
// limit and a target stop it with a valid tour; and it never returns a
// tour without the instance's fixed edges.
//
// A backend's tests call Run for each of its registered engines, with a
// Config saying how to end a run of each by its own budget.
package enginetest

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// Config says how the cases run an engine.
type Config struct {
	// Budget returns the parameters of a short run of e that ends by its own budget (nil or zero: 300 ms).
	Budget func(e solver.Engine) solver.Params
	// Open returns the parameters of a run only the case stops (nil: none beyond Seed, TimeLimit and Target).
	Open func(e solver.Engine) solver.Params
	// Descent reports the engines whose run is one descent ending by itself, also accepted done by the stop cases.
	Descent func(e solver.Engine) bool
	// N is the cities of the cases' instances (0: 200).
	N int
	// Ready, when set, runs before every case; an answer skips the case with it.
	Ready func() string
}

// Case is one clause of the contract.
type Case struct {
	Name string
	Test func(t *testing.T, e solver.Engine, c Config)
}

// Cases is the contract, one case a clause.
var Cases = []Case{
	{"Finish", testFinish},
	{"Snapshots", testSnapshots},
	{"Cancellation", testCancellation},
	{"Deadline", testDeadline},
	{"Target", testTarget},
	{"FixedEdges", testFixedEdges},
}

// Run runs every case of the contract on e, each as a subtest.
func Run(t *testing.T, e solver.Engine, c Config) {
	t.Helper()
	for _, tc := range Cases {
		t.Run(tc.Name, func(t *testing.T) {
			if c.Ready != nil {
				if why := c.Ready(); why != "" {
					t.Skip(why)
				}
			}
			tc.Test(t, e, c)
		})
	}
}

// Instance is a uniform random EUC_2D instance of n cities on a 1000 × 1000 square.
func Instance(n int, seed uint64) *solver.Instance {
	r := rand.New(rand.NewPCG(seed, 0x656e67696e65))
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i], y[i] = float64(r.IntN(1000)), float64(r.IntN(1000))
	}
	return solver.NewCoordInstance("contract", solver.Euc2D, x, y, nil)
}

func (c Config) n() int {
	if c.N > 0 {
		return c.N
	}
	return 200
}

func (c Config) budget(e solver.Engine) solver.Params {
	var p solver.Params
	if c.Budget != nil {
		p = c.Budget(e)
	}
	if p.TimeLimit == 0 && len(p.Extra) == 0 {
		p.TimeLimit = 300 * time.Millisecond
	}
	return p
}

// endedAlone reports a descent engine's run that reached its optimum by itself.
func (c Config) endedAlone(e solver.Engine, res solver.Result) bool {
	return c.Descent != nil && c.Descent(e) && res.StopReason == solver.StopDone
}

func (c Config) open(e solver.Engine) solver.Params {
	if c.Open != nil {
		return c.Open(e)
	}
	return solver.Params{}
}

// solveChecked runs e as the pipeline does and checks the result: no error, a valid tour of its Length, the engine's identity.
func solveChecked(t *testing.T, ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) solver.Result {
	t.Helper()
	res, err := solver.RunAided(ctx, e, in, p, snaps, solver.Aid{}, false)
	if err != nil {
		t.Fatalf("%s/%s: %v", e.Name(), e.Backend(), err)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatalf("invalid tour: %v", err)
	}
	if got := solver.TourLength(in, res.Tour); got != res.Length {
		t.Fatalf("Length %d, the tour's exact length %d", res.Length, got)
	}
	if res.Algorithm != e.Name() || res.Backend != e.Backend() {
		t.Errorf("result names %s/%s, the engine is %s/%s", res.Algorithm, res.Backend, e.Name(), e.Backend())
	}
	return res
}
