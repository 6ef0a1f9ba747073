//go:build cuda

package gpu

import (
	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

func init() {
	registerKernels("ggr_init", "ggr_pick", "ggr_keep", "ggr_join")
}

// greedyStart replaces the curve by a greedy-edge tour: rounds of mutual
// best matching over the neighbour lists on the device (kernels/glsgreedy.cu),
// the fragments' ends matched greedily on the host (ggrMatchEnds, up to
// ggrMatchMaxN cities; in rounds on a clustered instance) and those left
// joined in curve order. It borrows the pass
// buffers, which every pass sets before reading: mv holds the adjacency,
// owner the other ends, pos the degrees (rebuilt here from the tour), mvmid
// and next the picks and their lengths, sel the standing picks. It returns
// the rounds run and the fragments joined.
func (g *glsRun) greedyStart(in *solver.Instance) (rounds, frags int, err error) {
	r, n, s := g.ru, g.n, g.ru.stream
	// the clustering check runs on the host while the device matches
	clustered := make(chan bool, 1)
	if n <= ggrMatchMaxN {
		go func() {
			clustered <- neighbor.QuadrantRatio(in, ggrEndK, neighbor.ClusteredSample) >= neighbor.ClusteredRatio
		}()
	}
	adj, oth, deg, pick, pickd, ok := g.mv, g.owner, g.pos, g.mvmid, g.next, g.sel
	if err := r.launch("ggr_init", g.grid(n), 1, glsBlock, 0, s, n, deg, oth); err != nil {
		return 0, 0, err
	}
	for rounds < ggrMaxRounds {
		rounds++
		err := inOrder(
			func() error { return cu.MemsetD32Async(g.cnt, 0, 2, s) },
			func() error {
				return r.launch("ggr_pick", g.grid(n), 1, glsBlock, 0, s, n, g.metric, g.xs, g.nbr, deg, oth, pick, pickd)
			},
			func() error { return r.launch("ggr_keep", g.grid(n), 1, glsBlock, 0, s, n, oth, pick, pickd, ok) },
			func() error {
				return r.launch("ggr_join", g.grid(n), 1, glsBlock, 0, s, n, pick, ok, deg, oth, adj, g.cnt)
			},
			func() error { return r.sync("a greedy matching round") },
			func() error { return dtoh(g.hostCnt[:1], g.cnt) },
		)
		if err != nil {
			return rounds, 0, err
		}
		if g.hostCnt[0] == 0 {
			break
		}
	}
	hd, ho, ha, order := make([]int32, n), make([]int32, n), make([]int32, 2*n), make([]int32, n)
	err = inOrder(func() error { return dtoh(hd, deg) }, func() error { return dtoh(ho, oth) },
		func() error { return dtoh(ha, adj) }, func() error { return dtoh(order, g.order) })
	if err != nil {
		return rounds, 0, err
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
	if err := htod(g.tour, tour); err != nil {
		return rounds, frags, err
	}
	if err := cu.Synchronize(); err != nil {
		return rounds, frags, err
	}
	return rounds, frags, r.launch("gls_pos", g.grid(n), 1, glsBlock, 0, s, n, g.tour, g.pos)
}
