package pspm

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// drawOf is pspmDrawOf of pspm's options read from p.
func drawOf(in *solver.Instance, p solver.Anneal, steps int) (pspmDraw, error) {
	c, err := PspmSpecs[AlgoPSPM].Parse(in, p.Params)
	if err != nil {
		return pspmDraw{}, err
	}
	return pspmDrawOf(in, c, p, steps)
}

// drawWith is pspmDrawOf of pspm's default config on in changed by set
// (typed settings, no option text).
func drawWith(in *solver.Instance, p solver.Anneal, steps int, set func(*pspmConfig)) (pspmDraw, error) {
	c, err := PspmSpecs[AlgoPSPM].Parse(in, solver.Params{})
	if err != nil {
		return pspmDraw{}, err
	}
	set(&c)
	return pspmDrawOf(in, c, p, steps)
}

// opts returns Params with the settings, "name=value" as --opt takes
// them: the option texts the binding layer reads.
func opts(settings ...string) solver.Params {
	var p solver.Params
	for _, s := range settings {
		if err := p.Set(s); err != nil {
			panic(err)
		}
	}
	return p
}

// pointsInstance is n EUC_2D cities uniform in a square of side scale.
func pointsInstance(n int, _ solver.Metric, scale float64, seed uint64) *solver.Instance {
	rng := rand.New(rand.NewPCG(seed, 7))
	x, y := make([]float64, n), make([]float64, n)
	for i := range x {
		x[i] = math.Floor(rng.Float64() * scale)
		y[i] = math.Floor(rng.Float64() * scale)
	}
	return solver.NewCoordInstance(fmt.Sprintf("rand%d", n), solver.Euc2D, x, y, nil)
}

// TestPSPMDrawAutoTemperature: the default draw switches to the neighbour
// lists at the first temperature step at or below pspmNNFromScale times
// the mean distance from a city to its k-th nearest (or nnfrom when
// given), never with draw uniform, and from the start with draw nn.
func TestPSPMDrawAutoTemperature(t *testing.T) {
	in := pointsInstance(400, solver.Euc2D, 10000, 9)
	p := solver.Anneal{T0: 10000, TEnd: 0.1, Alpha: 0.99, Sweeps: 10, K: 100}
	steps := solver.ScheduleSteps(p)
	k := pspmDefaultNNK(AlgoPSPM, in.N) // 16 on 400 cities
	nb := neighbor.Nearest(in, k)
	mean := 0.0
	for i := 0; i < in.N; i++ {
		mean += float64(in.Dist(i, int(nb.Of(i)[k-1])))
	}
	mean *= pspmNNFromScale / float64(in.N)
	want := 0
	for p.T0*math.Pow(p.Alpha, float64(want)) > mean {
		want++
	}
	d, err := drawOf(in, p, steps)
	if err != nil {
		t.Fatal(err)
	}
	if d.fromStep != int64(want) || d.k != k || len(d.lists) != in.N*k || math.Abs(d.from-mean) > 1e-9 || d.mix != pspmMixLanes {
		t.Fatalf("auto: from step %d (T %.4g), k %d, %d list entries; want step %d (T %.4g), %d, %d", d.fromStep, d.from, d.k, len(d.lists), want, mean, k, in.N*k)
	}
	for i := 0; i < in.N; i++ {
		for j, v := range nb.Of(i) {
			if int(d.lists[i*k+j]) != int(v) {
				t.Fatalf("list of %d, entry %d: %d, want %d", i, j, d.lists[i*k+j], v)
			}
		}
	}
	if d, _ = drawWith(in, p, steps, func(c *pspmConfig) { c.NNFrom = new(1.0) }); d.fromStep != 917 { // T0*0.99^st <= 1 from st = 917
		t.Fatalf("nnfrom 1: from step %d, want 917", d.fromStep)
	}
	if d, _ = drawWith(in, p, steps, func(c *pspmConfig) { c.NNFrom = new(0.01) }); d.fromStep != int64(steps) || d.lists != nil {
		t.Fatalf("nnfrom below Tend: from step %d of %d, lists %d", d.fromStep, steps, len(d.lists))
	}
	if d, _ = drawWith(in, p, steps, func(c *pspmConfig) { c.Draw = drawUniform }); d.fromStep != int64(steps) || d.lists != nil {
		t.Fatalf("uniform: from step %d of %d, lists %d", d.fromStep, steps, len(d.lists))
	}
	if d, _ = drawWith(in, p, steps, func(c *pspmConfig) { c.Draw, c.NNK = drawNN, 5 }); d.fromStep != 0 || d.k != 5 || len(d.lists) != in.N*5 || d.mix != 0 {
		t.Fatalf("nn: from step %d, k %d, %d entries, mix %x", d.fromStep, d.k, len(d.lists), d.mix)
	}
	if d, _ = drawWith(in, p, steps, func(c *pspmConfig) { c.Draw, c.NNFrom = drawMixed, new(1.0) }); d.fromStep != 917 || d.mix != pspmMixLanes {
		t.Fatalf("mixed from T 1: from step %d, mix %x", d.fromStep, d.mix)
	}
}

