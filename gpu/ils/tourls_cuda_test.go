//go:build cuda

package ils

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
)

// glsState downloads the tour and lists in city ids and every city's best
// move after gls_eval from off over all cities (ranks mapped to ids).
func glsState(t *testing.T, g *glsRun, off int) (tour []int, nb [][]int, moves map[int]glsMove) {
	t.Helper()
	n := g.n
	var mv, mid, tr, order, nbr []int32
	err := g.ru.Do(func() error {
		if err := g.ru.Launch("gls_eval", g.grid(n), 1, glsBlock, 0, g.ru.Stream, n, off, g.xs, g.tour, g.pos, g.nbr, g.active, true, g.metric, g.mv, g.mvmid, g.cnt); err != nil {
			return err
		}
		if err := g.ru.Sync("gls_eval"); err != nil {
			return err
		}
		mv, mid, tr, order, nbr = make([]int32, 4*n), make([]int32, n), make([]int32, n), make([]int32, n), make([]int32, glsK*n)
		return device.InOrder(func() error { return device.DtoH(mv, g.mv) }, func() error { return device.DtoH(mid, g.mvmid) },
			func() error { return device.DtoH(tr, g.tour) }, func() error { return device.DtoH(order, g.order) }, func() error { return device.DtoH(nbr, g.nbr) })
	})
	if err != nil {
		t.Fatal(err)
	}
	tour, nb, moves = make([]int, n), make([][]int, n), map[int]glsMove{}
	for p, r := range tr {
		tour[p] = int(order[r])
	}
	for r := 0; r < n; r++ {
		c := int(order[r])
		for k := 0; k < glsK; k++ {
			if x := nbr[r*glsK+k]; x >= 0 {
				nb[c] = append(nb[c], int(order[x]))
			}
		}
		if mv[4*r] > 0 {
			moves[c] = glsMove{mv[4*r], mv[4*r+1], mv[4*r+2], mv[4*r+3], mid[r]}
		}
	}
	return tour, nb, moves
}

// withGLS runs f on a built glsRun of in from the curve.
func withGLS(t *testing.T, in *solver.Instance, f func(g *glsRun)) {
	t.Helper()
	ru := gputest.NeedRun(t)
	var g *glsRun
	if err := ru.Do(func() (err error) {
		if g, err = newGLSRun(ru, in); err != nil {
			return err
		}
		return g.build(in, nil, &glsStats{})
	}); err != nil {
		t.Fatal(err)
	}
	defer ru.Do(func() error { return g.bufs.FreeAll() })
	f(g)
}

var glsCases = []struct {
	n     int
	m     solver.Metric
	scale float64
}{
	{3000, solver.Euc2D, 1e6},
	{2000, solver.Ceil2D, 1e4},
	{2000, solver.Att, 1e5},
	{200, solver.Euc2D, 100}, // duplicate points
}

// TestTourLSDeltasExact checks every city's best move of a pass over the
// curve against the CPU: applied alone it gives a permutation whose exact
// length is shorter by the move's gain; then a pass's moves together
// shorten the tour by exactly the gain the device summed.
func TestTourLSDeltasExact(t *testing.T) {
	for _, c := range glsCases {
		t.Run(fmt.Sprintf("%s_n%d", c.m, c.n), func(t *testing.T) {
			in := gputest.RandomInstance(c.n, c.m, c.scale, uint64(c.n)+3)
			withGLS(t, in, func(g *glsRun) {
				for round, off := range []int{0, c.n / 3, c.n - 1} {
					tour, _, moves := glsState(t, g, off)
					l0 := solver.TourLength(in, tour)
					if len(moves) == 0 && round == 0 {
						t.Fatal("no improving move on the curve")
					}
					for city, m := range moves {
						nt := glsApplyCPU(tour, off, m)
						if err := solver.ValidateTour(nt, in.N); err != nil {
							t.Fatalf("city %d move %+v: %v", city, m, err)
						}
						if d := l0 - solver.TourLength(in, nt); d != int64(m.gain) {
							t.Fatalf("city %d move %+v: gain %d, the CPU's %d", city, m, m.gain, d)
						}
					}
					var gain uint64
					if err := g.ru.Do(func() (err error) { _, _, gain, err = g.pass(off, true); return err }); err != nil {
						t.Fatal(err)
					}
					after, _, _ := glsState(t, g, off)
					if err := solver.ValidateTour(after, in.N); err != nil {
						t.Fatal(err)
					}
					if d := l0 - solver.TourLength(in, after); d != int64(gain) || gain == 0 {
						t.Fatalf("pass from %d: device gain %d, the CPU's %d", off, gain, d)
					}
				}
			})
		})
	}
}

