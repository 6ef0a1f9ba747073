package climb

import (
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// Every candidate-list move's delta is the change of length reverse2opt
// makes, and the position index follows the tour.
func TestNear2optMoves(t *testing.T) {
	in := uniformInstance(301, 7)
	d := tour.NewDist(in)
	nb := neighbor.Nearest(in, climbNearK)
	r := runctl.NewRand(3, 0)
	tt := r.RandomTour(in.N)
	pos := make([]int32, in.N)
	for i, c := range tt {
		pos[c] = int32(i)
	}
	l := d.Length(tt)
	for step := 0; ; step++ {
		best, i, j := bestNear2opt(d, tt, pos, nb.List, nb.K, func(int64) bool { return false })
		if best >= 0 {
			break
		}
		reverse2opt(tt, pos, i, j)
		l += best
		if got := d.Length(tt); got != l {
			t.Fatalf("step %d: move (%d, %d) priced %d, length %d, want %d", step, i, j, best, got, l)
		}
		for k, c := range tt {
			if pos[c] != int32(k) {
				t.Fatalf("step %d: pos[%d] = %d, at %d", step, c, pos[c], k)
			}
		}
	}
	if err := solver.ValidateTour(runctl.ToInt(tt), in.N); err != nil {
		t.Fatal(err)
	}
}

// Default climbs end at a 2-opt minimum of the whole neighbourhood, with
// none unfinished; a climb that cannot finish in the time given says so.
func TestClimbNearEndsTwoOptimal(t *testing.T) {
	in := uniformInstance(250, 8)
	r := solve(t, "2opt-climb", in, solver.Params{Seed: 2, Workers: 2, Config: func(c *climbConfig) { c.Restarts = 3 }}, nil)
	if best, _, _ := best2opt(tour.NewDist(in), runctl.To32(r.Tour), func(int64) bool { return false }); best < 0 {
		t.Fatalf("result improves by %d with one more 2-opt move", best)
	}
	if r.Account.Unfinished || r.Steps != 3 {
		t.Fatalf("%d climbs, unfinished %v", r.Steps, r.Account.Unfinished)
	}
	// A 5,000-city climb's last pass alone evaluates 12.5 million moves:
	// not within a millisecond.
	big := uniformInstance(5000, 9)
	for _, name := range []string{"2opt-climb", "swap-climb"} {
		r = solve(t, name, big, solver.Params{Seed: 2, Workers: 2, TimeLimit: time.Millisecond}, nil)
		if r.Steps != 0 || !r.Account.Unfinished || r.StopReason != solver.StopTime {
			t.Fatalf("%s: %d climbs, %s, unfinished %v", name, r.Steps, r.StopReason, r.Account.Unfinished)
		}
	}
}
