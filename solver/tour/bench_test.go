package tour

import (
	"math/rand/v2"
	"testing"

	"github.com/tsplab/tsplab/internal/testinst"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

var benchSink int64

func bench100k(b *testing.B) *solver.Instance {
	b.Helper()
	return testinst.Euc(100_000, 1e6, rand.New(rand.NewPCG(1, 1)))
}

func benchMoves(b *testing.B) (*solver.Instance, *Array, *Linked, []int) {
	b.Helper()
	rng := rand.New(rand.NewPCG(2, 2))
	in := testinst.Euc(10_000, 1e6, rng)
	t := construct.Random(in.N, rng)
	idx := make([]int, 4096)
	for i := range idx {
		idx[i] = rng.IntN(in.N)
	}
	return in, NewArray(t), NewLinked(t), idx
}

func BenchmarkDelta2Opt(b *testing.B) {
	in, a, _, idx := benchMoves(b)
	d := NewDist(in)
	k := 0
	for b.Loop() {
		benchSink += Delta2Opt(d, a, idx[k&4095], idx[(k+1)&4095])
		k++
	}
}

func BenchmarkDeltaRelocate(b *testing.B) {
	in, a, _, idx := benchMoves(b)
	d := NewDist(in)
	k := 0
	for b.Loop() {
		benchSink += DeltaRelocate(d, a, idx[k&4095], idx[(k+1)&4095])
		k++
	}
}

func BenchmarkDeltaLinkedRelocate(b *testing.B) {
	in, _, l, idx := benchMoves(b)
	d := NewDist(in)
	k := 0
	for b.Loop() {
		benchSink += DeltaLinkedRelocate(d, l, idx[k&4095], idx[(k+1)&4095])
		k++
	}
}

func BenchmarkDeltaOrOpt(b *testing.B) {
	in, a, _, idx := benchMoves(b)
	d := NewDist(in)
	k := 0
	for b.Loop() {
		benchSink += DeltaOrOpt(d, a, idx[k&4095], 1+k%3, idx[(k+1)&4095], k&1 == 0)
		k++
	}
}

func BenchmarkDeltaSwap(b *testing.B) {
	in, a, _, idx := benchMoves(b)
	d := NewDist(in)
	k := 0
	for b.Loop() {
		benchSink += DeltaSwap(d, a, idx[k&4095], idx[(k+1)&4095])
		k++
	}
}

// BenchmarkApply2Opt measures the reversal of the shorter side on random
// moves of a 10 000-city tour: at most n/4 swaps each.
func BenchmarkApply2Opt(b *testing.B) {
	_, a, _, idx := benchMoves(b)
	k := 0
	for b.Loop() {
		a.Apply2Opt(idx[k&4095], idx[(k+1)&4095])
		k++
	}
}

func BenchmarkLinkedRelocate(b *testing.B) {
	_, _, l, idx := benchMoves(b)
	k := 0
	for b.Loop() {
		l.Relocate(idx[k&4095], idx[(k+1)&4095])
		k++
	}
}

// BenchmarkTwoOpt100k: 2-opt with neighbour lists and don't-look bits
// from the greedy tour of 100 000 uniform cities.
func BenchmarkTwoOpt100k(b *testing.B) {
	in := bench100k(b)
	nb := neighbor.Nearest(in, 8)
	g := construct.Greedy(in, nb)
	var a *Array
	for b.Loop() {
		b.StopTimer()
		a = NewArray(g)
		b.StartTimer()
		TwoOpt(in, a, nb)
	}
	b.ReportMetric(100*float64(solver.TourLength(in, a.Tour)-solver.TourLength(in, g))/float64(solver.TourLength(in, g)), "%change")
}
