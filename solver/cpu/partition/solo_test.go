package partition

import (
	"cmp"
	"slices"
	"testing"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/enginetest"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// soloFixture is a solo search on n uniform cities from a random tour.
func soloFixture(t *testing.T, n int, seed uint64) (*solo, *tour.Dist) {
	t.Helper()
	in := uniformInstance(n, seed)
	d := tour.NewDist(in)
	rng := newRNG(seed, 1)
	t0 := rng.RandomTour(n)
	return newSolo(t0, d.Length(t0), neighbor.Quadrant(in, 8), d, runctl.NewRand(seed, 2), nil), d
}

// soloCheck fails unless s's tour is a permutation whose length is the
// one it keeps.
func soloCheck(t *testing.T, s *solo, d *tour.Dist, what string) []int32 {
	t.Helper()
	tr := s.l.Tour(nil)
	seen := make([]bool, len(tr))
	for _, c := range tr {
		if seen[c] {
			t.Fatalf("%s: city %d twice", what, c)
		}
		seen[c] = true
	}
	if got := d.Length(tr); got != s.length {
		t.Fatalf("%s: tour length %d, kept %d", what, got, s.length)
	}
	return tr
}

// TestSoloLKDescent: each LK step shortens the tour by exactly what it
// reports (the length recomputed after every step), a step that finds
// nothing leaves no flip, Mak–Morton flips take part, and the descent
// from a random tour ends far shorter.
func TestSoloLKDescent(t *testing.T) {
	s, d := soloFixture(t, 2000, 3)
	start := s.length
	for i := range int32(2000) {
		s.push(i)
	}
	steps, mm := 0, 0
	for t1 := s.pop(); t1 >= 0; t1 = s.pop() {
		before, mark := s.length, len(s.log)
		if s.improve(t1) {
			if s.length >= before {
				t.Fatalf("an LK step from %d went from %d to %d", t1, before, s.length)
			}
			steps++
			for _, m := range s.log[mark:] {
				s.push(m.a)
				s.push(m.b)
				s.push(m.c)
				s.push(m.d)
				// a Mak–Morton flip leaves t1's first edge in place
				if m.c == t1 && m.a != t1 && m.b != t1 {
					mm++
				}
			}
		} else if len(s.log) != mark {
			t.Fatalf("a step from %d that found nothing left %d flips", t1, len(s.log)-mark)
		}
		soloCheck(t, s, d, "after a step")
		s.log = s.log[:0]
	}
	if s.length > start/3 {
		t.Errorf("descent from %d ended at %d", start, s.length)
	}
	if mm == 0 {
		t.Errorf("no Mak–Morton flip in %d improving steps", steps)
	}
}

// TestSoloAlternate: on a tour left by plain LK steps, the alternate
// second level still finds improving steps, each one exactly as long as
// it reports.
func TestSoloAlternate(t *testing.T) {
	s, d := soloFixture(t, 1500, 11)
	for range 3 {
		for c := range int32(1500) {
			mark := len(s.log)
			s.removed.add(c, s.l.Next(c))
			s.best, s.bestAt = 0, 0
			if s.step(c, s.l.Next(c), s.dist(c, s.l.Next(c)), 0, mark) {
				s.undo(mark + s.bestAt)
				s.length -= s.best
			} else {
				s.undo(mark)
			}
			s.log = s.log[:0]
			s.added.drop(0)
			s.removed.drop(0)
		}
	}
	soloCheck(t, s, d, "after the plain steps")
	found := 0
	for c := range int32(1500) {
		t2 := s.l.Next(c)
		mark := len(s.log)
		s.removed.add(c, t2)
		s.best, s.bestAt = 0, 0
		before := s.l.Tour(nil)
		ok := s.alternate(c, t2, mark)
		s.added.drop(0)
		s.removed.drop(0)
		if ok {
			s.undo(mark + s.bestAt)
			s.length -= s.best
			found++
		} else if !sameCycle(s.l.Tour(nil), before) {
			t.Fatalf("an alternate step from %d that found nothing changed the tour", c)
		}
		soloCheck(t, s, d, "after an alternate step")
		s.log = s.log[:0]
	}
	if found == 0 {
		t.Fatal("the alternate step found nothing after the plain steps")
	}
}

// TestSoloHopeless: where hopeless says an alternate step's tour can
// gain nothing, the step from it at levels 2 and 3 indeed finds no flip
// and no gain; and hopeless says so for some gains and not for others.
func TestSoloHopeless(t *testing.T) {
	s, _ := soloFixture(t, 1500, 12)
	rng := newRNG(5, 0)
	hopeless, not := 0, 0
	for range 20000 {
		t1 := int32(rng.Intn(1500))
		last := s.l.Next(t1)
		G := int64(rng.Intn(int(3 * s.nearest(last))))
		s.best, s.bestAt = 0, 0
		if !s.hopeless(t1, last, G) {
			not++
			continue
		}
		hopeless++
		for level := 2; level <= 3; level++ {
			mark := len(s.log)
			if s.step(t1, last, G, level, mark) || len(s.log) != mark || s.best != 0 {
				t.Fatalf("hopeless from %d, %d with gain %d, but the step at level %d found %d (%d flips)", t1, last, G, level, s.best, len(s.log)-mark)
			}
		}
	}
	if hopeless == 0 || not == 0 {
		t.Errorf("hopeless %d times and not %d: both expected", hopeless, not)
	}
}

// TestSoloSymmetric: the candidate graph holds every list's edge both
// ways, once, without a city's own, each row nearest first.
func TestSoloSymmetric(t *testing.T) {
	in := uniformInstance(700, 5)
	nb := neighbor.Quadrant(in, 8)
	s, _ := soloFixture(t, 700, 5)
	has := func(a, b int32) bool {
		return slices.ContainsFunc(s.nb[s.at[a]:s.at[a+1]], func(e soloCand) bool { return e.c == b })
	}
	for a := range int32(700) {
		row := s.nb[s.at[a]:s.at[a+1]]
		for i, e := range row {
			if e.c == a || !has(e.c, a) || slices.ContainsFunc(row[i+1:], func(f soloCand) bool { return f.c == e.c }) {
				t.Fatalf("city %d: candidate %d (self, one way, or twice)", a, e.c)
			}
			if s.rowDist(a, e) != s.dist(a, e.c) || i > 0 && e.d < row[i-1].d {
				t.Fatalf("city %d: row not nearest first with its distances", a)
			}
		}
		for _, b := range nb.Of(int(a)) {
			if b != a && !has(a, b) {
				t.Fatalf("city %d: list's candidate %d missing", a, b)
			}
		}
	}
}

// TestSoloMode: by default one worker searches the whole tour by chained
// LK on a uniform instance of 50,000 cities, more workers its pieces by
// chained LK, and a clustered or smaller instance the pieces by the local
// search; lk, pieces and off override them.
func TestSoloMode(t *testing.T) {
	for _, c := range []struct {
		kind       string
		n          int
		workers    int
		mode, want SoloMode
		share      float64 // the aid's improver and its share; -1: none
	}{
		{"portgen", 50000, 1, SoloAuto, SoloLK, -1}, {"portcgen", 50000, 1, SoloAuto, SoloOff, -1},
		{"portgen", 50000, 2, SoloAuto, SoloPieces, -1}, {"portgen", 50000, 16, SoloAuto, SoloPieces, -1},
		{"portcgen", 50000, 4, SoloAuto, SoloOff, -1}, {"portgen", 3000, 1, SoloAuto, SoloOff, -1},
		{"portcgen", 3000, 4, SoloLK, SoloLK, -1}, {"portcgen", 3000, 1, SoloLK, SoloLK, -1},
		{"portgen", 3000, 4, SoloPieces, SoloPieces, -1}, {"portgen", 50000, 1, SoloOff, SoloOff, -1},
		// an improver that takes no stretch leaves one worker the whole
		// tour; one given a share takes the pieces' stretches
		{"portgen", 50000, 1, SoloAuto, SoloLK, 0}, {"portgen", 50000, 1, SoloAuto, SoloPieces, 1},
		// from besideSmallMaxN the improver takes a share, and the pieces
		// are searched beside it
		{"portgen", 250000, 2, SoloAuto, SoloPieces, -1}, {"portgen", 250000, 1, SoloAuto, SoloLK, -1},
		{"portgen", 250000, 16, SoloAuto, SoloPieces, 4}, {"portgen", 250000, 1, SoloAuto, SoloPieces, 0},
		{"portcgen", 250000, 2, SoloAuto, SoloOff, -1},
	} {
		in := enginetest.DIMACS(t, c.kind, c.n, uint64(c.n))
		env := &Env{In: in, Workers: c.workers, Opts: Options{Solo: c.mode}}
		if c.share >= 0 {
			env.Aid = solver.Aid{Paths: &enginetest.FakePaths{}, PathShare: c.share}
		}
		got := soloMode(env, neighbor.Nearest(in, 8), neighbor.Quadrant(in, 8), tour.NewDist(in))
		if got != c.want {
			t.Errorf("%s of %d cities on %d workers, mode %d, improver's share %v: %d, want %d", c.kind, c.n, c.workers, c.mode, c.share, got, c.want)
		}
	}
}

// TestSoloUndo: logged flips taken back leave the very tour they started
// from.
func TestSoloUndo(t *testing.T) {
	s, _ := soloFixture(t, 500, 5)
	rng := runctl.NewRand(9, 9)
	before := s.l.Tour(nil)
	for i := 0; i < 200; i++ {
		a := int32(rng.Intn(500))
		c := int32(rng.Intn(500))
		b, dd := s.l.Next(a), s.l.Next(c)
		if a == c || b == c || dd == a {
			continue
		}
		s.move(a, b, c, dd)
	}
	s.undo(0)
	if got := s.l.Tour(nil); !sameCycle(got, before) {
		t.Fatal("undoing the flips did not restore the tour")
	}
}

// sameCycle reports whether a and b, both from city 0, are one cycle
// (either way round).
func sameCycle(a, b []int32) bool {
	if slices.Equal(a, b) {
		return true
	}
	r := append([]int32{b[0]}, b[1:]...)
	slices.Reverse(r[1:])
	return slices.Equal(a, r)
}

// TestSoloKicks: after every kick the tour is a tour of the kept length,
// never longer than before it, and a kick stopped before its repair is
// taken back whole.
func TestSoloKicks(t *testing.T) {
	s, d := soloFixture(t, 3000, 7)
	for i := range int32(3000) {
		s.push(i)
	}
	s.drain(func() bool { return false })
	soloCheck(t, s, d, "after the descent")
	made := 0
	for i := 0; i < 300; i++ {
		before := s.length
		if s.kick(func() bool { return false }) {
			made++
		}
		if s.length > before {
			t.Fatalf("kick %d: %d after %d", i, s.length, before)
		}
		soloCheck(t, s, d, "after a kick")
	}
	if made < 100 {
		t.Fatalf("only %d of 300 kicks made", made)
	}
	// a kick with no repair that lengthened the tour is undone to the
	// very tour before it
	undone := 0
	for i := 0; i < 50; i++ {
		tr, before := s.l.Tour(nil), s.length
		if !s.kick(func() bool { return true }) {
			continue
		}
		if s.length == before {
			if !sameCycle(s.l.Tour(nil), tr) {
				t.Fatalf("kick %d: undone to a different tour", i)
			}
			undone++
		}
		soloCheck(t, s, d, "after a stopped kick")
	}
	if undone == 0 {
		t.Fatal("no stopped kick was undone")
	}
}

// TestSoloFixedEdge: on a path closed by a fixed edge, as a piece of the
// partition search is, the descent and kicks keep that edge, every kept
// length is the path's, and they gain.
func TestSoloFixedEdge(t *testing.T) {
	const m = 3000
	in := uniformInstance(m, 11)
	t0 := newRNG(11, 1).RandomTour(m)
	// the path runs from t0[0] to t0[m-1]; number it so that it is 0..m-1
	sub := in.WithCoords(in.Name, make([]float64, m), make([]float64, m), nil)
	for j, c := range t0 {
		sub.X[j], sub.Y[j] = in.X[c], in.Y[c]
		t0[j] = int32(j)
	}
	d := tour.NewDist(sub)
	s := newSolo(t0, d.Length(t0), neighbor.Quadrant(sub, 8), d, runctl.NewRand(11, 2), [][2]int{{m - 1, 0}})
	start := s.length
	keeps := func(what string) {
		t.Helper()
		soloCheck(t, s, d, what)
		if s.l.Next(0) != m-1 && s.l.Prev(0) != m-1 {
			t.Fatalf("%s: the fixed edge (%d, 0) is gone", what, m-1)
		}
	}
	for i := range int32(m) {
		s.push(i)
	}
	s.drain(func() bool { return false })
	keeps("after the descent")
	descent := s.length
	for i := 0; i < 300; i++ {
		s.log = s.log[:0]
		s.kick(func() bool { return false })
		keeps("after a kick")
	}
	if descent >= start || s.length >= descent {
		t.Fatalf("lengths %d, after the descent %d, after the kicks %d: want each shorter", start, descent, s.length)
	}
}

// TestSoloDist: the inline distance from coordinates is tour.Dist's, for
// EUC_2D and CEIL_2D alike (4,200 cities: no CEIL_2D matrix), with and
// without fixed edges, which count -soloFixed either way round.
func TestSoloDist(t *testing.T) {
	fixed := [][2]int{{0, 4199}, {64, 65}, {65, 3000}, {127, 128}}
	for _, m := range []solver.Metric{solver.Euc2D, solver.Ceil2D} {
		for _, fx := range [][][2]int{nil, fixed} {
			in := uniformInstance(4200, 13)
			in.Metric = m
			d := tour.NewDist(in)
			rng := newRNG(4, 4)
			s := newSolo(rng.RandomTour(4200), 0, neighbor.Quadrant(in, 8), d, rng, fx)
			if s.pt == nil {
				t.Fatalf("metric %v: no coordinates inline", m)
			}
			isFixed := func(a, b int32) bool {
				for _, e := range fx {
					if e == [2]int{int(a), int(b)} || e == [2]int{int(b), int(a)} {
						return true
					}
				}
				return false
			}
			pairs := [][2]int32{{0, 4199}, {4199, 0}, {65, 64}, {65, 3000}, {3000, 65}, {128, 127}, {64, 3000}, {0, 1}, {127, 64}}
			for range 20000 {
				pairs = append(pairs, [2]int32{int32(rng.Intn(4200)), int32(rng.Intn(4200))})
			}
			for _, p := range pairs {
				a, b := p[0], p[1]
				want := d.At(a, b)
				if isFixed(a, b) {
					want = -soloFixed
				}
				if got := s.dist(a, b); got != want {
					t.Fatalf("metric %v, fixed %v: dist(%d, %d) = %d, want %d", m, fx, a, b, got, want)
				}
			}
		}
	}
}

// TestSoloQuickBoruvka: the quick Borůvka start is a tour of every city,
// within a few percent of the greedy tour on uniform and clustered
// instances, and LK descends from it at least as far as from the greedy
// tour on the clustered one.
func TestSoloQuickBoruvka(t *testing.T) {
	for _, kind := range []string{"portgen", "portcgen"} {
		in := enginetest.DIMACS(t, kind, 20000, 20000)
		d := tour.NewDist(in)
		greedy := runctl.To32(construct.Greedy(in, neighbor.Nearest(in, 8)))
		descend := func(t0 []int32) int64 {
			s := newSolo(t0, d.Length(t0), neighbor.Quadrant(in, 8), d, newRNG(1, 1), nil)
			for _, c := range t0 {
				s.push(c)
			}
			s.drain(func() bool { return false })
			return s.length
		}
		pts, _ := points(d)
		qb := quickBoruvka(pts)
		if err := solver.ValidateTour(runctl.ToInt(qb), in.N); err != nil {
			t.Fatalf("%s: %v", kind, err)
		}
		lq, lg := d.Length(qb), d.Length(greedy)
		if lq > lg*110/100 {
			t.Errorf("%s: quick Borůvka %d, greedy %d", kind, lq, lg)
		}
		if dq, dg := descend(qb), descend(greedy); kind == "portcgen" && dq > dg {
			t.Errorf("%s: descent from quick Borůvka %d, from greedy %d", kind, dq, dg)
		}
	}
}

// TestQBByX: the quick Borůvka passes take the cities in order of x, ties
// (-0 and +0 among them) by id.
func TestQBByX(t *testing.T) {
	rng := newRNG(5, 5)
	xs := []float64{-3.5, -0.0, 0, 2, 1e300, -1e-300, 7, 2}
	pts := make([]point, 0, 1000)
	for range 1000 {
		pts = append(pts, point{xs[rng.Intn(len(xs))] + float64(rng.Intn(3))*0.25, 0})
	}
	got := qbByX(pts)
	want := make([]int32, 1000)
	for c := range want {
		want[c] = int32(c)
	}
	slices.SortStableFunc(want, func(a, b int32) int { return cmp.Compare(pts[a].x, pts[b].x) })
	if !slices.Equal(got, want) {
		t.Fatalf("order %v…, want %v…", got[:12], want[:12])
	}
}

// TestSoloQuickBoruvkaDegenerate: cities on one line still give a tour;
// cities all at one point give none (the greedy start stays).
func TestSoloQuickBoruvkaDegenerate(t *testing.T) {
	for _, flat := range []bool{false, true} {
		in := uniformInstance(5000, 17)
		for i := range in.Y {
			in.Y[i] = 0
			if flat {
				in.X[i] = 7
			}
		}
		d := tour.NewDist(in)
		pts, _ := points(d)
		qb := quickBoruvka(pts)
		if flat {
			if qb != nil {
				t.Fatal("a tour of cities all at one point")
			}
			continue
		}
		if err := solver.ValidateTour(runctl.ToInt(qb), in.N); err != nil {
			t.Fatal(err)
		}
	}
}

// TestSoloBareCities: a piece's cities whose only candidate lies across
// its closing edge have no candidates left; the descent and the kicks
// pass them by (a walk ends there) and still gain.
func TestSoloBareCities(t *testing.T) {
	const m = 3000
	in := uniformInstance(m, 13)
	d := tour.NewDist(in)
	nb := neighbor.Quadrant(in, 8)
	for i, c := range nb.List {
		if c == 0 || c == m-1 {
			nb.List[i] = -1
		}
	}
	for _, c := range []int{0, m - 1} {
		row := nb.List[c*nb.K : (c+1)*nb.K]
		for x := range row {
			row[x] = -1
		}
		row[0] = int32(m - 1 - c)
	}
	t0 := make([]int32, m)
	for j := range t0 {
		t0[j] = int32(j)
	}
	s := newSolo(t0, d.Length(t0), nb, d, runctl.NewRand(13, 2), [][2]int{{m - 1, 0}})
	for _, c := range []int32{0, m - 1} {
		if s.at[c] != s.at[c+1] {
			t.Fatalf("city %d keeps %d candidates, want none", c, s.at[c+1]-s.at[c])
		}
	}
	start := s.length
	for i := range int32(m) {
		s.push(i)
	}
	s.drain(func() bool { return false })
	for i := 0; i < 2000; i++ {
		s.log = s.log[:0]
		s.kick(func() bool { return false })
	}
	soloCheck(t, s, d, "after the kicks")
	if s.l.Next(0) != m-1 && s.l.Prev(0) != m-1 {
		t.Fatalf("the fixed edge (%d, 0) is gone", m-1)
	}
	if s.length >= start {
		t.Fatalf("length %d from %d: want shorter", s.length, start)
	}
}

// TestLKStart: chained LK starts from the quick Borůvka tour instead of
// a greedy one, but keeps a start tour already searched (a user's, or
// the GPU's descent).
func TestLKStart(t *testing.T) {
	in := uniformInstance(3000, 31)
	pr := newTestPartRunWith(t, in, 2, func(o *Options) { o.KicksPerCity, o.SliceMS = 1, 0 }, solver.Aid{}, nil)
	greedy := slices.Clone(pr.t)
	if got := lkStart(greedy, pr.d); slices.Equal(got, greedy) || solver.ValidateTour(runctl.ToInt(got), in.N) != nil {
		t.Fatalf("from the greedy tour (%d): the same tour or not a tour, want the quick Borůvka tour", pr.d.Length(greedy))
	}
	rng := newRNG(4, 0)
	for range 3 {
		pr.step(rng.Intn(in.N), 0)
	}
	searched := slices.Clone(pr.t)
	if got := lkStart(searched, pr.d); !slices.Equal(got, searched) || &got[0] == &searched[0] {
		t.Fatalf("a searched start (%d, greedy %d) replaced by a tour of %d, or not copied", pr.d.Length(searched), pr.d.Length(greedy), pr.d.Length(got))
	}
}

// TestSoloWalkByEqualKicks: the whole tour's kicks walk soloWalkLong
// steps once enough of them end as long as they began, and soloWalk
// again once few do.
func TestSoloWalkByEqualKicks(t *testing.T) {
	s, _ := soloFixture(t, 200, 41)
	if s.walkLen != soloWalk {
		t.Fatalf("a new search walks %d steps, want %d", s.walkLen, soloWalk)
	}
	// kicks returns after how many kicks all equal (or none) the walk
	// became the one they call for, -1 if not within k
	kicks := func(equal bool, k int) int {
		want := soloWalk
		if equal {
			want = soloWalkLong
		}
		for i := range k {
			s.equal = equal
			s.sizeWalk()
			if s.walkLen == want {
				return i + 1
			}
		}
		return -1
	}
	// every other kick equal: a share of about a half, over soloEqualShare
	for range 400 {
		s.equal = !s.equal
		s.sizeWalk()
	}
	if s.walkLen != soloWalkLong {
		t.Fatalf("half the kicks equal (share %.2f): walk %d, want %d", s.equals, s.walkLen, soloWalkLong)
	}
	if k := kicks(false, 1000); k < 0 || k > 200 {
		t.Fatalf("no kick equal: back to %d steps after %d kicks, want within 200", soloWalk, k)
	}
	if k := kicks(true, 1000); k < 0 || k > 100 {
		t.Fatalf("every kick equal: %d steps after %d kicks, want within 100", soloWalkLong, k)
	}
}
