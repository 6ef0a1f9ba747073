//go:build cuda

package blockils

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/problem"
)

func init() {
	device.RegisterKernels("block_ils_euc", "block_ils_ceil", "block_ils_att", "block_ils_tab_euc", "block_ils_tab_ceil", "block_ils_tab_att")
}

// Constants shared with blockils.cu.
const (
	// biK is BI_K: candidates per city.
	biK = 8
	// biJournal is BI_JOURNAL: reversals a rejected kick undoes.
	biJournal = 128
	// biCounters are the counters: moves evaluated and made, kicks made and kept, 3-opt moves.
	biCounters = 5
	// biMinN: fewer cities have no 8 candidates each.
	biMinN = 10
	// biMaxN: positions are 16 bits.
	biMaxN = 65535
	// biMaxWarps is the most warps (tours) a block holds (256 threads).
	biMaxWarps = 8
	// biSlice is one launch's time: a stop waits for one slice at most.
	biSlice = 200 * time.Millisecond
)

// biOpts are the search's settings.
type biOpts struct {
	// seg is the longest segment a kick moves.
	seg int
	// or3 adds the sequential 3-opt moves where 2-opt and Or-opt find none.
	or3 bool
	// stall: kicks without gain before a walk restarts (0: never).
	stall int
}

// biDefaults are the pool's and the batch's settings: kicks of segments up to 300 cities and the 3-opt moves,
// the best of BenchmarkBlockILSPool's settings.
var biDefaults = biOpts{seg: 300, or3: true}

// biKernel names the kernel for metric m, with the shared table or without.
func biKernel(m int, table bool) string {
	name := "block_ils_euc"
	switch m {
	case device.MetricCeil2D:
		name = "block_ils_ceil"
	case device.MetricAtt:
		name = "block_ils_att"
	}
	if table {
		name = strings.Replace(name, "ils_", "ils_tab_", 1)
	}
	return name
}

// biTableBytes mirrors bi_tab_bytes: an n-city instance's distance table.
func biTableBytes(n int) int { return (4*n*n + 15) &^ 15 }

// biStateBytes mirrors bi_state_bytes: one warp's tour state.
func biStateBytes(n int) int { return ((7*n + 15) &^ 15) + 4*biJournal }

// biCoordBytes is one instance's float coordinates in shared memory.
func biCoordBytes(n int) int { return (8*n + 15) &^ 15 }

// biPlan is a launch layout of the kernel.
type biPlan struct {
	kernel       string
	metric       int
	maxN         int
	wpb          int  // warps (tours) per block
	shared       int  // dynamic shared memory per block
	share        bool // a block's warps share one instance's coordinates
	table        bool // ... and its distance table, in shared memory (share too)
	coordsShared bool // the coordinates (or the table) sit in shared memory
	perSM        int  // blocks an SM holds at once
	slots        int  // tours the device holds at once
}

// planBlockILS lays out tours of at most maxN cities, want per block (share: of one instance; table: its distances in
// shared memory), with the most warps per block that fit.
func planBlockILS(r *device.Run, metric, maxN, want int, share, table bool) (biPlan, error) {
	share = share || table
	pl := biPlan{kernel: biKernel(metric, table), metric: metric, maxN: maxN, share: share, table: table}
	fn, ok := r.Dev.Fn(pl.kernel)
	if !ok {
		return pl, fmt.Errorf("gpu: kernel %s is not in the fatbin (rebuild it: scripts/build-gpu.sh fatbin)", pl.kernel)
	}
	if maxN < biMinN || maxN > biMaxN {
		return pl, fmt.Errorf("%w: the block search takes %d to %d cities, not %d", solver.ErrNoTourPool, biMinN, biMaxN, maxN)
	}
	static, err := fn.Attribute(cu.SharedSizeBytes)
	if err != nil {
		return pl, err
	}
	limit := r.Dev.Limits.SharedOptin - static
	bytes := func(w int, coords bool) int {
		c := 0
		if coords {
			c = biCoordBytes(maxN)
			if table {
				c = biTableBytes(maxN)
			}
		} else if table {
			return math.MaxInt // the table is the point
		}
		if share {
			return c + w*biStateBytes(maxN)
		}
		return w * (c + biStateBytes(maxN))
	}
	want = min(max(want, 1), biMaxWarps)
	for _, coords := range []bool{true, false} {
		for w := want; w >= 1; w-- {
			if bytes(w, coords) <= limit {
				pl.wpb, pl.coordsShared, pl.shared = w, coords, bytes(w, coords)
				break
			}
		}
		if pl.wpb > 0 {
			break
		}
	}
	if pl.wpb == 0 {
		return pl, fmt.Errorf("%w: a tour of %d cities needs %d bytes of shared memory, the device allows %d", solver.ErrNoTourPool, maxN, bytes(1, false), limit)
	}
	if pl.shared > r.Dev.Limits.SharedStatic {
		if err := device.SetMaxDynamicShared(fn, pl.shared); err != nil {
			return pl, err
		}
	}
	per, err := fn.MaxActiveBlocksPerMultiProcessor(32*pl.wpb, int64(pl.shared))
	if err != nil {
		return pl, err
	}
	if per <= 0 {
		return pl, fmt.Errorf("no block of %d warps and %d bytes of shared memory fits an SM", pl.wpb, pl.shared)
	}
	pl.perSM = per
	pl.slots = per * pl.wpb * r.Dev.Info.Multiprocs
	return pl, nil
}

