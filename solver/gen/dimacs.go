package gen

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver/problem"
)

// The DIMACS TSP Challenge's generators draw modulo prandMax and place cities in [0, maxCoord).
const (
	prandMax      = 1_000_000_000
	maxCoord      = 1_000_000
	clusterFactor = 100 // portcgen: one cluster centre per this many cities
)

// knuthRand is Knuth's subtractive generator seeded as the challenge's portgen and portcgen seed it.
type knuthRand struct {
	arr  [55]int64
	a, b int
}

// newKnuthRand seeds the table by Knuth's recurrence, discarding 165 draws as the challenge does.
func newKnuthRand(seed int64) *knuthRand {
	r := &knuthRand{}
	last, next := seed, int64(1)
	r.arr[0] = seed
	for i := 1; i < 55; i++ {
		ii := (21 * i) % 55
		r.arr[ii] = next
		next = last - next
		if next < 0 {
			next += prandMax
		}
		last = r.arr[ii]
	}
	r.a, r.b = 0, 24
	for range 165 {
		r.next()
	}
	return r
}

// next returns the next draw in [0, prandMax).
func (r *knuthRand) next() int64 {
	if r.a == 0 {
		r.a = 54
	} else {
		r.a--
	}
	if r.b == 0 {
		r.b = 54
	} else {
		r.b--
	}
	t := r.arr[r.a] - r.arr[r.b]
	if t < 0 {
		t += prandMax
	}
	r.arr[r.a] = t
	return t
}

// polar draws normal deviates by the polar method (Knuth 3.4.1 P), the second of each pair first, as portcgen does.
type polar struct {
	r        *knuthRand
	have     bool
	nextPair float64
}

func (p *polar) normal() float64 {
	if p.have {
		p.have = false
		return p.nextPair
	}
	p.have = true
	var v1, v2, s float64
	for {
		v1 = float64(2*p.r.next())/prandMax - 1.0
		v2 = float64(2*p.r.next())/prandMax - 1.0
		// The explicit conversions keep the products rounded apart, as the C code computes them.
		s = float64(v1*v1) + float64(v2*v2)
		if s < 1.0 {
			break
		}
	}
	t := math.Sqrt(-2.0 * math.Log(s) / s)
	p.nextPair = v1 * t
	return v2 * t
}

// portgen returns the challenge's uniform instance of n integer cities.
func portgen(n int, seed int64) (*problem.Instance, string) {
	r := newKnuthRand(seed)
	const factor = prandMax / maxCoord
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i] = float64(r.next() / factor)
		y[i] = float64(r.next() / factor)
	}
	in := problem.NewCoordInstance(dimacsName("portgen", n, seed), problem.Euc2D, x, y, nil)
	return in, fmt.Sprintf("DIMACS TSP Challenge portgen N=%d, seed=%d", n, seed)
}

// portcgen returns the challenge's clustered instance: n/100 uniform centres, each city a truncated normal offset from one.
func portcgen(n int, seed int64) (*problem.Instance, string) {
	r := newKnuthRand(seed)
	nbase := n / clusterFactor
	scale := 1.0 / math.Sqrt(float64(n))
	// Centre 0 is unused and centre 1 stays at the origin when n < 100, as in the challenge.
	cx, cy := make([]int64, nbase+2), make([]int64, nbase+2)
	for i := 1; i <= nbase; i++ {
		cx[i] = int64(float64(r.next()) / prandMax * maxCoord)
		cy[i] = int64(float64(r.next()) / prandMax * maxCoord)
	}
	g := &polar{r: r}
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		c := int64(float64(r.next())/prandMax*float64(nbase)) + 1
		dx := int64(float64(g.normal()*scale) * maxCoord)
		dy := int64(float64(g.normal()*scale) * maxCoord)
		x[i] = float64(cx[c] + dx)
		y[i] = float64(cy[c] + dy)
	}
	in := problem.NewCoordInstance(dimacsName("portcgen", n, seed), problem.Euc2D, x, y, nil)
	return in, fmt.Sprintf("DIMACS TSP Challenge portcgen N=%d, seed=%d", n, seed)
}

// dimacsName is the challenge's name (E1k.0, C100k.1) when seed and n follow its rule, else "kind-N-seed".
func dimacsName(kind string, n int, seed int64) string {
	size, ok := dimacsSize(n)
	k := seed - 10*int64(n)
	if seed == int64(n) {
		k = 0
	}
	if !ok || k < 0 || k > 9 || (k == 0 && seed != int64(n)) {
		return fmt.Sprintf("%s-%d-%d", kind, n, seed)
	}
	prefix := "E"
	if kind == "portcgen" {
		prefix = "C"
	}
	return fmt.Sprintf("%s%s.%d", prefix, size, k)
}