// glsImproving counts the improving moves of the kernel's neighbourhood
// (2-opt both ways, segments of 1-3 cities next to a neighbour of an end)
// left in tour t over lists nb, on the CPU.
func glsImproving(in *solver.Instance, t []int, nb [][]int) int {
	n := len(t)
	pos := make([]int, n)
	for i, c := range t {
		pos[c] = i
	}
	at := func(i int) int { return t[((i%n)+n)%n] }
	d := func(a, b int) int64 { return in.Dist(a, b) }
	count := 0
	for c := 0; c < n; c++ {
		i := pos[c]
		s, p := at(i+1), at(i-1)
		for _, x := range nb[c] {
			j := pos[x]
			if x != s && at(j+1) != c && d(c, s)+d(x, at(j+1))-d(c, x)-d(s, at(j+1)) > 0 {
				count++
			}
			if x != p && at(j-1) != c && d(p, c)+d(at(j-1), x)-d(c, x)-d(p, at(j-1)) > 0 {
				count++
			}
		}
		for L := 1; L <= 3 && L+3 <= n; L++ {
			s2, nx := at(i+L-1), at(i+L)
			gr := d(p, c) + d(s2, nx) - d(p, nx)
			in := func(x int) bool { return (pos[x]-i+n)%n < L }
			ends := [][2]int{{c, s2}, {s2, c}}[:min(L, 2)]
			for _, eo := range ends {
				for _, x := range nb[eo[0]] {
					if in(x) {
						continue
					}
					for _, y := range []int{at(pos[x] + 1), at(pos[x] - 1)} {
						if !in(y) && gr-(d(x, eo[0])+d(eo[1], y)-d(x, y)) > 0 {
							count++
						}
					}
				}
			}
		}
	}
	return count
}

// TestTourLSLocalOptimum descends to the end and checks on the CPU that no
// improving move of the neighbourhood is left over the device's lists,
// that the lists are nearest neighbours, and that the device's summed gain
// is the exact change of length.
func TestTourLSLocalOptimum(t *testing.T) {
	for _, c := range glsCases {
		t.Run(fmt.Sprintf("%s_n%d", c.m, c.n), func(t *testing.T) {
			in := gputest.RandomInstance(c.n, c.m, c.scale, uint64(c.n)+5)
			withGLS(t, in, func(g *glsRun) {
				start, nb, _ := glsState(t, g, 0)
				var st glsStats
				if err := g.ru.Do(func() error { return g.descend(context.Background(), time.Time{}, 1, 0, &st) }); err != nil {
					t.Fatal(err)
				}
				tour, _, moves := glsState(t, g, 0)
				if err := solver.ValidateTour(tour, in.N); err != nil {
					t.Fatal(err)
				}
				l0, l1 := solver.TourLength(in, start), solver.TourLength(in, tour)
				if l0-l1 != int64(st.gain) {
					t.Fatalf("device gain %d, the CPU's %d", st.gain, l0-l1)
				}
				if len(moves) != 0 {
					t.Fatalf("%d cities still have an improving move from origin 0", len(moves))
				}
				if k := glsImproving(in, tour, nb); k > 0 {
					t.Fatalf("%d improving moves left (passes %d)", k, st.Passes)
				}
				checkNearest(t, in, nb)
				t.Logf("%d passes (%d full), %d moves: %d -> %d", st.Passes, st.full, st.moves, l0, l1)
			})
		})
	}
}

// checkNearest checks that nb[c] are the glsK nearest cities of c (by
// squared distance; ties either way).
func checkNearest(t *testing.T, in *solver.Instance, nb [][]int) {
	t.Helper()
	sq := func(a, b int) float64 {
		dx, dy := in.X[a]-in.X[b], in.Y[a]-in.Y[b]
		return dx*dx + dy*dy
	}
	for c := 0; c < in.N; c += 7 {
		if len(nb[c]) != min(glsK, in.N-1) {
			t.Fatalf("city %d has %d neighbours", c, len(nb[c]))
		}
		worst := sq(c, nb[c][len(nb[c])-1])
		closer := 0
		for x := 0; x < in.N; x++ {
			if x != c && sq(c, x) < worst {
				closer++
			}
		}
		if closer > len(nb[c])-1 {
			t.Fatalf("city %d: %d cities closer than its last neighbour", c, closer)
		}
	}
}

// TestTourLSEngine runs the engine from the curve and from a given random
// tour: valid tours, shorter than their starts.
func TestTourLSEngine(t *testing.T) {
	gputest.NeedDevice(t)
	e, err := solver.Lookup(AlgoTourLS, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	in := gputest.RandomInstance(20000, solver.Euc2D, 1e6, 11)
	random := rand.New(rand.NewPCG(1, 2)).Perm(in.N)
	for _, start := range [][]int{nil, random} {
		r, err := e.Solve(context.Background(), in, solver.Params{Seed: 1, Start: start}, nil)
		if err != nil {
			t.Fatal(err)
		}
		ref := construct.SpaceFillingCurve(in)
		if start != nil {
			ref = start
		}
		if l := solver.TourLength(in, ref); r.Length >= l*19/20 {
			t.Fatalf("length %d from a start of %d", r.Length, l)
		}
		t.Logf("%d (%s)", r.Length, r.Device)
	}
}
