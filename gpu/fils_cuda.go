//go:build cuda

package gpu

import (
	"fmt"
	"slices"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
)

func init() {
	for _, s := range []string{"mat", "euc", "ceil", "att"} {
		registerKernels("fils_thread_"+s, "fils_block_global_"+s, "fils_block_shared_"+s)
	}
}

// fiBlock is the block mappings' threads per block (their 40 candidates).
const fiBlock = 64

// fiMapping is a population's mapping, the index of its word in FIModes.
type fiMapping int

// The mappings, in FIModes' order.
const (
	fiThread fiMapping = iota
	fiBlockGlobal
	fiBlockShared
)

// fiKernels are the mappings' kernel name prefixes.
var fiKernels = [...]string{fiThread: "fils_thread_", fiBlockGlobal: "fils_block_global_", fiBlockShared: "fils_block_shared_"}

// FIPopulation runs pop.Solutions first-improvement ILS searches of
// pop.Kicks kicks in one launch mapped as pop.Mode (FIModes), with
// pop.Dist's distances, and returns the best tour (exact length) and the
// time from the first upload to the last read-back. Solution s is
// FISequential's.
func FIPopulation(in *solver.Instance, pop Population) (PopulationResult, error) {
	mapping := fiMapping(slices.Index(FIModes, pop.Mode))
	if mapping < 0 {
		return PopulationResult{}, fmt.Errorf("first-improvement ILS mapping %q: want one of %v", pop.Mode, FIModes)
	}
	n := in.N
	if n < 8 || pop.Solutions < 1 || pop.Kicks < 0 {
		return PopulationResult{}, fmt.Errorf("first-improvement ILS: %d cities, %d solutions, %d kicks", n, pop.Solutions, pop.Kicks)
	}
	matrix, err := lsDistMode(in, pop.Dist)
	if err != nil {
		return PopulationResult{}, err
	}
	shared := 0
	if mapping == fiBlockShared {
		shared = (9*n + 3) / 4 * 4
		if shared > 48<<10 {
			return PopulationResult{}, fmt.Errorf("%w: block-shared keeps 9 bytes a city in shared memory, %d B for %d cities, over 48 KiB", ErrUnsupported, shared, n)
		}
	}
	r, err := newRun()
	if err != nil {
		return PopulationResult{}, err
	}
	defer r.close()
	res := PopulationResult{Kicks: int64(pop.Solutions) * int64(pop.Kicks), Device: r.d.label}
	got := make([]int32, n)
	err = r.do(func() (err error) {
		res.Elapsed, err = r.fiLaunch(in, pop, mapping, matrix, shared, got)
		return err
	})
	if err != nil {
		return PopulationResult{}, err
	}
	res.Tour = convert[int](got)
	if err := solver.ValidateTour(res.Tour, n); err != nil {
		return PopulationResult{}, fmt.Errorf("first-improvement ILS on the GPU returned an invalid tour: %v", err)
	}
	res.Length = solver.TourLength(in, res.Tour)
	return res, nil
}

// fiLaunch runs the population's launch and copies the best tour into got;
// it returns the time from the start's upload on (context thread).
func (r *run) fiLaunch(in *solver.Instance, pop Population, mapping fiMapping, matrix bool, shared int, got []int32) (time.Duration, error) {
	n, nb := in.N, pop.Solutions
	lists, start := fiStart(in)
	var bufs buffers
	defer bufs.freeAll()
	d, err := newLSDist(&bufs, in, matrix)
	if err != nil {
		return 0, err
	}
	var nbr, st, tours, poss, dlbs, bests, lp cu.DevicePtr
	per := int64(nb) * int64(n)
	need := []devBuf{{&nbr, int64(len(lists.List)) * 4}, {&st, int64(n) * 4}, {&bests, per * 4}, {&lp, int64(nb) * 8}}
	if mapping != fiBlockShared {
		need = append(need, devBuf{&tours, per * 4}, devBuf{&poss, per * 4}, devBuf{&dlbs, per})
	}
	if err := bufs.allocAll(need...); err != nil {
		return 0, err
	}
	if err := htod(nbr, lists.List); err != nil {
		return 0, err
	}
	t0 := time.Now()
	if err := htod(st, start); err != nil {
		return 0, err
	}
	name := fiKernels[mapping] + d.suffix
	gx := (nb + fiBlock - 1) / fiBlock
	if mapping != fiThread {
		gx = nb
	}
	if err := r.launch(name, gx, 1, fiBlock, shared, r.stream, d.xy, d.mat, n, nbr, lists.K, nb, pop.Kicks, pop.Seed, st, tours, poss, dlbs, bests, lp); err != nil {
		return 0, err
	}
	if err := r.sync("first-improvement ILS"); err != nil {
		return 0, err
	}
	lens := make([]int64, nb)
	if err := dtoh(lens, lp); err != nil {
		return 0, err
	}
	b := 0
	for s := range lens {
		if lens[s] < lens[b] {
			b = s
		}
	}
	if err := dtoh(got, bests+cu.DevicePtr(int64(b)*int64(n)*4)); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}
