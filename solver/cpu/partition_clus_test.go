package cpu

import (
	"context"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/gen"
)

// dimacsInstance is the DIMACS challenge's instance of kind (portgen or
// portcgen) with n cities from seed.
func dimacsInstance(t *testing.T, kind string, n int, seed uint64) *solver.Instance {
	t.Helper()
	in, err := gen.Generate(kind, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return in
}

// TestPartitionClustered: a clustered instance counts as clustered and
// a uniform one does not; on the clustered one every piece of every
// round takes the quadrant candidates first under "mixed" (so its lists
// reach into other clusters: farther on the whole than the nearest), the
// lists are valid (inside the piece, never the city itself) and most
// candidate pairs are mutual.
func TestPartitionClustered(t *testing.T) {
	uni := newTestPartRun(t, dimacsInstance(t, "portgen", 3000, 3000), 4, map[string]string{OptPartSegment: "400", OptCandidates: "mixed"})
	if uni.clustered {
		t.Fatal("uniform instance taken for clustered")
	}
	pr := newTestPartRun(t, dimacsInstance(t, "portcgen", 3000, 3000), 4, map[string]string{OptPartSegment: "400", OptCandidates: "mixed"})
	if !pr.clustered {
		t.Fatal("clustered instance not taken for clustered")
	}
	in := pr.r.in
	for round := range 2 {
		pr.round = int64(round)
		pr.cut(round*777, 0)
		var quadSum, nearSum int64
		pairs, mutual := 0, 0
		for i, sg := range pr.segs {
			pr.prepare(i)
			if kind := pr.segKind(i); kind != listQuadrant {
				t.Fatalf("round %d, segment %d: kind %d, want quadrant on a clustered instance", round, i, kind)
			}
			for j, ct := range sg.cities[:sg.m] {
				row := sg.nb[j*sg.k : (j+1)*sg.k]
				inside := true
				for _, x := range pr.nb[1].Of(int(ct)) {
					inside = inside && pr.segOf[x] == int32(i)
				}
				for _, x := range pr.nb[0].Of(int(ct)) {
					inside = inside && pr.segOf[x] == int32(i)
				}
				for _, lx := range row {
					pairs++
					if slices.Contains(sg.nb[int(lx)*sg.k:(int(lx)+1)*sg.k], int32(j)) {
						mutual++
					}
					if inside {
						quadSum += in.Dist(int(ct), int(sg.cities[lx]))
					}
				}
				if inside {
					for _, x := range pr.nb[0].Of(int(ct)) {
						nearSum += in.Dist(int(ct), int(x))
					}
				}
			}
		}
		if quadSum <= nearSum || nearSum == 0 {
			t.Fatalf("round %d: pieces' candidates at %d in all, the nearest at %d: not the quadrant lists", round, quadSum, nearSum)
		}
		if 2*mutual < pairs {
			t.Fatalf("round %d: %d of %d candidate pairs mutual, want at least half", round, mutual, pairs)
		}
		checkPartLists(t, pr)
	}
}

// TestPartitionClusteredDeterministic: a partition search on a clustered
// instance with a kicks budget gives the same tour for the same seed.
func TestPartitionClusteredDeterministic(t *testing.T) {
	in := dimacsInstance(t, "portcgen", 1500, 1500)
	p := func() solver.Params {
		return solver.Params{Seed: 4, Workers: 2, Extra: map[string]string{OptPartition: "on", OptPartSegment: "200", OptKicks: "1500", OptMove: "chain", OptCandidates: "mixed"}}
	}
	a := solve(t, "auto", in, p(), nil)
	b := solve(t, "auto", in, p(), nil)
	if !slices.Equal(a.Tour, b.Tour) {
		t.Fatalf("same seed and workers, different tours: %d and %d", a.Length, b.Length)
	}
}

// TestPartitionAlphaTaken: with partalpha the partition search waits,
// on a kicks budget, for the ascent's alpha lists and takes them; every
// piece's lists then hold each city's alpha-nearest cities inside the
// piece, and stay valid lists of the piece.
func TestPartitionAlphaTaken(t *testing.T) {
	pr := newTestPartRun(t, dimacsInstance(t, "portcgen", 3000, 3000), 4, map[string]string{OptPartSegment: "400", OptCandidates: "mixed", OptPartAlpha: "1"})
	pr.r.aid.Ascents = new(bound.Ascents)
	pr.r.startPartAlpha(context.Background())
	pr.takeAlpha()
	if pr.alpha == nil || pr.alpha.K != alphaNeighbors {
		t.Fatalf("alpha lists not taken: %+v", pr.alpha)
	}
	if pr.r.stats.AscentIterations == 0 {
		t.Fatal("no ascent's figures with the alpha lists")
	}
	for round := range 2 {
		pr.round = int64(round)
		pr.cut(round*777, 0)
		for i, sg := range pr.segs {
			pr.prepare(i)
			for j, ct := range sg.cities[:sg.m] {
				row := sg.nb[j*sg.k : (j+1)*sg.k]
				for _, x := range pr.alpha.Of(int(ct)) {
					if pr.segOf[x] == int32(i) && !slices.Contains(row, pr.local[x]) {
						t.Fatalf("round %d, segment %d, city %d: alpha candidate %d inside the piece missing from %v", round, i, j, x, row)
					}
				}
			}
		}
		checkPartLists(t, pr)
	}
}

// TestPartitionAlphaDeterministic: a partition search with partalpha and
// a kicks budget gives the same tour for the same seed, and reports the
// ascent behind its alpha lists.
func TestPartitionAlphaDeterministic(t *testing.T) {
	in := dimacsInstance(t, "portcgen", 1500, 1500)
	p := func() solver.Params {
		return solver.Params{Seed: 4, Workers: 2, Extra: map[string]string{OptPartition: "on", OptPartSegment: "200", OptKicks: "1500", OptMove: "chain", OptCandidates: "mixed", OptPartAlpha: "1"}}
	}
	a := solve(t, "auto", in, p(), nil)
	b := solve(t, "auto", in, p(), nil)
	if !slices.Equal(a.Tour, b.Tour) {
		t.Fatalf("same seed and workers, different tours: %d and %d", a.Length, b.Length)
	}
	if a.Stats.AscentIterations == 0 || a.Stats.AlphaListsAt <= 0 {
		t.Fatalf("no alpha lists taken: %+v", a.Stats)
	}
}
