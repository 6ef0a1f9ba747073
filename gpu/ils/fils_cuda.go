//go:build cuda

package ils

import (
	"fmt"
	"slices"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/benchgpu"
	"github.com/tsplab/tsplab/solver"
)

func init() {
	for _, s := range []string{"mat", "euc", "ceil", "att"} {
		device.RegisterKernels("fils_thread_"+s, "fils_block_global_"+s, "fils_block_shared_"+s)
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

// FIPopulation runs pop.Solutions first-improvement ILS searches in one launch mapped as pop.Mode and returns the best tour
// and the time from first upload to last read-back; solution s is FISequential's.
func FIPopulation(in *solver.Instance, pop benchgpu.Population) (benchgpu.PopulationResult, error) {
	mapping := fiMapping(slices.Index(FIModes, pop.Mode))
	if mapping < 0 {
		return benchgpu.PopulationResult{}, fmt.Errorf("first-improvement ILS mapping %q: want one of %v", pop.Mode, FIModes)
	}
	n := in.N
	if n < 8 || pop.Solutions < 1 || pop.Kicks < 0 {
		return benchgpu.PopulationResult{}, fmt.Errorf("first-improvement ILS: %d cities, %d solutions, %d kicks", n, pop.Solutions, pop.Kicks)
	}
	matrix, err := device.LSDistMode(in, pop.Dist)
	if err != nil {
		return benchgpu.PopulationResult{}, err
	}
	shared := 0
	if mapping == fiBlockShared {
		shared = (9*n + 3) / 4 * 4
		if shared > 48<<10 {
			return benchgpu.PopulationResult{}, fmt.Errorf("%w: block-shared keeps 9 bytes a city in shared memory, %d B for %d cities, over 48 KiB", device.ErrUnsupported, shared, n)
		}
	}
	r, err := device.NewRun()
	if err != nil {
		return benchgpu.PopulationResult{}, err
	}
	defer r.Close()
	res := benchgpu.PopulationResult{Kicks: int64(pop.Solutions) * int64(pop.Kicks), Device: r.Dev.Label}
	got := make([]int32, n)
	err = r.Do(func() (err error) {
		res.Elapsed, err = fiLaunch(r, in, pop, mapping, matrix, shared, got)
		return err
	})
	if err != nil {
		return benchgpu.PopulationResult{}, err
	}
	res.Tour = device.Convert[int](got)
	if err := solver.ValidateTour(res.Tour, n); err != nil {
		return benchgpu.PopulationResult{}, fmt.Errorf("first-improvement ILS on the GPU returned an invalid tour: %v", err)
	}
	res.Length = solver.TourLength(in, res.Tour)
	return res, nil
}

// fiLaunch runs the population's launch and copies the best tour into got; it returns its time.
func fiLaunch(r *device.Run, in *solver.Instance, pop benchgpu.Population, mapping fiMapping, matrix bool, shared int, got []int32) (time.Duration, error) {
	n, nb := in.N, pop.Solutions
	lists, start := fiStart(in)
	var bufs device.Buffers
	defer bufs.FreeAll()
	d, err := device.NewLSDist(&bufs, in, matrix)
	if err != nil {
		return 0, err
	}
	var nbr, st, tours, poss, dlbs, bests, lp cu.DevicePtr
	per := int64(nb) * int64(n)
	need := []device.DevBuf{device.Buf(&nbr, int64(len(lists.List))*4), device.Buf(&st, int64(n)*4), device.Buf(&bests, per*4), device.Buf(&lp, int64(nb)*8)}
	if mapping != fiBlockShared {
		need = append(need, device.Buf(&tours, per*4), device.Buf(&poss, per*4), device.Buf(&dlbs, per))
	}
	if err := bufs.AllocAll(need...); err != nil {
		return 0, err
	}
	if err := device.HtoD(nbr, lists.List); err != nil {
		return 0, err
	}
	t0 := time.Now()
	if err := device.HtoD(st, start); err != nil {
		return 0, err
	}
	name := fiKernels[mapping] + d.Suffix
	gx := (nb + fiBlock - 1) / fiBlock
	if mapping != fiThread {
		gx = nb
	}
	if err := r.Launch(name, gx, 1, fiBlock, shared, r.Stream, d.Xy, d.Mat, n, nbr, lists.K, nb, pop.Kicks, pop.Seed, st, tours, poss, dlbs, bests, lp); err != nil {
		return 0, err
	}
	if err := r.Sync("first-improvement ILS"); err != nil {
		return 0, err
	}
	lens := make([]int64, nb)
	if err := device.DtoH(lens, lp); err != nil {
		return 0, err
	}
	b := 0
	for s := range lens {
		if lens[s] < lens[b] {
			b = s
		}
	}
	if err := device.DtoH(got, bests+cu.DevicePtr(int64(b)*int64(n)*4)); err != nil {
		return 0, err
	}
	return time.Since(t0), nil
}
