package ils

import (
	"context"
	"fmt"
	"github.com/tsplab/tsplab/solver/cpu/localsearch"
	"testing"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/lab/cpu/climb"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// The benchmarks time each engine's inner loop on 1000 uniform cities and
// report moves evaluated per second (Lam et al.'s solution space
// exploration speed), the figure to compare with the papers' CPU columns.

func reportMoves(b *testing.B, moves int64) {
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}

// benchKicks times kick + local search + accept/undo on one worker.
func benchKicks(b *testing.B, n int, or, three bool, rkbi int) {
	benchKicksDepth(b, n, or, three, rkbi, 1)
}

// benchKicksDepth is benchKicks with sequential moves of the given depth
// and the or-3opt moves.
func benchKicksDepth(b *testing.B, n int, or, three bool, rkbi, depth int) {
	benchMoves(b, n, localsearch.MoveSet{OrOpt: or, ThreeOpt: three, RKBI: rkbi, Depth: depth, Or3: depth > 1})
}

// benchMoves times one kick and its descent on n uniform cities from a
// greedy local optimum, with the moves of ms.
func benchMoves(b *testing.B, n int, ms localsearch.MoveSet) {
	in := uniformInstance(n, 1)
	nb := neighbor.Nearest(in, 8)
	s := localsearch.New(tour.NewDist(in), nb.List, nb.K, runctl.To32(construct.Greedy(in, nb)))
	s.SetMoves(ms)
	s.CacheNeighborDists()
	s.SetRand(newRNG(1, 0))
	s.SetJournal(true)
	s.PushAll()
	never := func() bool { return false }
	s.Optimize(never)
	m0 := s.Evaluated()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.TryKick(30, true, never)
	}
	reportMoves(b, s.Evaluated()-m0)
}

// BenchmarkILS2Opt: one kick of 2opt-ils (2-opt + Or-opt).
func BenchmarkILS2Opt(b *testing.B) { benchKicks(b, 1000, true, false, 0) }

// BenchmarkILS3Opt: one kick of 3opt-ils and auto (3-opt + Or-opt).
func BenchmarkILS3Opt(b *testing.B) { benchKicks(b, 1000, true, true, 0) }

// BenchmarkILS3Opt4461: one kick of auto on 4461 cities, where the
// distances come from the coordinates (no matrix) and reversals are long.
func BenchmarkILS3Opt4461(b *testing.B) { benchKicks(b, 4461, true, true, 0) }

// BenchmarkILSDepth2_4461 and BenchmarkILSDepth3_4461: one kick on 4461
// cities with sequential moves of two and three steps after the first
// (4- and 5-opt) and the or-3opt moves.
func BenchmarkILSDepth2_4461(b *testing.B) { benchKicksDepth(b, 4461, true, true, 0, 2) }

func BenchmarkILSDepth3_4461(b *testing.B) { benchKicksDepth(b, 4461, true, true, 0, 3) }

// BenchmarkILS3OptRKBI: one kick of 3opt-ils with random-3-best pivoting.
func BenchmarkILS3OptRKBI(b *testing.B) { benchKicks(b, 1000, true, true, 3) }

// BenchmarkEngines runs each registered engine for a fixed budget on all
// cores, the figure `tsp bench --suite cpu` reports.
func BenchmarkEngines(b *testing.B) {
	in := uniformInstance(1000, 2)
	for _, name := range allEngines {
		b.Run(name, func(b *testing.B) {
			e, _ := solver.Lookup(name, solver.BackendCPU)
			var moves int64
			for i := 0; i < b.N; i++ {
				p := solver.Params{Seed: uint64(i)}
				switch name {
				case "sa", "sspm", "pssm", "pspm":
					p = withOpts(p, "t0=100", "tend=10", "alpha=0.9")
				case "2opt-climb", "swap-climb":
					p = withOpts(p, climb.OptRestarts+"=1")
					p.TimeLimit = 200e6
				default:
					p.Config = func(o *ilsOptions) { o.kicks = 2000 }
				}
				res, err := solver.RunAided(context.Background(), e, in, p, nil, solver.Aid{}, false)
				if err != nil {
					b.Fatal(err)
				}
				moves += res.Moves
			}
			reportMoves(b, moves)
		})
	}
}

// BenchmarkDist compares the matrix with inline EUC_2D computation for a
// kick of auto's local search at several sizes; tour.MatrixMaxEUC2D
// follows it.
func BenchmarkDist(b *testing.B) {
	for _, n := range []int{500, 1000, 2000, 5000} {
		for _, mode := range []string{"matrix", "coords"} {
			b.Run(fmt.Sprintf("n=%d/%s", n, mode), func(b *testing.B) {
				eucMax := 0
				if mode == "matrix" {
					eucMax = 1 << 30
				}
				in := uniformInstance(n, 1)
				nb := neighbor.Quadrant(in, 8)
				s := localsearch.New(tour.NewDistMatrixMax(in, eucMax), nb.List, nb.K, runctl.To32(construct.Greedy(in, nb)))
				s.SetMoves(localsearch.MoveSet{OrOpt: true, ThreeOpt: true})
				s.SetRand(newRNG(1, 0))
				s.SetJournal(true)
				s.PushAll()
				never := func() bool { return false }
				s.Optimize(never)
				b.ResetTimer()
				for i := 0; i < b.N; i++ {
					s.TryKick(30, true, never)
				}
			})
		}
	}
}

// BenchmarkILSLK5_4461: one kick with the 5-opt move (auto's move from
// 1,000 cities).
func BenchmarkILSLK5_4461(b *testing.B) {
	benchMoves(b, 4461, localsearch.MoveSet{OrOpt: true, FiveOpt: localsearch.NewFiveOpt()})
}
