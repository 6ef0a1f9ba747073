package partition

import (
	"slices"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver/enginetest"
)

// TestPartitionClustered: a clustered instance counts as clustered and
// a uniform one does not; on the clustered one every piece of every
// round takes the quadrant candidates first under "mixed" (so its lists
// reach into other clusters: farther on the whole than the nearest), the
// lists are valid (inside the piece, never the city itself) and most
// candidate pairs are mutual.
func TestPartitionClustered(t *testing.T) {
	uni := newTestPartRun(t, enginetest.DIMACS(t, "portgen", 3000, 3000), 4, func(o *Options) { o.Seg, o.Candidates = 400, ListMixed })
	if uni.clustered {
		t.Fatal("uniform instance taken for clustered")
	}
	pr := newTestPartRun(t, enginetest.DIMACS(t, "portcgen", 3000, 3000), 4, func(o *Options) { o.Seg, o.Candidates = 400, ListMixed })
	if !pr.clustered {
		t.Fatal("clustered instance not taken for clustered")
	}
	in := pr.env.In
	for round := range 2 {
		pr.round = int64(round)
		pr.cut(round*777, 0)
		var quadSum, nearSum int64
		pairs, mutual := 0, 0
		for i, sg := range pr.segs {
			pr.prepare(i)
			if kind := pr.segKind(i); kind != ListQuadrant {
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

// TestPartitionClusteredStitch: on a clustered instance the descent
// between pieces of an even round takes the quadrant lists and every
// city, leaving no improving 2-opt move between a city and one of its
// quadrant candidates anywhere in the tour; on a uniform instance it
// takes the nearest lists.
func TestPartitionClusteredStitch(t *testing.T) {
	for _, kind := range []string{"portcgen", "portgen"} {
		in := enginetest.DIMACS(t, kind, 3000, 3000)
		pr := newTestPartRun(t, in, 4, func(o *Options) { o.Seg, o.Candidates, o.Kicks = 400, ListMixed, 1000 })
		pr.cut(0, 1<<40)
		pr.runRound()
		pr.stitch(time.Hour, 0)
		checkPartTour(t, pr, "after the stitch")
		quad := &pr.globalNb()[0] == &pr.nb[1].List[0]
		if pr.clustered != (kind == "portcgen") {
			t.Fatalf("%s: clustered %v", kind, pr.clustered)
		}
		if quad != pr.clustered {
			t.Fatalf("%s: stitch on the quadrant lists %v, clustered %v", kind, quad, pr.clustered)
		}
		if !pr.clustered {
			continue
		}
		pos := make([]int, in.N)
		for i, ct := range pr.t {
			pos[ct] = i
		}
		for i, a := range pr.t {
			b := pr.t[(i+1)%in.N]
			for _, c := range pr.nb[1].Of(int(a)) {
				d := pr.t[(pos[c]+1)%in.N]
				if c == b || d == a {
					continue
				}
				if gain := in.Dist(int(a), int(b)) + in.Dist(int(c), int(d)) - in.Dist(int(a), int(c)) - in.Dist(int(b), int(d)); gain > 0 {
					t.Fatalf("improving 2-opt move left: %d-%d, %d-%d gains %d", a, b, c, d, gain)
				}
			}
		}
	}
}

// TestPartitionClusteredChain: with move adapt a partition search on a
// clustered instance takes the chain in every round, its stitch included,
// where on a uniform one round 2 takes the 5-opt move; both keep their
// tours exact.
func TestPartitionClusteredChain(t *testing.T) {
	for _, kind := range []string{"portcgen", "portgen"} {
		in := enginetest.DIMACS(t, kind, 3000, 3000)
		pr := newTestPartRun(t, in, 2, func(o *Options) {
			o.Seg, o.KicksPerCity, o.SliceMS, o.Candidates, o.Move, o.Kicks = 600, 0.2, 0, ListMixed, MoveAdapt, 100000
		})
		rng := newRNG(5, 0)
		var deep []bool
		for range 4 {
			pr.step(rng.Intn(in.N), 1<<40)
			deep = append(deep, pr.deep)
			if pr.deep != (pr.global.FiveOptState() != nil) {
				t.Fatalf("%s, round %d: 5-opt %v, the stitch's 5-opt state %v", kind, pr.round-1, pr.deep, pr.global.FiveOptState() != nil)
			}
			checkPartTour(t, pr, kind)
		}
		if pr.clustered != (kind == "portcgen") {
			t.Fatalf("%s: clustered %v", kind, pr.clustered)
		}
		if pr.clustered && slices.Contains(deep, true) || !pr.clustered && !deep[2] {
			t.Fatalf("%s: 5-opt by round %v, clustered %v", kind, deep, pr.clustered)
		}
	}
}
