package ils

import (
	"math/rand/v2"
	"slices"
	"time"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/recomb"
	"github.com/tsplab/tsplab/solver/tour"
)

// restarts take a stalled merged search out of its basin: after the
// plan's stall (strategy.RestartStall) without a shorter merged tour, the tour it
// reached is crossed with the best so far by partition crossover (the
// shorter of the child, the best and the tour kept as the best), and the
// workers start again from the best with random double bridges on a
// fiftieth of the cities. Each restart's search ends in another local
// optimum, which the crossover recombines with the best: tour merging in
// the manner of LKH-3's runs.
type restarts struct {
	best     []int32 // the best of the runs so far (nil: none ended yet)
	bestLen  int64
	runLen   int64     // the merged tour's shortest length in this run
	improved time.Time // when the merged tour last got shorter
	gpx      [2]*recomb.GPX
	child    []int32
	rng      *rand.Rand
	count    int // restarts
	gained   int // crossovers that gave a tour shorter than the best
}

// account is the restarts' account (nil when none).
func (rs *restarts) account() *solver.RestartAccount {
	if rs.count == 0 {
		return nil
	}
	return &solver.RestartAccount{Count: rs.count, Gained: rs.gained}
}

// restartStep checks the stall after a merge epoch and restarts the
// workers when it is over; only timed merged runs without fixed edges
// take restarts.
func (r *ilsRun) restartStep() {
	m, rs := &r.mg, &r.rs
	if r.o.restart <= 0 || m.base == nil || r.o.kicks > 0 || len(r.in.FixedEdges) > 0 || r.in.N < 8 || r.c.Done() {
		return
	}
	now := time.Now()
	if rs.improved.IsZero() || m.baseLen < rs.runLen {
		rs.runLen, rs.improved = m.baseLen, now
		return
	}
	if now.Sub(rs.improved) < time.Duration(r.o.restart)*time.Millisecond {
		return
	}
	n := len(m.base)
	if rs.best == nil {
		rs.gpx = [2]*recomb.GPX{{NoGhosts: true, NoFusion: true}, {}}
		rs.child = make([]int32, n)
		rs.rng = rand.New(rand.NewPCG(r.p.Seed, 0x72657374))
		rs.best, rs.bestLen = slices.Clone(m.base), m.baseLen
	} else {
		if m.baseLen < rs.bestLen {
			rs.best, rs.bestLen = append(rs.best[:0], m.base...), m.baseLen
		}
		for _, g := range rs.gpx {
			st := g.Cross(r.in, rs.best, m.base, rs.bestLen, m.baseLen, rs.child)
			if st.Length < rs.bestLen {
				copy(rs.best, rs.child)
				rs.bestLen = st.Length
				rs.gained++
			}
		}
		r.c.Offer(rs.best, rs.bestLen)
	}
	// the workers go on from the best with random double bridges, the
	// cities next to their ends queued for the descent
	t := slices.Clone(rs.best)
	var ends []int32
	for k := max(10, n/50); k > 0; k-- {
		ends = doubleBridgeAt(t, rs.rng, ends)
	}
	l := solver.TourLength(r.in, runctl.ToInt(t))
	rs.count++
	rs.runLen, rs.improved = l, now
	r.c.SetAccount(r.account())
	r.c.SetPhase(solver.PhaseSearch)
	r.setBase(t, l)
	for _, c := range ends {
		r.searches[m.owner[c]].Push(c)
	}
}

// doubleBridgeAt exchanges two neighbouring segments of t of up to 50
// cities each at a random place and appends the cities at the changed
// edges to ends.
func doubleBridgeAt(t []int32, rng *rand.Rand, ends []int32) []int32 {
	n := len(t)
	l1, l2 := 1+rng.IntN(min(50, n/4)), 1+rng.IntN(min(50, n/4))
	i := rng.IntN(n)
	tour.SwapAdjacent(t, i, l1, l2)
	// A C B: A's last, C's ends, B's ends, the city after B
	return append(ends, t[i], t[(i+1)%n], t[(i+l2)%n], t[(i+l2+1)%n], t[(i+l1+l2)%n], t[(i+l1+l2+1)%n])
}
