package pspm

import (
	"fmt"
	"math"
	"strconv"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// pspmDraw is how a run draws its moves: uniform, or from fromStep beside one of c's k nearest cities on the lanes not in mix.
type pspmDraw struct {
	lists    []uint16
	k        int
	fromStep int64
	mix      uint32  // lanes that keep the uniform draw in the neighbour phase
	from     float64 // the temperature the neighbour phase starts below (0: from the start)
}

// pspmNNFromScale times the mean k-th nearest distance is the default nnfrom (docs/DECISIONS.md#pspm-nnfrom).
const pspmNNFromScale = 3

// pspmMixLanes are the lanes that stay uniform in draw auto and mixed.
const pspmMixLanes = 0xaaaaaaaa

// pspmDrawOf sets up the draw, nnk and nnfrom options' draw; where the lists do not fit (pspmNNUnfit) nn and mixed are refused.
func pspmDrawOf(in *solver.Instance, c pspmConfig, p solver.Anneal, steps int) (pspmDraw, error) {
	d := pspmDraw{fromStep: int64(steps)}
	mode, k := c.Draw, c.NNK
	switch mode {
	case drawAuto, drawMixed:
		d.mix = pspmMixLanes
	case drawUniform:
		return d, nil
	}
	// nn and mixed draw from the lists at once or from nnfrom; auto falls back to uniform
	asked := mode == drawNN || mode == drawMixed
	from := -1.0 // unset: the default below
	if c.NNFrom != nil {
		from = *c.NNFrom
	}
	if why := pspmNNUnfit(in.N, k); why != "" {
		if asked {
			return d, fmt.Errorf("pspm: draw %s %s", pspmDrawNames[mode], why)
		}
		return d, nil
	}
	nb := neighbor.Nearest(in, k)
	if nb.K != k {
		return d, nil
	}
	d.k = k
	d.lists = make([]uint16, (in.N*k+1)&^1)
	for i, v := range nb.List {
		d.lists[i] = uint16(v)
	}
	if from < 0 {
		if asked {
			d.fromStep = 0
			return d, nil
		}
		from = 0
		for i := 0; i < in.N; i++ {
			from += float64(in.Dist(i, int(nb.List[i*k+k-1])))
		}
		from *= pspmNNFromScale / float64(in.N)
	}
	d.from = from
	d.fromStep = pspmStepBelow(p, from, steps)
	if d.fromStep >= int64(steps) {
		d.lists, d.k, d.mix = nil, 0, 0
	}
	return d, nil
}

// pspmNNKDefault is the nnk option's declared default.
const pspmNNKDefault = 8

// pspmBySize gives PSPM from 100 to 499 cities a draw of 16 nearest cities (docs/DECISIONS.md#pspm-nnk) and islands of 32
// (docs/DECISIONS.md#pspm-island).
var pspmBySize = solver.SizeTable{{From: 100, To: 500, Set: map[string]string{"nnk": "16", "island": "32"}}}

// pspmDefaultNNK is engine's nnk default on n cities.
func pspmDefaultNNK(engine string, n int) int {
	if s, ok := PspmSpecs[engine]; !ok {
		return pspmNNKDefault
	} else if r, ok := s.Sizes().Row(n); ok {
		if k, err := strconv.Atoi(r.Set["nnk"]); err == nil {
			return k
		}
	}
	return pspmNNKDefault
}

// pspmDefaultNbrBytes is n cities' neighbour lists of k each, as the draw holds them.
func pspmDefaultNbrBytes(n, k int) int {
	if pspmNNUnfit(n, k) != "" {
		return 0
	}
	return 2 * ((n*k + 1) &^ 1)
}

// pspmNNUnfit says why the neighbour draw cannot run, or "".
func pspmNNUnfit(n, k int) string {
	switch {
	case n >= 65535:
		return fmt.Sprintf("needs fewer than 65,535 cities (%d)", n)
	case k >= n:
		return fmt.Sprintf("needs more than nnk = %d cities (%d)", k, n)
	}
	return ""
}

// pspmStepBelow is p's first step whose temperature is at most t.
func pspmStepBelow(p solver.Anneal, t float64, steps int) int64 {
	for st := 0; st < steps; st++ {
		if p.T0*math.Pow(p.Alpha, float64(st)) <= t {
			return int64(st)
		}
	}
	return int64(steps)
}
