package recomb

import (
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// variants are the crossover's settings every table case runs under.
var variants = []struct {
	name string
	g    func() *GPX
}{
	{"gpx", func() *GPX { return &GPX{NoGhosts: true, NoFusion: true, NoRepair: true} }},
	{"repair", func() *GPX { return &GPX{NoGhosts: true, NoFusion: true} }},
	{"ghosts", func() *GPX { return &GPX{NoFusion: true, NoRepair: true} }},
	{"full", func() *GPX { return &GPX{} }},
}

func cross(t *testing.T, g *GPX, in *problem.Instance, a, b []int32) ([]int32, Stats) {
	t.Helper()
	child := make([]int32, len(a))
	st := g.Cross(in, a, b, length(in, a), length(in, b), child)
	checkChild(t, in, a, b, child, st)
	return child, st
}

func TestIdenticalParents(t *testing.T) {
	in := instance(t, 200, 1)
	a := randomTour(200, rand.New(rand.NewPCG(1, 2)))
	for _, v := range variants {
		child, st := cross(t, v.g(), in, a, slices.Clone(a))
		if st.Components != 0 || st.Gain != 0 || length(in, child) != length(in, a) {
			t.Errorf("%s: identical parents gave %+v", v.name, st)
		}
		// the same tour read backwards is the same cycle
		r := slices.Clone(a)
		slices.Reverse(r)
		if _, st := cross(t, v.g(), in, a, r); st.Components != 0 {
			t.Errorf("%s: a tour and its reverse gave %d components", v.name, st.Components)
		}
	}
}

func TestOneTwoOptMoveApart(t *testing.T) {
	in := instance(t, 300, 2)
	nb := neighbor.Nearest(in, 8)
	a := randomTour(300, rand.New(rand.NewPCG(2, 2)))
	twoOpt(in, a, nb)
	for _, off := range []int{3, 40, 150} {
		b := slices.Clone(a)
		slices.Reverse(b[10 : 10+off]) // one 2-opt move
		for _, v := range variants {
			child, st := cross(t, v.g(), in, a, b)
			if got, want := length(in, child), min(length(in, a), length(in, b)); got != want {
				t.Errorf("%s, segment %d: child %d, want the shorter parent %d", v.name, off, got, want)
			}
			if st.Feasible != 0 {
				t.Errorf("%s, segment %d: %d feasible components, want none (the move's four ends pair differently)", v.name, off, st.Feasible)
			}
		}
	}
}

// Two parents, each a good tour with two neighbouring cities swapped in
// a different place: each swap is a component of two portals, so the
// child takes the good tour's order in both.
func TestSwapsInDifferentPlaces(t *testing.T) {
	in := instance(t, 500, 3)
	nb := neighbor.Nearest(in, 8)
	r := rand.New(rand.NewPCG(3, 3))
	base := randomTour(500, r)
	twoOpt(in, base, nb)
	lbase := length(in, base)
	for trial := 0; trial < 20; trial++ {
		i := r.IntN(200)
		j := 250 + r.IntN(200)
		a, b := slices.Clone(base), slices.Clone(base)
		a[i], a[i+1] = a[i+1], a[i]
		b[j], b[j+1] = b[j+1], b[j]
		for _, v := range variants {
			child, st := cross(t, v.g(), in, a, b)
			if lc := length(in, child); lc > lbase {
				t.Fatalf("%s: child %d longer than the tour both come from (%d); %+v", v.name, lc, lbase, st)
			}
			if st.Feasible < 2 {
				t.Fatalf("%s: %d feasible components, want 2", v.name, st.Feasible)
			}
		}
	}
}

// An instance where every tour has the same length: every choice ties.
func TestTies(t *testing.T) {
	n := 60
	m := make([]int32, n*n)
	for i := range m {
		m[i] = 7
	}
	for i := 0; i < n; i++ {
		m[i*n+i] = 0
	}
	in := problem.NewMatrixInstance("flat", n, m)
	r := rand.New(rand.NewPCG(4, 4))
	for trial := 0; trial < 20; trial++ {
		a := randomTour(n, r)
		b := slices.Clone(a)
		perturb(b, 3, r)
		for _, v := range variants {
			child, st := cross(t, v.g(), in, a, b)
			if st.Gain != 0 || length(in, child) != int64(7*n) {
				t.Fatalf("%s: a tie gave gain %d", v.name, st.Gain)
			}
		}
	}
}

// Local optima of generated instances, alike (one tour perturbed and
// descended twice) and unlike (two random starts): every child checked,
// and the alike pairs must gain somewhere.
func TestGeneratedInstances(t *testing.T) {
	for _, kind := range []string{"uniform", "clustered"} {
		for _, n := range []int{50, 400, 2000} {
			in, err := gen.Generate(kind, n, uint64(n))
			if err != nil {
				t.Fatal(err)
			}
			nb := neighbor.Nearest(in, 8)
			r := rand.New(rand.NewPCG(uint64(n), 5))
			base := randomTour(n, r)
			twoOpt(in, base, nb)
			gains := map[string]int64{}
			for trial := 0; trial < 6; trial++ {
				a, b := slices.Clone(base), slices.Clone(base)
				perturb(a, n/20+1, r)
				perturb(b, n/20+1, r)
				twoOpt(in, a, nb)
				twoOpt(in, b, nb)
				c, d := randomTour(n, r), randomTour(n, r)
				twoOpt(in, c, nb)
				twoOpt(in, d, nb)
				pair := map[string]int64{}
				for _, v := range variants {
					_, st := cross(t, v.g(), in, a, b)
					gains[v.name] += st.Gain
					pair[v.name] = st.Gain
					cross(t, v.g(), in, c, d)
				}
				// fusion and repair only open infeasible components
				if pair["full"] < pair["ghosts"] || pair["repair"] < pair["gpx"] {
					t.Errorf("%s %d: gains %v: fusion or repair lost", kind, n, pair)
				}
			}
			if n >= 400 {
				for _, v := range variants {
					if gains[v.name] == 0 {
						t.Errorf("%s %d, %s: no gain in 6 crossovers of alike local optima", kind, n, v.name)
					}
				}
			}
			// the ghost split only adds components that can be taken
			if gains["ghosts"] < gains["gpx"] {
				t.Logf("%s %d: ghosts gained %d, plain %d", kind, n, gains["ghosts"], gains["gpx"])
			}
		}
	}
}

func TestFixedEdgesSurvive(t *testing.T) {
	in := instance(t, 300, 6)
	for i := 0; i < 60; i += 3 {
		in.FixedEdges = append(in.FixedEdges, [2]int{i, i + 1})
	}
	r := rand.New(rand.NewPCG(6, 6))
	for trial := 0; trial < 10; trial++ {
		ps := [2][]int32{fixedRandomTour(in, r), fixedRandomTour(in, r)}
		for _, v := range variants {
			child, _ := cross(t, v.g(), in, ps[0], ps[1])
			ci := make([]int, len(child))
			for i, c := range child {
				ci[i] = int(c)
			}
			if err := in.CheckFixedEdges(ci); err != nil {
				t.Fatalf("%s: %v", v.name, err)
			}
		}
	}
}

func TestTSPLIB(t *testing.T) {
	dir := tsplibdir.Need(t)
	for _, name := range []string{"pr2392", "fnl4461", "pcb3038"} {
		path := filepath.Join(dir, name+".tsp")
		if _, err := os.Stat(path); err != nil {
			t.Logf("%s absent", path)
			continue
		}
		in, err := tsplib.Load(path)
		if err != nil {
			t.Fatal(err)
		}
		nb := neighbor.Nearest(in, 8)
		r := rand.New(rand.NewPCG(7, 7))
		base := make([]int32, in.N)
		for i, c := range construct.SpaceFillingCurve(in) {
			base[i] = int32(c)
		}
		twoOpt(in, base, nb)
		var total int64
		for trial := 0; trial < 3; trial++ {
			a, b := slices.Clone(base), slices.Clone(base)
			perturb(a, in.N/10, r)
			perturb(b, in.N/10, r)
			twoOpt(in, a, nb)
			twoOpt(in, b, nb)
			_, st := cross(t, &GPX{}, in, a, b)
			total += st.Gain
			t.Logf("%s: %+v", name, st)
		}
		if total == 0 {
			t.Errorf("%s: no gain in 3 crossovers of alike 2-opt optima", name)
		}
	}
}

func TestNoAllocationsWhenWarm(t *testing.T) {
	in := instance(t, 1000, 8)
	r := rand.New(rand.NewPCG(8, 8))
	a := randomTour(1000, r)
	b := slices.Clone(a)
	perturb(b, 50, r)
	la, lb := length(in, a), length(in, b)
	child := make([]int32, 1000)
	g := &GPX{}
	g.Cross(in, a, b, la, lb, child)
	if n := testing.AllocsPerRun(20, func() { g.Cross(in, a, b, la, lb, child) }); n != 0 {
		t.Errorf("%v allocations a crossover once warm", n)
	}
}

// The randomized comparison with brute force on small instances: the
// plain crossover's child lies between the best choice of parent per
// component that makes a tour (enumerated) and the textbook GPX of
// two-portal components (a reference written here apart), and every
// child is a tour of the union graph no shorter than its best tour.
func TestBruteForce(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for trial := 0; trial < 3000; trial++ {
		n := 5 + r.IntN(6)
		in := instance(t, n, uint64(trial))
		a := randomTour(n, r)
		b := slices.Clone(a)
		if r.IntN(2) == 0 {
			b = randomTour(n, r)
		} else {
			perturb(b, 1+r.IntN(2), r)
		}
		la, lb := length(in, a), length(in, b)
		combos, ref := bruteCombos(in, a, b)
		unionBest := bruteUnion(in, a, b)
		for _, v := range variants {
			child, st := cross(t, v.g(), in, a, b)
			lc := length(in, child)
			if lc < unionBest {
				t.Fatalf("trial %d %s: child %d below the union graph's best tour %d", trial, v.name, lc, unionBest)
			}
			if v.name == "gpx" || v.name == "repair" {
				if lc < combos || lc > ref {
					t.Fatalf("trial %d: child %d outside [%d, %d] (parents %d, %d) %+v\na=%v\nb=%v", trial, lc, combos, ref, la, lb, st, a, b)
				}
			}
		}
	}
}

// bruteCombos returns the shortest tour made by choosing for each
// component of the differing edges one parent's edges (every choice
// enumerated), and the two-portal reference GPX's child length.
func bruteCombos(in *problem.Instance, a, b []int32) (best, ref int64) {
	n := len(a)
	ea, eb := edgeSet(a), edgeSet(b)
	adj := make([][]int32, n)
	for e := range ea {
		if !eb[e] {
			adj[e[0]] = append(adj[e[0]], e[1])
			adj[e[1]] = append(adj[e[1]], e[0])
		}
	}
	for e := range eb {
		if !ea[e] {
			adj[e[0]] = append(adj[e[0]], e[1])
			adj[e[1]] = append(adj[e[1]], e[0])
		}
	}
	comp := make([]int, n)
	for i := range comp {
		comp[i] = -1
	}
	k := 0
	for s := 0; s < n; s++ {
		if comp[s] >= 0 || len(adj[s]) == 0 {
			continue
		}
		stack := []int32{int32(s)}
		comp[s] = k
		for len(stack) > 0 {
			x := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, y := range adj[x] {
				if comp[y] < 0 {
					comp[y] = k
					stack = append(stack, y)
				}
			}
		}
		k++
	}
	la, lb := length(in, a), length(in, b)
	if k == 0 {
		return min(la, lb), min(la, lb)
	}
	d := func(e [2]int32) int64 { return in.Dist(int(e[0]), int(e[1])) }
	inA, inB := make([]int64, k), make([]int64, k)
	cut := make([]int, k)
	var common int64
	for e := range ea {
		if eb[e] {
			common += d(e)
			if c0, c1 := comp[e[0]], comp[e[1]]; c0 != c1 {
				if c0 >= 0 {
					cut[c0]++
				}
				if c1 >= 0 {
					cut[c1]++
				}
			}
		} else {
			inA[comp[e[0]]] += d(e)
		}
	}
	for e := range eb {
		if !ea[e] {
			inB[comp[e[0]]] += d(e)
		}
	}
	best = math.MaxInt64
	for mask := 0; mask < 1<<k; mask++ {
		edges := map[[2]int32]bool{}
		var l int64 = common
		for e := range ea {
			if eb[e] || mask>>comp[e[0]]&1 == 0 {
				edges[e] = true
			}
		}
		for e := range eb {
			if !ea[e] && mask>>comp[e[0]]&1 == 1 {
				edges[e] = true
			}
		}
		for c := 0; c < k; c++ {
			if mask>>c&1 == 1 {
				l += inB[c]
			} else {
				l += inA[c]
			}
		}
		if l < best && isTour(n, edges) {
			best = l
		}
	}
	var infA, infB, feas int64
	for c := 0; c < k; c++ {
		if cut[c] == 2 {
			feas += min(inA[c], inB[c])
		} else {
			infA += inA[c]
			infB += inB[c]
		}
	}
	return best, common + feas + min(infA, infB)
}

// isTour reports whether edges form one cycle through all n cities.
func isTour(n int, edges map[[2]int32]bool) bool {
	if len(edges) != n {
		return false
	}
	adj := make([][]int32, n)
	for e := range edges {
		adj[e[0]] = append(adj[e[0]], e[1])
		adj[e[1]] = append(adj[e[1]], e[0])
	}
	for _, l := range adj {
		if len(l) != 2 {
			return false
		}
	}
	prev, x, steps := int32(-1), int32(0), 0
	for {
		next := adj[x][0]
		if next == prev {
			next = adj[x][1]
		}
		prev, x = x, next
		steps++
		if x == 0 {
			return steps == n
		}
	}
}

// bruteUnion is the shortest tour whose edges are all parents' edges.
func bruteUnion(in *problem.Instance, a, b []int32) int64 {
	n := len(a)
	adj := make([][]int32, n)
	for e := range edgeSet(a, b) {
		adj[e[0]] = append(adj[e[0]], e[1])
		adj[e[1]] = append(adj[e[1]], e[0])
	}
	best := int64(math.MaxInt64)
	seen := make([]bool, n)
	var rec func(x int32, depth int, l int64)
	rec = func(x int32, depth int, l int64) {
		if depth == n {
			for _, y := range adj[x] {
				if y == 0 {
					best = min(best, l+in.Dist(int(x), 0))
				}
			}
			return
		}
		for _, y := range adj[x] {
			if !seen[y] {
				seen[y] = true
				rec(y, depth+1, l+in.Dist(int(x), int(y)))
				seen[y] = false
			}
		}
	}
	seen[0] = true
	rec(0, 1, 0)
	return best
}

func BenchmarkCross10k(b *testing.B) {
	in, p, q := optimaPair(b, 10000, 10, 500)
	lp, lq := length(in, p), length(in, q)
	child := make([]int32, in.N)
	for _, v := range variants {
		b.Run(v.name, func(b *testing.B) {
			g := v.g()
			var st Stats
			for i := 0; i < b.N; i++ {
				st = g.Cross(in, p, q, lp, lq, child)
			}
			b.ReportMetric(float64(st.Gain), "gain")
			b.ReportMetric(float64(st.Feasible), "feasible")
		})
	}
}