// TestPSPMDrawOfRefuses checks the draw options' host-side reading (no
// device needed): a value the kernels cannot take is refused with a
// message naming the option, nn or mixed beyond 16-bit lists is refused,
// and auto there draws uniformly.
func TestPSPMDrawOfRefuses(t *testing.T) {
	in := pointsInstance(300, solver.Euc2D, 10000, 3)
	p := solver.Anneal{T0: 10000, TEnd: 0.1, Alpha: 0.99, Sweeps: 10, K: 100}
	steps := solver.ScheduleSteps(p)
	for _, c := range []struct {
		settings    []string
		want        string // in the error; "" when accepted
		wantUniform bool   // accepted, drawing uniformly throughout
	}{
		{[]string{"draw=near"}, "draw near", false},
		{[]string{"nnk=1"}, "nnk", false},
		{[]string{"nnk=33"}, "nnk", false},
		{[]string{"nnk=x"}, "nnk", false},
		{[]string{"nnfrom=-1"}, "nnfrom", false},
		{[]string{"nnfrom=hot"}, "nnfrom", false},
		{[]string{"draw=nn"}, "", false},
		{[]string{"draw=nn", "nnk=32"}, "", false},
		{[]string{"draw=auto", "nnfrom=0"}, "", true},
	} {
		p.Params = opts(c.settings...)
		d, err := drawOf(in, p, steps)
		name := fmt.Sprint(c.settings)
		if c.want != "" {
			if err == nil || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("%s: err %v, want one line with %q", name, err, c.want)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if uniform := d.lists == nil && d.fromStep == int64(steps); uniform != c.wantUniform {
			t.Errorf("%s: uniform throughout %v (from step %d of %d, %d list entries), want %v", name, uniform, d.fromStep, steps, len(d.lists), c.wantUniform)
		}
	}
	// Fewer than 65,535 cities only: auto draws uniformly above.
	big := pointsInstance(65535, solver.Euc2D, 1e6, 4)
	p.Params = solver.Params{}
	if d, err := drawOf(big, p, steps); err != nil || d.lists != nil {
		t.Errorf("auto on 65,535 cities: %d list entries, err %v; want uniform", len(d.lists), err)
	}
	if _, err := drawWith(big, p, steps, func(c *pspmConfig) { c.Draw = drawNN }); err == nil || !strings.Contains(err.Error(), "65,535") {
		t.Errorf("nn on 65,535 cities: err %v", err)
	}
}

// TestPSPMOptionsValidate: the GPU annealers' declared options are checked
// before a run, each bad value refused with the option's range, and an
// option one of them lacks (blocks on sspm) or that no longer exists
// (lanes, select) is refused.
func TestPSPMOptionsValidate(t *testing.T) {
	in := pointsInstance(200, solver.Euc2D, 1000, 5)
	for _, c := range []struct {
		algo     string
		settings []string
		want     string // "": accepted
	}{
		{AlgoPSPM, []string{"draw=nn", "nnk=32", "nnfrom=0"}, ""},
		{AlgoPSPM, []string{"draw=near"}, "--opt draw near is unknown: want one of auto|uniform|nn|mixed"},
		{AlgoSSPM, []string{"draw=nn"}, "--opt draw is unknown"},
		{AlgoPSSM, []string{"nnk=4"}, "--opt nnk is unknown"},
		{AlgoPSPM, []string{"nnk=1"}, "2..32"},
		{AlgoPSPM, []string{"nnk=eight"}, "--opt nnk eight is not an integer: want 2..32"},
		{AlgoPSPM, []string{"nnfrom=-1"}, "out of range: want >= 0"},
		{AlgoPSPM, []string{"nnfrom=+Inf"}, "out of range: want >= 0"},
		{AlgoPSPM, []string{"nnfrom=warm"}, "--opt nnfrom warm is not a number: want >= 0"},
		{AlgoPSPM, []string{"lanes=16"}, "--opt lanes"},
		{AlgoPSPM, []string{"select=first"}, "--opt select"},
	} {
		e, err := solver.Lookup(c.algo, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		err = solver.Validate(e, in, opts(c.settings...))
		if c.want == "" {
			if err != nil {
				t.Errorf("%s %v: %v", c.algo, c.settings, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: err %v, want %q", c.algo, c.settings, err, c.want)
		}
	}
	set := solver.OptionsFor(AlgoPSPM, solver.BackendGPU)
	for _, name := range []string{"draw", "nnk", "nnfrom"} {
		if o, ok := set.Lookup(name); !ok || !o.Experimental {
			t.Errorf("pspm's %s: declared %v, experimental %v; want an experimental option", name, ok, o.Experimental)
		}
	}
	if _, ok := solver.OptionsFor(AlgoSSPM, solver.BackendGPU).Lookup("blocks"); ok {
		t.Error("sspm declares blocks (it runs one search)")
	}
}

// TestPSPMNNKBySize: PSPM's draw takes 16 nearest cities by default from
// 100 to 499 cities and 8 elsewhere, the run reads the same default as the
// planner sizes its lists for, and a given nnk wins; islands of 32 searches
// likewise, else the global exchange.
func TestPSPMNNKBySize(t *testing.T) {
	for _, c := range []struct {
		algo string
		n    int
		set  []string
		want int
	}{
		{AlgoPSPM, 99, nil, 8}, {AlgoPSPM, 100, nil, 16}, {AlgoPSPM, 493, nil, 16}, {AlgoPSPM, 500, nil, 8},
		{AlgoPSPM, 13509, nil, 8}, {AlgoPSSM, 200, nil, 8}, {AlgoSSPM, 200, nil, 8}, {AlgoPSPM, 200, []string{"nnk=8"}, 8},
	} {
		in := pointsInstance(c.n, solver.Euc2D, 1000, 5)
		cfg, err := PspmSpecs[c.algo].Parse(in, opts(c.set...))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.NNK != c.want || (c.set == nil && pspmDefaultNNK(c.algo, c.n) != c.want) {
			t.Errorf("%s on %d cities %v: nnk %d, planner's %d; want %d", c.algo, c.n, c.set, cfg.NNK, pspmDefaultNNK(c.algo, c.n), c.want)
		}
	}
	for _, c := range []struct {
		algo string
		n    int
		set  []string
		want int
	}{
		{AlgoPSPM, 99, nil, 0}, {AlgoPSPM, 100, nil, 32}, {AlgoPSPM, 493, nil, 32}, {AlgoPSPM, 500, nil, 0},
		{AlgoPSSM, 200, nil, 0}, {AlgoPSPM, 200, []string{"island=0"}, 0},
	} {
		cfg, err := PspmSpecs[c.algo].Parse(pointsInstance(c.n, solver.Euc2D, 1000, 5), opts(c.set...))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Island != c.want {
			t.Errorf("%s on %d cities %v: island %d, want %d", c.algo, c.n, c.set, cfg.Island, c.want)
		}
	}
	if got, want := pspmDefaultNbrBytes(493, 16), 2*493*16; got != want {
		t.Errorf("lists of 493 × 16: %d bytes, want %d", got, want)
	}
	if pspmDefaultNbrBytes(12, 16) != 0 {
		t.Error("16 nearest of 12 cities: lists sized, want none")
	}
}