// biSet is the device memory of a set of tours: coordinates, candidate lists, tours and counters.
type biSet struct {
	r    *device.Run
	pl   biPlan
	T    int   // tours
	offs []int // tour g's first position in the tours array
	ns   []int // tour g's cities
	bufs device.Buffers
	// device buffers, as the kernel's arguments (fx 0: no fixed edges)
	xy, xyd, nb, fx, instOff, instN, tourOff cu.DevicePtr
	tours, lens, gains, kicks, clock, ctr    cu.DevicePtr
	// the ring of each tour's stalled walks (ringR 0: none) and their counts
	ring, ringN cu.DevicePtr
	ringR       int
	// work mode (zero: off): each tour's stream id, kick budget and walk state
	ids, budgets, walk, walkLen, walkSince cu.DevicePtr
	hBudget                                []int64
	// done marks a launch's end; waiting on it leaves the host core free
	done cu.Event
	// the last launch's figures
	hLens, hGains, hKick []int64
	hCtr                 []uint64
}

// biInst is an instance of a set with its candidate lists.
type biInst struct {
	in *solver.Instance
	nb []int32
}

// newBISet uploads insts with room for a tour of insts[tourInst[g]] per g.
func newBISet(r *device.Run, pl biPlan, insts []biInst, tourInst []int) (*biSet, error) {
	T := len(tourInst)
	s := &biSet{r: r, pl: pl, T: T, offs: make([]int, T), ns: make([]int, T)}
	cityOff := make([]int64, len(insts))
	var cities int64
	for i, x := range insts {
		cityOff[i] = cities
		cities += int64(x.in.N)
	}
	xy, xyd, nb := make([]float32, 0, 2*cities), make([]float64, 0, 2*cities), make([]int32, 0, cities*biK)
	for _, x := range insts {
		xy = append(xy, device.ShiftedCoords(x.in)...)
		for i := 0; i < x.in.N; i++ {
			xyd = append(xyd, x.in.X[i], x.in.Y[i])
		}
		nb = append(nb, x.nb...)
	}
	fx := fixedPartners(insts, cities)
	instOff, instN, tourOff := make([]int64, T), make([]int32, T), make([]int64, T)
	var pos int64
	for g, k := range tourInst {
		instOff[g], instN[g], tourOff[g] = cityOff[k], int32(insts[k].in.N), pos
		s.offs[g], s.ns[g] = int(pos), insts[k].in.N
		pos += int64(insts[k].in.N)
	}
	bufs := []device.DevBuf{device.Buf(&s.xy, 8*cities), device.Buf(&s.xyd, 16*cities), device.Buf(&s.nb, 4*cities*biK),
		device.Buf(&s.instOff, 8*int64(T)), device.Buf(&s.instN, 4*int64(T)), device.Buf(&s.tourOff, 8*int64(T)),
		device.Buf(&s.tours, 4*pos), device.Buf(&s.lens, 8*int64(T)), device.Buf(&s.gains, 8*int64(T)),
		device.Buf(&s.kicks, 8*int64(T)), device.Buf(&s.clock, 8), device.Buf(&s.ctr, 8*biCounters)}
	if fx != nil {
		bufs = append(bufs, device.Buf(&s.fx, 4*int64(len(fx))))
	}
	err := s.bufs.AllocAll(bufs...)
	if err != nil {
		return nil, err
	}
	if s.done, err = cu.MakeEvent(cu.BlockingSyncEvent | cu.DisableTiming); err != nil {
		s.bufs.FreeAll()
		return nil, fmt.Errorf("creating an event: %w", err)
	}
	s.hLens, s.hGains, s.hKick, s.hCtr = make([]int64, T), make([]int64, T), make([]int64, T), make([]uint64, biCounters)
	err = device.InOrder(func() error { return device.HtoD(s.xy, xy) }, func() error { return device.HtoD(s.xyd, xyd) },
		func() error { return device.HtoD(s.nb, nb) }, func() error { return device.HtoD(s.instOff, instOff) },
		func() error { return device.HtoD(s.instN, instN) }, func() error { return device.HtoD(s.tourOff, tourOff) },
		func() error { return device.HtoD(s.ctr, s.hCtr) }, func() error {
			if fx == nil {
				return nil
			}
			return device.HtoD(s.fx, fx)
		})
	if err != nil {
		s.free()
		return nil, err
	}
	return s, nil
}

