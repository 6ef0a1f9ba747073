//go:build cuda

package ils

import (
	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

func init() {
	device.RegisterKernels("ggr_init", "ggr_pick", "ggr_keep", "ggr_join")
}

// greedyStart replaces the curve by a greedy-edge tour: mutual best matching on the device, ends matched on the host,
// the rest joined in curve order. It borrows the pass buffers; it returns the rounds run and the fragments joined.
func (g *glsRun) greedyStart(in *solver.Instance) (rounds, frags int, err error) {
	// the clustering check runs on the host while the device matches
	clustered := make(chan bool, 1)
	if g.n <= ggrMatchMaxN {
		go func() {
			clustered <- neighbor.QuadrantRatio(in, ggrEndK, neighbor.ClusteredSample) >= neighbor.ClusteredRatio
		}()
	}
	if rounds, err = g.matchRounds(); err != nil {
		return rounds, 0, err
	}
	frags, err = g.linkFragments(in, clustered)
	return rounds, frags, err
}

// matchRounds runs the device's matching rounds until one joins nothing and returns their count.
func (g *glsRun) matchRounds() (rounds int, err error) {
	r, n, s := g.ru, g.n, g.ru.Stream
	adj, oth, deg, pick, pickd, ok := g.mv, g.owner, g.pos, g.mvmid, g.next, g.sel
	if err := r.Launch("ggr_init", g.grid(n), 1, glsBlock, 0, s, n, deg, oth); err != nil {
		return 0, err
	}
	for rounds < ggrMaxRounds {
		rounds++
		err := device.InOrder(
			func() error { return cu.MemsetD32Async(g.cnt, 0, 2, s) },
			func() error {
				return r.Launch("ggr_pick", g.grid(n), 1, glsBlock, 0, s, n, g.metric, g.xs, g.nbr, deg, oth, pick, pickd)
			},
			func() error { return r.Launch("ggr_keep", g.grid(n), 1, glsBlock, 0, s, n, oth, pick, pickd, ok) },
			func() error {
				return r.Launch("ggr_join", g.grid(n), 1, glsBlock, 0, s, n, pick, ok, deg, oth, adj, g.cnt)
			},
			func() error { return r.Sync("a greedy matching round") },
			func() error { return device.DtoH(g.hostCnt[:1], g.cnt) },
		)
		if err != nil {
			return rounds, err
		}
		if g.hostCnt[0] == 0 {
			break
		}
	}
	return rounds, nil
}

// linkFragments reads the fragments back, joins them into the tour on the host and uploads it with its positions.
func (g *glsRun) linkFragments(in *solver.Instance, clustered <-chan bool) (frags int, err error) {
	r, n, s := g.ru, g.n, g.ru.Stream
	hd, ho, ha, order := make([]int32, n), make([]int32, n), make([]int32, 2*n), make([]int32, n)
	err = device.InOrder(func() error { return device.DtoH(hd, g.pos) }, func() error { return device.DtoH(ho, g.owner) },
		func() error { return device.DtoH(ha, g.mv) }, func() error { return device.DtoH(order, g.order) })
	if err != nil {
		return 0, err
	}
	near := func(a, b int32) float64 {
		ca, cb := order[a], order[b]
		dx, dy := in.X[ca]-in.X[cb], in.Y[ca]-in.Y[cb]
		return dx*dx + dy*dy
	}
	for c := 0; c < n; c++ {
		if hd[c] < 2 && ho[c] >= int32(c) {
			frags++
		}
	}
	if n <= ggrMatchMaxN {
		ggrMatchEnds(hd, ho, ha, func(c int32) (float64, float64) { return in.X[order[c]], in.Y[order[c]] }, <-clustered)
	}
	tour := ggrLink(hd, ho, ha, near)
	if err := device.HtoD(g.tour, tour); err != nil {
		return frags, err
	}
	if err := cu.Synchronize(); err != nil {
		return frags, err
	}
	return frags, r.Launch("gls_pos", g.grid(n), 1, glsBlock, 0, s, n, g.tour, g.pos)
}
