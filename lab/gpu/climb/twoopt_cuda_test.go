//go:build cuda

package climb

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// cpuFloatDelta is the 2-opt delta of (i, j) in float64 on the kernel's
// scaled coordinates.
func cpuFloatDelta(pts []float32, i, j, n int) float64 {
	p := func(k int) (float64, float64) { return float64(pts[4*k]), float64(pts[4*k+1]) }
	dist := func(a, b int) float64 {
		ax, ay := p(a)
		bx, by := p(b)
		return math.Hypot(ax-bx, ay-by)
	}
	return dist(i, j) + dist(i+1, (j+1)%n) - dist(i, i+1) - dist(j, (j+1)%n)
}

func TestDebugDeltasMatchCPU(t *testing.T) {
	gputest.NeedDevice(t)
	for _, m := range []solver.Metric{solver.Euc2D, solver.Att} {
		in := gputest.RandomInstance(300, m, 10000, 5)
		tr := construct.Random(in.N, rand.New(rand.NewPCG(1, 2)))
		got, pts, err := debugDeltas(in, tr)
		if err != nil {
			t.Fatal(err)
		}
		n := in.N
		checked := 0
		for i := 0; i < n; i++ {
			for j := 0; j < n; j++ {
				g := got[i*n+j]
				if !device.ValidMove(i, j, n) {
					if !math.IsInf(float64(g), 1) {
						t.Fatalf("(%d,%d) is no move but got delta %v", i, j, g)
					}
					continue
				}
				f := cpuFloatDelta(pts, i, j, n)
				if math.Abs(float64(g)-f) > 1e-5*40000+1e-3 {
					t.Fatalf("%s (%d,%d): GPU %v, CPU float %v", m, i, j, g, f)
				}
				// Four TSPLIB roundings: the exact integer delta is within 2 of
				// the real-valued one (ATT: its pseudo-Euclidean rounding).
				// (pts are scaled so that f is in the metric's units.)
				ex := float64(device.ExactDelta(in, tr, i, j))
				if math.Abs(ex-f) > 4.01 {
					t.Fatalf("%s (%d,%d): exact %v, float %v", m, i, j, ex, f)
				}
				checked++
			}
		}
		if checked != int(movesPerPass(n)) {
			t.Fatalf("checked %d moves, want %d", checked, movesPerPass(n))
		}
	}
}

func TestEvalTilesFindTileMinimum(t *testing.T) {
	gputest.NeedDevice(t)
	for _, n := range []int{5, 7, 1000, 1025, 2500} {
		in := gputest.RandomInstance(n, solver.Euc2D, 50000, uint64(n))
		tr := construct.Random(n, rand.New(rand.NewPCG(uint64(n), 3)))
		tbs, err := evalTiles(in, tr)
		if err != nil {
			t.Fatal(err)
		}
		pts := make([]float32, 4*n)
		device.TourPoints(device.ShiftedCoords(in), 1, tr, pts)
		T, tiles := evalGrid(n)
		if len(tbs) != tiles {
			t.Fatalf("n=%d: %d tiles, want %d", n, len(tbs), tiles)
		}
		k := 0
		for bi := 0; bi < T; bi++ {
			for bj := bi; bj < T; bj++ {
				want, wi, wj := math.Inf(1), -1, -1
				for i := bi * evalTile; i < min(n, (bi+1)*evalTile); i++ {
					for j := bj * evalTile; j < min(n, (bj+1)*evalTile); j++ {
						if device.ValidMove(i, j, n) {
							if f := cpuFloatDelta(pts, i, j, n); f < want {
								want, wi, wj = f, i, j
							}
						}
					}
				}
				g := tbs[k]
				k++
				if wi < 0 {
					if g.I >= 0 {
						t.Fatalf("n=%d tile (%d,%d): no move, GPU reported (%d,%d)", n, bi, bj, g.I, g.J)
					}
					continue
				}
				if !device.ValidMove(int(g.I), int(g.J), n) {
					t.Fatalf("n=%d tile (%d,%d): GPU reported invalid move (%d,%d)", n, bi, bj, g.I, g.J)
				}
				gf := cpuFloatDelta(pts, int(g.I), int(g.J), n)
				if math.Abs(gf-float64(g.Delta)) > 0.05 || gf > want+0.05 {
					t.Fatalf("n=%d tile (%d,%d): GPU (%d,%d) delta %v (CPU %v), CPU best (%d,%d) %v", n, bi, bj, g.I, g.J, g.Delta, gf, wi, wj, want)
				}
				ex := device.ExactDelta(in, tr, int(g.I), int(g.J))
				if math.Abs(float64(ex)-gf) > 2.01 {
					t.Fatalf("n=%d: exact delta %d of the reported move, float %v", n, ex, gf)
				}
			}
		}
	}
}

func TestILSDescentDeterministicAndLocallyOptimal(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(3000, solver.Euc2D, 100000, 13)
	nb := neighbor.Nearest(in, 10)
	start := construct.Greedy(in, nb)
	r1, err := TwoOptDescent(in, start)
	if err != nil {
		t.Fatal(err)
	}
	r2, err := TwoOptDescent(in, start)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r1.Tour, r2.Tour) {
		t.Fatalf("descent not deterministic: %d vs %d", solver.TourLength(in, r1.Tour), solver.TourLength(in, r2.Tour))
	}
	device.Polish2Opt(in, r1.Tour, nb) // as 2opt-ils's descent ends
	// No exact improving 2-opt move may remain.
	for i := 0; i < in.N; i++ {
		for j := i + 2; j < in.N; j++ {
			if device.ValidMove(i, j, in.N) && device.ExactDelta(in, r1.Tour, i, j) < 0 {
				t.Fatalf("improving move (%d,%d) left: %d", i, j, device.ExactDelta(in, r1.Tour, i, j))
			}
		}
	}
}

// BenchmarkEvalRate measures the 2-opt evaluation kernel alone (moves
// evaluated per second, the figure docs/BENCHMARKS.md records) at sizes from
// 1,000 to 100,000 cities.
func BenchmarkEvalRate(b *testing.B) {
	gputest.NeedDevice(b)
	for _, n := range []int{1000, 2000, 5000, 10000, 33810, 50000, 100000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			passes := max(3, int(2e11/float64(movesPerPass(n))/40))
			var rate float64
			for b.Loop() {
				r, err := EvalRate(n, passes, 1)
				if err != nil {
					b.Fatal(err)
				}
				rate = r.MovesPerSec
			}
			b.ReportMetric(rate, "moves/s")
		})
	}
}
