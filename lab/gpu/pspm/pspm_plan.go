package pspm

import (
	"fmt"
	"strings"

	"github.com/tsplab/tsplab/gpu/device"
)

// What a PSPM layout keeps in shared memory (pspm.cu MODE bits).
const (
	pspmSharedLists  = 1 // the searches' city records
	pspmSharedCoords = 2 // the coordinates, shared by the block's searches
	pspmSharedNbr    = 4 // the neighbour lists of the nearest-city draw
)

// pspmLayout is one compiled pspm_anneal kernel.
type pspmLayout struct {
	metric int
	wide   bool // 32-bit city indices (n >= 65535), without the nearest-city draw
	warp   bool // a search per warp, else a search per block
	moves  int  // moves per lane of a warp search (TPB <= 32 moves)
	shared int  // pspmShared* bits
	tour   bool // a search per block whose warps share its tour (pspm.cu PspmTour)
	name   string
}

// kernel names layout l's relocation kernel, or its segment twin with seg.
func (l pspmLayout) kernel(seg bool) string {
	if seg && !l.tour {
		return l.name + "_seg"
	}
	return l.name
}

// kernels lists layout l's kernels.
func (l pspmLayout) kernels() []string {
	if l.tour {
		return []string{l.name}
	}
	return []string{l.name, l.kernel(true)}
}

// nn reports whether the layout has the nearest-city draw.
func (l pspmLayout) nn() bool { return !l.wide }

// pspmLayouts are the kernels pspm.cu stamps, in its order.
var pspmLayouts = func() []pspmLayout {
	var ls []pspmLayout
	for _, m := range []int{device.MetricEuc2D, device.MetricCeil2D, device.MetricAtt} {
		for _, k := range strings.Fields("u16_w7 u16_w3 u16_w1 u16_w0 u16_t32x27 u16_t32x23 u32_w0 u16_b3 u16_b1 u16_b0 u32_b0 u16_tour") {
			kind := k[4:]
			l := pspmLayout{metric: m, wide: k[:3] == "u32", warp: kind[0] == 'w' || kind[0] == 't', moves: 1 + strings.Count(kind, "x2"),
				tour: kind == "tour", shared: int(kind[len(kind)-1] - '0'), name: "pspm_anneal_" + device.MetricSuffix[m] + "_" + k}
			if l.tour {
				l.warp, l.shared = false, pspmSharedLists|pspmSharedCoords
			}
			ls = append(ls, l)
		}
	}
	return ls
}()

// pspmPlan is the launch configuration of one PSPM run.
type pspmPlan struct {
	layout   pspmLayout
	perBlock int // searches per CUDA block (warps per block; 1 for a block search)
	blockDim int
	shared   int // dynamic shared bytes
	perSM    int // resident searches per SM
	teams    int // warps of 32 moves sharing one search (the tour layout), else 1
}

// pspmOccupancy returns how many blocks of layout l's kernel an SM holds (0: none); the occupancy API, or a model in tests.
type pspmOccupancy func(l pspmLayout, blockDim, shared int) int

// blockBytes is one search's device memory.
func (pl pspmPlan) blockBytes(n int) int64 {
	b := int64(n)*8 + 16
	if pl.layout.shared&pspmSharedLists == 0 {
		b += int64(n) * pl.recordBytes()
	}
	return b
}

// recordBytes is a city record's size (PspmNode: e, rem, next, prev).
func (pl pspmPlan) recordBytes() int64 {
	if pl.layout.wide {
		return 16
	}
	return 12
}

func align16(x int) int { return (x + 15) &^ 15 }

// pspmSlotBytes is each search's shared slot (PSPM_SLOT_BYTES).
const pspmSlotBytes = 32 + 16*32

// pspmCandidates are the layouts running tpb moves per search on n cities of the metric.
func pspmCandidates(n, tpb, metric int, nbr bool) (warp, block []pspmLayout) {
	wide := n >= 65535
	for _, l := range pspmLayouts {
		if l.metric != metric || l.wide != wide || l.tour || (l.shared&pspmSharedNbr != 0 && !nbr) {
			continue
		}
		switch {
		case !l.warp:
			block = append(block, l)
		case tpb <= 32 && l.moves == 1, tpb > 32 && tpb <= 32*l.moves:
			warp = append(warp, l)
		}
	}
	return warp, block
}