// fixedPartners is the kernel's fx of insts: each city's two fixed partners (-1: none), nil without fixed edges.
func fixedPartners(insts []biInst, cities int64) []int32 {
	has := false
	for _, x := range insts {
		has = has || len(x.in.FixedEdges) > 0
	}
	if !has {
		return nil
	}
	fx := make([]int32, 0, 2*cities)
	for _, x := range insts {
		part := problem.FixedPartners(x.in.N, x.in.FixedEdges)
		if part == nil { // an instance of the set without fixed edges
			part = slices.Repeat([]int32{-1}, 2*x.in.N)
		}
		fx = append(fx, part...)
	}
	return fx
}

func (s *biSet) free() {
	if s.done != (cu.Event{}) {
		cu.DestroyEvent(&s.done)
	}
	s.bufs.FreeAll()
}

// put uploads the tours and zeroes their kicks and gains.
func (s *biSet) put(flat []int32) error {
	clear(s.hKick)
	clear(s.hGains)
	return device.InOrder(func() error { return device.HtoD(s.tours, flat) }, func() error { return device.HtoD(s.kicks, s.hKick) },
		func() error { return device.HtoD(s.gains, s.hGains) })
}

// launch runs one launch of at most slice, kicks per tour, and reads back the figures (context thread).
func (s *biSet) launch(kicks int64, seed uint64, slice time.Duration, o biOpts) error {
	d := s.r
	if err := device.HtoD(s.clock, []uint64{0}); err != nil {
		return err
	}
	blocks := (s.T + s.pl.wpb - 1) / s.pl.wpb
	if err := d.Launch(s.pl.kernel, blocks, 1, 32*s.pl.wpb, s.pl.shared, d.Stream,
		s.xy, s.xyd, s.nb, s.fx, s.instOff, s.instN, s.tourOff, s.tours, s.lens, s.gains, s.kicks, kicks, seed,
		int64(slice), s.clock, s.T, s.pl.share, s.pl.coordsShared, s.pl.maxN, o.seg, o.or3, o.stall, s.ctr,
		s.ring, s.ringN, s.ringR, s.ids, s.budgets, s.walk, s.walkLen, s.walkSince); err != nil {
		return err
	}
	if err := s.done.Record(d.Stream); err != nil {
		return fmt.Errorf("block search on %s: %w", d.Dev.Label, err)
	}
	if err := s.done.Synchronize(); err != nil {
		return fmt.Errorf("block search on %s failed: %w", d.Dev.Label, err)
	}
	return device.InOrder(func() error { return device.DtoH(s.hLens, s.lens) }, func() error { return device.DtoH(s.hGains, s.gains) },
		func() error { return device.DtoH(s.hKick, s.kicks) }, func() error { return device.DtoH(s.hCtr, s.ctr) })
}

// addRing makes room for r stalled tours a walk.
func (s *biSet) addRing(r int) error {
	var cities int64
	for _, n := range s.ns {
		cities += int64(n)
	}
	if err := s.bufs.AllocAll(device.Buf(&s.ring, 4*cities*int64(r)), device.Buf(&s.ringN, 8*int64(s.T))); err != nil {
		return err
	}
	s.ringR = r
	return device.HtoD(s.ringN, make([]int64, s.T))
}

// setWork puts the set in work mode: tour g kicks from stream ids[g] at most budgets[g] times, across launches.
func (s *biSet) setWork(ids []uint32, budgets []int64) error {
	var cities int64
	for _, n := range s.ns {
		cities += int64(n)
	}
	T := int64(s.T)
	if err := s.bufs.AllocAll(device.Buf(&s.ids, 4*T), device.Buf(&s.budgets, 8*T), device.Buf(&s.walk, 4*cities),
		device.Buf(&s.walkLen, 8*T), device.Buf(&s.walkSince, 4*T)); err != nil {
		return err
	}
	s.hBudget = budgets
	return device.InOrder(func() error { return device.HtoD(s.ids, ids) }, func() error { return device.HtoD(s.budgets, budgets) },
		func() error { return device.HtoD(s.walkSince, slices.Repeat([]int32{-1}, s.T)) })
}

// getRing downloads the rings and the tours each walk wrote.
func (s *biSet) getRing(flat []int32, counts []int64) error {
	return device.InOrder(func() error { return device.DtoH(flat, s.ring) }, func() error { return device.DtoH(counts, s.ringN) })
}

// get downloads the tours, concatenated in tour order (context thread).
func (s *biSet) get(flat []int32) error { return device.DtoH(flat, s.tours) }

// allKicked reports whether every tour has made kicks kicks.
func (s *biSet) allKicked(kicks int64) bool {
	for g, k := range s.hKick[:s.T] {
		if k < kicks && (s.hBudget == nil || k < s.hBudget[g]) {
			return false
		}
	}
	return true
}

// biSliceFor is the next launch's time, cut to the deadline (zero: none).
func biSliceFor(deadline time.Time) time.Duration {
	if deadline.IsZero() {
		return biSlice
	}
	return min(biSlice, time.Until(deadline))
}

// biNoBudget is the kick budget of a search that ends by time.
const biNoBudget = math.MaxInt64
