package pspm

import (
	"strings"
	"testing"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// h100Occupancy models the occupancy API on an H100 (sm_90: 2,048
// threads, 32 blocks, 64K registers and 228 KB of shared memory per SM, 1
// KB of it reserved per block, at most 227 KB per block) for the kernels'
// registers and static shared memory as cuobjdump -res-usage reports them
// for sm_90.
func h100Occupancy(l pspmLayout, blockDim, shared int) int {
	regs, static := 64, 1024
	switch kind := l.name[strings.LastIndexByte(l.name, '_')+1:]; {
	case l.tour:
		regs, static = 45, 1040
	case kind == "t32x27":
		regs = 72
	case kind == "b3":
		regs, static = 56, 1152
	case kind == "b1":
		regs, static = 58, 1152
	case !l.warp:
		static = 1152
	}
	if static+shared > 227*1024 {
		return 0
	}
	warps := (blockDim + 31) / 32
	perWarp := (regs*32 + 255) / 256 * 256
	return min(2048/blockDim, 32, 65536/(warps*perWarp), 228*1024/(static+shared+1024))
}

// lamSizes are the sizes of Lam et al.'s 20 instances (rd100 .. d493).
var lamSizes = []int{100, 101, 127, 150, 150, 152, 159, 195, 225, 225, 262, 264, 280, 299, 318, 400, 417, 439, 442, 493}

// TestPSPMDefaultOnLamSizes: on Lam et al.'s instances the default is a
// full wave of warp searches with their records in shared memory, 32 per
// SM (4,224 on an H100's 132 SMs, as measured there), a multiple of the
// device's SMs, inside the blocks option's range; one search per SM
// (the tour layout) is the default only where a wave's records would be
// in global memory.
func TestPSPMDefaultOnLamSizes(t *testing.T) {
	for _, sms := range []int{132, 114, 80} {
		for _, n := range lamSizes {
			pl, tb, err := pspmDefaultFor(n, 32, device.MetricEuc2D, sms, pspmDefaultNbrBytes(n, pspmDefaultNNK(AlgoPSPM, n)), h100Occupancy)
			if err != nil {
				t.Fatalf("n %d: %v", n, err)
			}
			hi := min(solver.MaxBlocks, solver.MaxTourCells/n)
			if !pl.layout.warp || pl.layout.shared&pspmSharedLists == 0 || pl.perSM != 32 || tb != 32*sms || tb < 1 || tb > hi {
				t.Fatalf("%d SMs, n %d: %s, %d per SM, %d searches (range 1..%d); want a warp layout with the records in shared memory, 32 per SM, %d",
					sms, n, pl.layout.name, pl.perSM, tb, hi, 32*sms)
			}
		}
	}
	pl, tb, err := pspmDefaultFor(13509, 32, device.MetricEuc2D, 132, pspmDefaultNbrBytes(13509, pspmDefaultNNK(AlgoPSPM, 13509)), h100Occupancy)
	if err != nil || !pl.layout.tour || tb != 132 || pl.teams != 32 || pl.blockDim != 1024 {
		t.Fatalf("n 13509: %s, %d searches of %d teams (%v); want the tour layout, one search of 32 warps per SM", pl.layout.name, tb, pl.teams, err)
	}
}

// TestPSPMPlanPrefersSharedMemory: a wave keeps the most in shared memory
// that holds 85 % of the best residency, and given blocks are planned for
// their own wave.
func TestPSPMPlanPrefersSharedMemory(t *testing.T) {
	nbr := pspmDefaultNbrBytes(100, 8)
	pl, err := pspmPlanFor(100, 32, device.MetricEuc2D, 0, 132, nbr, h100Occupancy)
	if err != nil || pl.layout.shared != 7 || pl.perSM != 32 || pl.perBlock != 1 {
		t.Fatalf("n 100: %s, %d per block, %d per SM (%v); want w7, 1 per block (the fewest), 32 per SM", pl.layout.name, pl.perBlock, pl.perSM, err)
	}
	pl, err = pspmPlanFor(493, 32, device.MetricEuc2D, 0, 132, pspmDefaultNbrBytes(493, pspmDefaultNNK(AlgoPSPM, 493)), h100Occupancy)
	if err != nil || pl.layout.shared != 3 || pl.perSM != 32 {
		t.Fatalf("n 493: %s, %d per SM (%v); want w3 (the lists leave no room for the neighbour lists at 32 per SM)", pl.layout.name, pl.perSM, err)
	}
	// 132 blocks need one search per SM: the neighbour lists fit beside the records.
	pl, err = pspmPlanFor(493, 32, device.MetricEuc2D, 132, 132, pspmDefaultNbrBytes(493, pspmDefaultNNK(AlgoPSPM, 493)), h100Occupancy)
	if err != nil || pl.layout.shared != 7 {
		t.Fatalf("n 493, 132 blocks: %s (%v); want w7", pl.layout.name, err)
	}
	if _, err := pspmPlanFor(100, 32, device.MetricEuc2D, 0, 132, nbr, func(pspmLayout, int, int) int { return 0 }); err == nil {
		t.Fatal("no layout fits, and no error")
	}
}

// Every layout but the tour has a segment-move twin, name_seg, which a run
// of seg > 1 launches; the tour layout relocates only.
func TestPSPMSegKernels(t *testing.T) {
	for _, l := range pspmLayouts {
		ks := l.kernels()
		switch {
		case l.tour && (len(ks) != 1 || l.kernel(true) != l.name):
			t.Fatalf("%s: kernels %v, seg kernel %s", l.name, ks, l.kernel(true))
		case !l.tour && (len(ks) != 2 || l.kernel(true) != l.name+"_seg" || ks[1] != l.kernel(true)):
			t.Fatalf("%s: kernels %v, seg kernel %s", l.name, ks, l.kernel(true))
		case l.kernel(false) != l.name:
			t.Fatalf("%s: relocation kernel %s", l.name, l.kernel(false))
		}
	}
}
