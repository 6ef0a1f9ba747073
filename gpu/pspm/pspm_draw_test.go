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
	p.Extra = map[string]string{"nnfrom": "1"} // T0*0.99^st <= 1 from st = 917
	if d, _ = drawOf(in, p, steps); d.fromStep != 917 {
		t.Fatalf("nnfrom 1: from step %d, want 917", d.fromStep)
	}
	p.Extra = map[string]string{"nnfrom": "0.01"} // below Tend: never
	if d, _ = drawOf(in, p, steps); d.fromStep != int64(steps) || d.lists != nil {
		t.Fatalf("nnfrom below Tend: from step %d of %d, lists %d", d.fromStep, steps, len(d.lists))
	}
	p.Extra = map[string]string{"draw": "uniform"}
	if d, _ = drawOf(in, p, steps); d.fromStep != int64(steps) || d.lists != nil {
		t.Fatalf("uniform: from step %d of %d, lists %d", d.fromStep, steps, len(d.lists))
	}
	p.Extra = map[string]string{"draw": "nn", "nnk": "5"}
	if d, _ = drawOf(in, p, steps); d.fromStep != 0 || d.k != 5 || len(d.lists) != in.N*5 || d.mix != 0 {
		t.Fatalf("nn: from step %d, k %d, %d entries, mix %x", d.fromStep, d.k, len(d.lists), d.mix)
	}
	p.Extra = map[string]string{"draw": "mixed", "nnfrom": "1"}
	if d, _ = drawOf(in, p, steps); d.fromStep != 917 || d.mix != pspmMixLanes {
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
		extra       map[string]string
		want        string // in the error; "" when accepted
		wantUniform bool   // accepted, drawing uniformly throughout
	}{
		{map[string]string{"draw": "near"}, "draw near", false},
		{map[string]string{"nnk": "1"}, "nnk", false},
		{map[string]string{"nnk": "33"}, "nnk", false},
		{map[string]string{"nnk": "x"}, "nnk", false},
		{map[string]string{"nnfrom": "-1"}, "nnfrom", false},
		{map[string]string{"nnfrom": "hot"}, "nnfrom", false},
		{map[string]string{"draw": "nn"}, "", false},
		{map[string]string{"draw": "nn", "nnk": "32"}, "", false},
		{map[string]string{"draw": "auto", "nnfrom": "0"}, "", true},
	} {
		p.Extra = c.extra
		d, err := drawOf(in, p, steps)
		name := fmt.Sprint(c.extra)
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
	p.Extra = nil
	if d, err := drawOf(big, p, steps); err != nil || d.lists != nil {
		t.Errorf("auto on 65,535 cities: %d list entries, err %v; want uniform", len(d.lists), err)
	}
	p.Extra = map[string]string{"draw": "nn"}
	if _, err := drawOf(big, p, steps); err == nil || !strings.Contains(err.Error(), "65,535") {
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
		algo  string
		extra map[string]string
		want  string // "": accepted
	}{
		{AlgoPSPM, map[string]string{"draw": "nn", "nnk": "32", "nnfrom": "0"}, ""},
		{AlgoPSPM, map[string]string{"draw": "near"}, "--opt draw near is unknown: want one of auto|uniform|nn|mixed"},
		{AlgoSSPM, map[string]string{"draw": "nn"}, "--opt draw is unknown"},
		{AlgoPSSM, map[string]string{"nnk": "4"}, "--opt nnk is unknown"},
		{AlgoPSPM, map[string]string{"nnk": "1"}, "2..32"},
		{AlgoPSPM, map[string]string{"nnk": "eight"}, "--opt nnk eight is not an integer: want 2..32"},
		{AlgoPSPM, map[string]string{"nnfrom": "-1"}, "out of range: want >= 0"},
		{AlgoPSPM, map[string]string{"nnfrom": "+Inf"}, "out of range: want >= 0"},
		{AlgoPSPM, map[string]string{"nnfrom": "warm"}, "--opt nnfrom warm is not a number: want >= 0"},
		{AlgoPSPM, map[string]string{"lanes": "16"}, "--opt lanes"},
		{AlgoPSPM, map[string]string{"select": "first"}, "--opt select"},
	} {
		e, err := solver.Lookup(c.algo, solver.BackendGPU)
		if err != nil {
			t.Fatal(err)
		}
		err = solver.Validate(e, in, solver.Params{Extra: c.extra})
		if c.want == "" {
			if err != nil {
				t.Errorf("%s %v: %v", c.algo, c.extra, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s %v: err %v, want %q", c.algo, c.extra, err, c.want)
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
		algo  string
		n     int
		extra map[string]string
		want  int
	}{
		{AlgoPSPM, 99, nil, 8}, {AlgoPSPM, 100, nil, 16}, {AlgoPSPM, 493, nil, 16}, {AlgoPSPM, 500, nil, 8},
		{AlgoPSPM, 13509, nil, 8}, {AlgoPSSM, 200, nil, 8}, {AlgoSSPM, 200, nil, 8}, {AlgoPSPM, 200, map[string]string{"nnk": "8"}, 8},
	} {
		in := pointsInstance(c.n, solver.Euc2D, 1000, 5)
		cfg, err := PspmSpecs[c.algo].Parse(in, solver.Params{Extra: c.extra})
		if err != nil {
			t.Fatal(err)
		}
		if cfg.NNK != c.want || (c.extra == nil && pspmDefaultNNK(c.algo, c.n) != c.want) {
			t.Errorf("%s on %d cities %v: nnk %d, planner's %d; want %d", c.algo, c.n, c.extra, cfg.NNK, pspmDefaultNNK(c.algo, c.n), c.want)
		}
	}
	for _, c := range []struct {
		algo  string
		n     int
		extra map[string]string
		want  int
	}{
		{AlgoPSPM, 99, nil, 0}, {AlgoPSPM, 100, nil, 32}, {AlgoPSPM, 493, nil, 32}, {AlgoPSPM, 500, nil, 0},
		{AlgoPSSM, 200, nil, 0}, {AlgoPSPM, 200, map[string]string{"island": "0"}, 0},
	} {
		cfg, err := PspmSpecs[c.algo].Parse(pointsInstance(c.n, solver.Euc2D, 1000, 5), solver.Params{Extra: c.extra})
		if err != nil {
			t.Fatal(err)
		}
		if cfg.Island != c.want {
			t.Errorf("%s on %d cities %v: island %d, want %d", c.algo, c.n, c.extra, cfg.Island, c.want)
		}
	}
	if got, want := pspmDefaultNbrBytes(493, 16), 2*493*16; got != want {
		t.Errorf("lists of 493 × 16: %d bytes, want %d", got, want)
	}
	if pspmDefaultNbrBytes(12, 16) != 0 {
		t.Error("16 nearest of 12 cities: lists sized, want none")
	}
}
