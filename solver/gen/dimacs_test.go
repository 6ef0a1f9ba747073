package gen_test

import (
	"context"
	"hash/fnv"
	"math"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	_ "github.com/tsplab/tsplab/solver/cpu"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/problem"
)

// coordSum hashes the coordinates in order, so a single changed city
// changes it.
func coordSum(in *problem.Instance) uint64 {
	h := fnv.New64a()
	var b [16]byte
	for i := range in.N {
		x, y := math.Float64bits(in.X[i]), math.Float64bits(in.Y[i])
		for k := range 8 {
			b[k], b[8+k] = byte(x>>(8*k)), byte(y>>(8*k))
		}
		h.Write(b[:])
	}
	return h.Sum64()
}

// TestDIMACSCoordinates pins cities of the challenge's E1k.0 and C1k.0 and
// a checksum of all their coordinates.
func TestDIMACSCoordinates(t *testing.T) {
	cases := []struct {
		name, kind  string
		first, last [2]float64
		sum         uint64
	}{
		{"E1k.0", "portgen", [2]float64{140237, 801141}, [2]float64{47594, 950873}, 0xcea7f475375f3a71},
		{"C1k.0", "portcgen", [2]float64{877915, 39773}, [2]float64{835391, 90416}, 0x32c7de32c61f43bd},
	}
	for _, c := range cases {
		in, err := gen.Generate(c.kind, 1000, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if in.Name != c.name || !strings.Contains(in.Comment, c.kind+" N=1000, seed=1000") {
			t.Errorf("%s: name %q comment %q", c.name, in.Name, in.Comment)
		}
		if got := [2]float64{in.X[0], in.Y[0]}; got != c.first {
			t.Errorf("%s: city 1 at %v, want %v", c.name, got, c.first)
		}
		if got := [2]float64{in.X[999], in.Y[999]}; got != c.last {
			t.Errorf("%s: city 1000 at %v, want %v", c.name, got, c.last)
		}
		if got := coordSum(in); got != c.sum {
			t.Errorf("%s: coordinate checksum %#x, want %#x", c.name, got, c.sum)
		}
	}
}

// TestDIMACSOptima: the CPU auto engine, on a fixed budget of kicks and a
// fixed seed, reaches exactly the challenge's proved optimum of E1k.0 and
// C1k.0 (never below it), and the Held–Karp bound does not exceed it: the
// generated coordinates are the challenge's.
func TestDIMACSOptima(t *testing.T) {
	if testing.Short() || raceOn {
		t.Skip("solves two 1000-city instances: a minute, many under the race detector")
	}
	for _, name := range []string{"E1k.0", "C1k.0"} {
		d, ok := gen.ParseDIMACS(name)
		if !ok || !d.Optimal {
			t.Fatalf("%s: not a known optimum: %+v", name, d)
		}
		in, err := d.Generate()
		if err != nil {
			t.Fatal(err)
		}
		if in.Optimum != d.BestKnown {
			t.Fatalf("%s: optimum %d attached, want %d", name, in.Optimum, d.BestKnown)
		}
		e, err := solver.Lookup("auto", solver.BackendCPU)
		if err != nil {
			t.Fatal(err)
		}
		// seed 2: on E1k.0, seeds 1 and 3 stop in the same local optimum,
		// 0.12 % above, that 100,000 kicks do not leave
		p := solver.Params{Seed: 2, Workers: 2, Extra: map[string]string{"kicks": "30000"}, Target: d.BestKnown}
		res, err := e.Solve(context.Background(), in, p, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got := problem.TourLength(in, res.Tour); got != res.Length || got != d.BestKnown {
			t.Errorf("%s: tour of %d (reported %d), optimum %d", name, got, res.Length, d.BestKnown)
		}
		t.Logf("%s: auto %d (%v)", name, res.Length, res.Elapsed)
		b, err := bound.Compute(context.Background(), in, bound.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if b.Bound > d.BestKnown || float64(b.Bound) < 0.9*float64(d.BestKnown) {
			t.Errorf("%s: Held–Karp bound %d against optimum %d", name, b.Bound, d.BestKnown)
		}
	}
}

// TestParseDIMACS: names map to the challenge's generator, size and seed
// and back.
func TestParseDIMACS(t *testing.T) {
	cases := []struct {
		name, kind string
		n          int
		seed       int64
	}{
		{"E1M.0", "portgen", 1000000, 1000000},
		{"E10M.0", "portgen", 10000000, 10000000},
		{"C100k.1", "portcgen", 100000, 1000001},
		{"E3k.2", "portgen", 3162, 31622},
		{"C31k.9", "portcgen", 31623, 316239},
	}
	for _, c := range cases {
		d, ok := gen.ParseDIMACS(c.name)
		if !ok || d.Kind != c.kind || d.N != c.n || d.Seed != c.seed {
			t.Errorf("%s: got %+v, %v", c.name, d, ok)
		}
	}
	for _, bad := range []string{"", "E1k", "E2k.0", "X1k.0", "E1k.10", "E1k.-1", "E1k.a", "e1k.0"} {
		if d, ok := gen.ParseDIMACS(bad); ok {
			t.Errorf("%q parsed as %+v", bad, d)
		}
	}
	for _, c := range []struct {
		kind string
		n    int
		seed uint64
		want string
	}{{"portgen", 1000, 1000, "E1k.0"}, {"portcgen", 1000, 10003, "C1k.3"}, {"portgen", 1000, 10000, "portgen-1000-10000"}, {"portcgen", 500, 500, "portcgen-500-500"}} {
		in, err := gen.Generate(c.kind, c.n, c.seed)
		if err != nil || in.Name != c.want {
			t.Errorf("%s %d %d: name %q (%v), want %q", c.kind, c.n, c.seed, in.Name, err, c.want)
		}
	}
}