// dimacsSizes are the challenge's instance sizes and their short names.
var dimacsSizes = []struct {
	n    int
	name string
}{
	{1000, "1k"}, {3162, "3k"}, {10000, "10k"}, {31623, "31k"}, {100000, "100k"},
	{316228, "316k"}, {1000000, "1M"}, {3162278, "3M"}, {10000000, "10M"},
}

func dimacsSize(n int) (string, bool) {
	for _, s := range dimacsSizes {
		if s.n == n {
			return s.name, true
		}
	}
	return "", false
}

// DIMACSInstance is one instance of the challenge's random testbed.
type DIMACSInstance struct {
	Name      string // E1M.0, C100k.1
	Kind      string // portgen or portcgen
	N         int
	Seed      int64
	BestKnown int64 // best known tour length, 0 when none is recorded
	Optimal   bool  // BestKnown is a proved optimum
}

// ParseDIMACS reads a challenge name: E or C, a size (1k .. 10M) and .k (0..9), with its best known length where known.
func ParseDIMACS(name string) (DIMACSInstance, bool) {
	var d DIMACSInstance
	if len(name) < 4 {
		return d, false
	}
	switch name[0] {
	case 'E':
		d.Kind = "portgen"
	case 'C':
		d.Kind = "portcgen"
	default:
		return d, false
	}
	size, suffix, ok := strings.Cut(name[1:], ".")
	if !ok {
		return d, false
	}
	k, err := strconv.Atoi(suffix)
	if err != nil || k < 0 || k > 9 || len(suffix) != 1 {
		return d, false
	}
	for _, s := range dimacsSizes {
		if s.name == size {
			d.N = s.n
		}
	}
	if d.N == 0 {
		return d, false
	}
	d.Name = name
	d.Seed = 10*int64(d.N) + int64(k)
	if k == 0 {
		d.Seed = int64(d.N)
	}
	if b, ok := dimacsBest[name]; ok {
		d.BestKnown, d.Optimal = b.length, b.optimal
	}
	return d, true
}

// Generate returns the instance named and commented with its generator and seed.
func (d DIMACSInstance) Generate() (*problem.Instance, error) {
	in, err := Generate(d.Kind, d.N, uint64(d.Seed))
	if err != nil {
		return nil, err
	}
	in.Name = d.Name
	return in, nil
}

// BestKnownSource says where the best known lengths of DIMACSBest come
// from.
const BestKnownSource = "DIMACS TSP Challenge: optima by Concorde (E1k, C1k) and best known tours " +
	"as tabulated in a public TSP evaluator's table of the challenge's instances, which agrees with " +
	"the challenge's optima for E1k.0 and with E1M.0 713,187,688 and E10M.0 2,253,040,346"

// dimacsBest are challenge instances' best known lengths; optimal marks proved optima.
var dimacsBest = map[string]struct {
	length  int64
	optimal bool
}{
	"E1k.0": {23360648, true}, "E1k.1": {22985695, true}, "E1k.2": {23023351, true},
	"E1k.3": {23149856, true}, "E1k.4": {22698717, true}, "E1k.5": {23192391, true},
	"E1k.6": {23349803, true}, "E1k.7": {22882343, true}, "E1k.8": {23027023, true},
	"E1k.9": {23356256, true}, "C1k.0": {11387430, true},
	"E10k.0": {71865826, false}, "E10k.1": {72031630, false}, "E10k.2": {71822483, false},
	"E31k.0": {127282138, false}, "E31k.1": {127452384, false},
	"E100k.0": {225784127, false}, "E100k.1": {225654639, false},
	"E316k.0": {401301206, false}, "E1M.0": {713187688, false},
	"E3M.0": {1267295473, false}, "E10M.0": {2253040346, false},
	"C10k.0": {33001034, false}, "C10k.1": {33186248, false}, "C10k.2": {33155424, false},
	"C31k.0": {59545390, false}, "C31k.1": {59293266, false},
	"C100k.0": {104617752, false}, "C100k.1": {105390777, false},
	"C316k.0": {186870839, false},
}

// dimacs generates the challenge's instance of kind with its proved optimum where known, a best known length in the COMMENT.
func dimacs(kind string, n int, seed uint64) (*problem.Instance, string, error) {
	if seed > math.MaxInt32 {
		return nil, "", fmt.Errorf("gen: %s takes a seed of at most %d, got %d", kind, math.MaxInt32, seed)
	}
	gen := portgen
	if kind == "portcgen" {
		gen = portcgen
	}
	in, what := gen(n, int64(seed))
	if d, ok := ParseDIMACS(in.Name); ok && d.BestKnown > 0 {
		if d.Optimal {
			in.Optimum, in.OptimumSource = d.BestKnown, "gen: DIMACS "+d.Name
		} else {
			what += fmt.Sprintf("; best known %d", d.BestKnown)
		}
	}
	return in, what, nil
}
