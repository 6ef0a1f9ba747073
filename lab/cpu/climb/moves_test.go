package climb

import (
	"slices"
	"testing"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver/tour"
)

// newRNG returns stream number stream of seed.
func newRNG(seed, stream uint64) *runctl.Rand { return runctl.NewRand(seed, stream) }

func TestClimbDeltas(t *testing.T) {
	in := uniformInstance(40, 9)
	d := tour.NewDist(in)
	r := newRNG(9, 0)
	for trial := 0; trial < 200; trial++ {
		tr := r.RandomTour(in.N)
		l := d.Length(tr)
		i, j := r.Intn(in.N), r.Intn(in.N)
		if i == j {
			continue
		}
		i, j = min(i, j), max(i, j)
		delta := swapDelta(d, tr, i, j)
		tr[i], tr[j] = tr[j], tr[i]
		if got := d.Length(tr); got != l+delta {
			t.Fatalf("swap %d,%d: delta %d, exact change %d", i, j, delta, got-l)
		}
		if best, bi, bj := bestSwap(d, tr, func(int64) bool { return false }); best < 0 {
			l = d.Length(tr)
			tr[bi], tr[bj] = tr[bj], tr[bi]
			if got := d.Length(tr); got != l+best {
				t.Fatalf("best swap %d,%d: delta %d, exact change %d", bi, bj, best, got-l)
			}
		}
		best, bi, bj := best2opt(d, tr, func(int64) bool { return false })
		l = d.Length(tr)
		if best < 0 {
			slices.Reverse(tr[bi+1 : bj+1])
			if got := d.Length(tr); got != l+best {
				t.Fatalf("2-opt %d,%d: delta %d, exact change %d", bi, bj, best, got-l)
			}
		}
	}
}

// BenchmarkBest2Opt: one full best-improvement 2-opt scan (2opt-climb).
func BenchmarkBest2Opt(b *testing.B) {
	in := uniformInstance(1000, 1)
	d := tour.NewDist(in)
	t := newRNG(1, 0).RandomTour(in.N)
	var moves int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		best2opt(d, t, func(e int64) bool { moves += e; return false })
	}
	reportMoves(b, moves)
}

// BenchmarkBestSwap: one full best-improvement pair-exchange scan (swap-climb).
func BenchmarkBestSwap(b *testing.B) {
	in := uniformInstance(1000, 1)
	d := tour.NewDist(in)
	t := newRNG(1, 0).RandomTour(in.N)
	var moves int64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		bestSwap(d, t, func(e int64) bool { moves += e; return false })
	}
	reportMoves(b, moves)
}

// reportMoves reports the moves evaluated per second.
func reportMoves(b *testing.B, moves int64) {
	b.ReportMetric(float64(moves)/b.Elapsed().Seconds(), "moves/s")
}
