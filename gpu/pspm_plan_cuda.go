//go:build cuda

package gpu

import (
	"fmt"
	"strings"

	"gorgonia.org/cu"
)

// What a PSPM layout keeps in shared memory (kernels/pspm.cu MODE bits).
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
	tour   bool // a search per block whose warps share its tour (kernels/pspm.cu PspmTour)
	name   string
}

// nn reports whether the layout has the nearest-city draw.
func (l pspmLayout) nn() bool { return !l.wide }

// pspmLayouts are the kernels PSPM_METRIC stamps in kernels/pspm.cu, in
// its order; the kernel names' suffixes say index width, kind and MODE.
var pspmLayouts = func() []pspmLayout {
	var ls []pspmLayout
	for _, m := range []int{metricEuc2D, metricCeil2D, metricAtt} {
		for _, k := range strings.Fields("u16_w7 u16_w3 u16_w1 u16_w0 u16_t32x27 u16_t32x23 u32_w0 u16_b3 u16_b1 u16_b0 u32_b0 u16_tour") {
			kind := k[4:]
			l := pspmLayout{metric: m, wide: k[:3] == "u32", warp: kind[0] == 'w' || kind[0] == 't', moves: 1 + strings.Count(kind, "x2"),
				tour: kind == "tour", shared: int(kind[len(kind)-1] - '0'), name: "pspm_anneal_" + metricSuffix[m] + "_" + k}
			if l.tour {
				l.warp, l.shared = false, pspmSharedLists|pspmSharedCoords
			}
			ls = append(ls, l)
		}
	}
	return ls
}()

var metricSuffix = map[int]string{metricEuc2D: "euc", metricCeil2D: "ceil", metricAtt: "att"}

func init() {
	for _, l := range pspmLayouts {
		registerKernels(l.name)
	}
	for _, m := range []string{"euc", "ceil", "att"} {
		registerKernels("pspm_init_"+m, "dist_check_"+m)
	}
	registerKernels("pspm_sync")
}

// pspmPlan is the launch configuration of one PSPM run.
type pspmPlan struct {
	layout   pspmLayout
	fn       cu.Function
	perBlock int // searches per CUDA block (warps per block; 1 for a block search)
	blockDim int
	shared   int // dynamic shared bytes
	perSM    int // resident searches per SM
	teams    int // warps of 32 moves sharing one search (the tour layout), else 1
}

// blockBytes is the device memory of one search: tour, archive, costs, and
// its city records when they are not in shared memory.
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

// pspmCandidates are the layouts that run tpb moves per search on n cities
// of the metric; nbr: the run draws from neighbour lists.
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

// fit returns the plan of layout l with spb searches per block of tpb
// moves, or ok = false when its shared memory or registers do not fit.
func (r *run) fit(l pspmLayout, spb, n, tpb, nbrBytes int) (pspmPlan, bool) {
	pl := pspmPlan{layout: l, perBlock: spb, blockDim: 32 * spb, teams: 1}
	if !l.warp {
		pl.blockDim = (tpb + 31) / 32 * 32
	}
	fn, ok := r.d.fns[l.name]
	if !ok {
		return pl, false
	}
	pl.fn = fn
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
	if !r.sharedFits(fn, pl.shared) {
		return pl, false
	}
	per, err := fn.MaxActiveBlocksPerMultiProcessor(pl.blockDim, int64(pl.shared))
	if err != nil || per <= 0 {
		return pl, false
	}
	pl.perSM = per * spb
	return pl, true
}

// sharedFits reports whether fn may take bytes of dynamic shared memory,
// raising its limit when needed.
func (r *run) sharedFits(fn cu.Function, bytes int) bool {
	return bytes <= r.d.limits.sharedOptin && (bytes <= r.d.limits.sharedStatic || setMaxDynamicShared(fn, bytes) == nil)
}

// planPSPM picks the layout of a run of tpb moves per search on n cities
// (Lam et al. Eq. 3, by the occupancy API): a warp layout when one fits,
// else a block; then the most in shared memory that keeps enough searches
// resident per SM (85 % of the best, or a wave of tb), the most resident,
// the fewest per block. nbrBytes > 0: the neighbour lists' size.
func (r *run) planPSPM(n, tpb, metric, tb, nbrBytes int) (pspmPlan, error) {
	warp, block := pspmCandidates(n, tpb, metric, nbrBytes > 0)
	var plans []pspmPlan
	for _, l := range warp {
		for _, spb := range []int{1, 2, 4, 8} {
			if pl, ok := r.fit(l, spb, n, tpb, nbrBytes); ok {
				plans = append(plans, pl)
			}
		}
	}
	if len(plans) == 0 && tpb > 32 {
		for _, l := range block {
			if pl, ok := r.fit(l, 1, n, tpb, nbrBytes); ok {
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
		enough = min(enough, (tb+r.d.info.Multiprocs-1)/r.d.info.Multiprocs)
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
	if pick.shared > r.d.limits.sharedStatic {
		if err := setMaxDynamicShared(pick.fn, pick.shared); err != nil {
			return pick, err
		}
	}
	return pick, nil
}

// planDefault returns the plan and searches of a run whose blocks are not
// given: a full wave, or, when a wave keeps the city records in global
// memory, one search per SM with its tour in shared memory (the tour layout
// where it fits), whose faster chains a time limit rewards
// (docs/DECISIONS.md#pspm-plan).
func (r *run) planDefault(n, tpb, metric, nbrBytes int) (pspmPlan, int, error) {
	pl, err := r.planPSPM(n, tpb, metric, 0, nbrBytes)
	if err != nil {
		return pl, 0, err
	}
	sms := r.d.info.Multiprocs
	if pl.layout.shared&pspmSharedLists == 0 {
		if t, ok := r.planTour(n, metric); ok && tpb == 32 {
			return t, sms, nil
		}
		if one, err := r.planPSPM(n, tpb, metric, sms, nbrBytes); err == nil && one.layout.shared&pspmSharedLists != 0 {
			return one, sms, nil
		}
	}
	return pl, pl.perSM * sms, nil
}

// pspmTourWarps is the most warps of a tour-layout search (1024 threads).
var pspmTourWarps = 32

// pspmTourBytes is PspmTour's shared memory: coordinates, links, locks.
func pspmTourBytes(n int) int { return align16(8*n) + align16(4*n) + align16(4*((n+31)/32)) }

// planTour returns the tour layout's plan for n cities (the most warps
// that fit an SM), or ok = false.
func (r *run) planTour(n, metric int) (pspmPlan, bool) {
	pl := pspmPlan{perBlock: 1, shared: pspmTourBytes(n)}
	for _, l := range pspmLayouts {
		if l.tour && l.metric == metric {
			pl.layout = l
		}
	}
	fn, ok := r.d.fns[pl.layout.name]
	if !ok || n >= 65535 || !r.sharedFits(fn, pl.shared) {
		return pl, false
	}
	pl.fn = fn
	for w := pspmTourWarps; w >= 1; w /= 2 {
		if per, err := fn.MaxActiveBlocksPerMultiProcessor(32*w, int64(pl.shared)); err == nil && per > 0 {
			pl.blockDim, pl.perSM, pl.teams = 32*w, per, w
			return pl, true
		}
	}
	return pl, false
}
