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

// fiBlock is the threads per block of the block mappings (at least the 40
// candidates; their FI_block has 40).
const fiBlock = 64

// FIPopulation runs nb independent first-improvement ILS searches of itLim
// kicks each on the GPU in one launch, mapped as mode (FIModes: "thread",
// "block-global", "block-shared"), from the nearest-neighbour tour, and
// returns the best tour (exact length) and the time from the first upload
// of the searches' state to the last result read back; the candidate
// lists and the start tour are built before. dist is OptDist's choice
// ("", "coords", "matrix"). Solution s is FISequential's solution s.
func FIPopulation(in *solver.Instance, nb, itLim int, mode string, seed uint64, dist string) (best []int, length int64, elapsed time.Duration, device string, err error) {
	if !slices.Contains(FIModes, mode) {
		return nil, 0, 0, "", fmt.Errorf("first-improvement ILS mapping %q: want one of %v", mode, FIModes)
	}
	n := in.N
	if n < 8 || nb < 1 || itLim < 0 {
		return nil, 0, 0, "", fmt.Errorf("first-improvement ILS: %d cities, %d solutions, %d kicks", n, nb, itLim)
	}
	matrix, err := lsDistMode(in, dist)
	if err != nil {
		return nil, 0, 0, "", err
	}
	shared := 0
	if mode == "block-shared" {
		shared = (9*n + 3) / 4 * 4
		if shared > 48<<10 {
			return nil, 0, 0, "", fmt.Errorf("%w: block-shared keeps 9 bytes a city in shared memory, %d B for %d cities, over 48 KiB", ErrUnsupported, shared, n)
		}
	}
	r, err := newRun()
	if err != nil {
		return nil, 0, 0, "", err
	}
	defer r.close()
	lists, start := fiStart(in)
	lens := make([]int64, nb)
	got := make([]int32, n)
	err = r.do(func() error {
		var bufs buffers
		defer bufs.freeAll()
		d, err := newLSDist(&bufs, in, matrix)
		if err != nil {
			return err
		}
		alloc := func(bytes int64) cu.DevicePtr {
			if err != nil {
				return 0
			}
			var p cu.DevicePtr
			p, err = bufs.alloc(max(bytes, 4))
			return p
		}
		nbr := alloc(int64(len(lists.List)) * 4)
		st := alloc(int64(n) * 4)
		per := int64(nb) * int64(n)
		var tours, poss, dlbs cu.DevicePtr
		if mode != "block-shared" {
			tours, poss, dlbs = alloc(per*4), alloc(per*4), alloc(per)
		}
		bests := alloc(per * 4)
		lp := alloc(int64(nb) * 8)
		if err != nil {
			return err
		}
		if err := htod(nbr, lists.List); err != nil {
			return err
		}
		t0 := time.Now()
		if err := htod(st, start); err != nil {
			return err
		}
		name := map[string]string{"thread": "fils_thread_", "block-global": "fils_block_global_", "block-shared": "fils_block_shared_"}[mode] + d.suffix
		gx := (nb + fiBlock - 1) / fiBlock
		if mode != "thread" {
			gx = nb
		}
		if err := r.launch(name, gx, 1, fiBlock, shared, r.stream, d.xy, d.mat, n, nbr, lists.K, nb, itLim, seed, st, tours, poss, dlbs, bests, lp); err != nil {
			return err
		}
		if err := r.sync("first-improvement ILS"); err != nil {
			return err
		}
		if err := dtoh(lens, lp); err != nil {
			return err
		}
		b := 0
		for s := range lens {
			if lens[s] < lens[b] {
				b = s
			}
		}
		if err := dtoh(got, bests+cu.DevicePtr(int64(b)*int64(n)*4)); err != nil {
			return err
		}
		elapsed = time.Since(t0)
		return nil
	})
	if err != nil {
		return nil, 0, 0, "", err
	}
	best = make([]int, n)
	for i, c := range got {
		best[i] = int(c)
	}
	if err := solver.ValidateTour(best, n); err != nil {
		return nil, 0, 0, "", fmt.Errorf("first-improvement ILS on the GPU returned an invalid tour: %v", err)
	}
	return best, solver.TourLength(in, best), elapsed, r.d.label, nil
}