// fit returns layout l's plan with spb searches a block, ok false when none fits.
func pspmFit(l pspmLayout, spb, n, tpb, nbrBytes int, occ pspmOccupancy) (pspmPlan, bool) {
	pl := pspmPlan{layout: l, perBlock: spb, blockDim: 32 * spb, teams: 1}
	if !l.warp {
		pl.blockDim = (tpb + 31) / 32 * 32
	}
	pl.shared = pspmSlotBytes * spb
	if l.shared&pspmSharedCoords != 0 {
		pl.shared += align16(n * 8)
	}
	if l.shared&pspmSharedLists != 0 {
		pl.shared += spb * align16(n*int(pl.recordBytes()))
	}
	if l.shared&pspmSharedNbr != 0 {
		pl.shared += align16(nbrBytes)
	}
	per := occ(l, pl.blockDim, pl.shared)
	pl.perSM = per * spb
	return pl, per > 0
}

// pspmPlanFor picks the layout for tpb moves per search on n cities (Lam et al. Eq. 3): a warp layout where one fits, then
// the most in shared memory that keeps enough searches resident.
func pspmPlanFor(n, tpb, metric, tb, sms, nbrBytes int, occ pspmOccupancy) (pspmPlan, error) {
	warp, block := pspmCandidates(n, tpb, metric, nbrBytes > 0)
	var plans []pspmPlan
	for _, l := range warp {
		for _, spb := range []int{1, 2, 4, 8} {
			if pl, ok := pspmFit(l, spb, n, tpb, nbrBytes, occ); ok {
				plans = append(plans, pl)
			}
		}
	}
	if len(plans) == 0 && tpb > 32 {
		for _, l := range block {
			if pl, ok := pspmFit(l, 1, n, tpb, nbrBytes, occ); ok {
				plans = append(plans, pl)
			}
		}
	}
	if len(plans) == 0 {
		return pspmPlan{}, fmt.Errorf("pspm: no launch configuration fits %d cities with %d threads per search", n, tpb)
	}
	best := 0
	for _, pl := range plans {
		best = max(best, pl.perSM)
	}
	enough := (85*best + 99) / 100
	if tb > 0 {
		enough = min(enough, (tb+sms-1)/sms)
	}
	var pick pspmPlan
	for _, sh := range []int{7, 3, 1, 0} {
		for _, pl := range plans {
			if pl.layout.shared == sh && pl.perSM >= enough && pl.perSM > pick.perSM {
				pick = pl
			}
		}
		if pick.perSM > 0 {
			break
		}
	}
	return pick, nil
}

// pspmDefaultFor returns the plan and searches of a run without blocks: a full wave, or one search per SM with its tour
// in shared memory where a wave's records spill (docs/DECISIONS.md#pspm-plan).
func pspmDefaultFor(n, tpb, metric, sms, nbrBytes int, occ pspmOccupancy) (pspmPlan, int, error) {
	pl, err := pspmPlanFor(n, tpb, metric, 0, sms, nbrBytes, occ)
	if err != nil {
		return pl, 0, err
	}
	if pl.layout.shared&pspmSharedLists == 0 {
		if t, ok := pspmTourPlan(n, metric, occ); ok && tpb == 32 {
			return t, sms, nil
		}
		if one, err := pspmPlanFor(n, tpb, metric, sms, sms, nbrBytes, occ); err == nil && one.layout.shared&pspmSharedLists != 0 {
			return one, sms, nil
		}
	}
	return pl, pl.perSM * sms, nil
}

// pspmTourWarps is the most warps of a tour-layout search (1024 threads).
const pspmTourWarps = 32

// pspmTourBytes is PspmTour's shared memory: coordinates, links, locks.
func pspmTourBytes(n int) int { return align16(8*n) + align16(4*n) + align16(4*((n+31)/32)) }

// pspmTourPlan returns the tour layout's plan for n cities, ok false when none fits.
func pspmTourPlan(n, metric int, occ pspmOccupancy) (pspmPlan, bool) {
	pl := pspmPlan{perBlock: 1, shared: pspmTourBytes(n)}
	for _, l := range pspmLayouts {
		if l.tour && l.metric == metric {
			pl.layout = l
		}
	}
	if n >= 65535 {
		return pl, false
	}
	for w := pspmTourWarps; w >= 1; w /= 2 {
		if per := occ(pl.layout, 32*w, pl.shared); per > 0 {
			pl.blockDim, pl.perSM, pl.teams = 32*w, per, w
			return pl, true
		}
	}
	return pl, false
}
