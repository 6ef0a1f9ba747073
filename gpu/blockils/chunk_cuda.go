//go:build cuda

package blockils

import (
	"slices"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// An instance's bounds for the batch's block search, and its candidates a city.
const (
	// BatchMinN: smaller instances (without 8 candidates each) are solved on the host.
	BatchMinN = biMinN
	// BatchMaxN: positions are 16 bits.
	BatchMaxN = biMaxN
	// BatchK is the candidates per city of an instance's lists.
	BatchK = biK
	// NoBudget is the kick budget of a search that ends by time.
	NoBudget = biNoBudget
)

// Searches an instance of a batch: a block's warps, each an independent search from its own start, the best kept;
// BenchmarkBatch compares the layouts (searches that share the block's best tour ended worse).
const (
	batchTableWarps  = 8
	batchCoordsWarps = 4
	// BatchMaxSearches is the most searches an instance of a batch gets.
	BatchMaxSearches = max(batchTableWarps, batchCoordsWarps)
)

// BatchSearch is a batch's search settings: the longest kick segment, and the kicks without gain before a restart (0: never).
type BatchSearch struct{ Seg, Stall int }

// DefaultBatchSearch is the pool's segments and a restart after 100 kicks without gain, which leaves no instance
// far above the reference.
func DefaultBatchSearch() BatchSearch { return BatchSearch{Seg: biDefaults.seg, Stall: 100} }

// BatchPlan is a launch's layout for a batch's instances of one metric.
type BatchPlan struct{ pl biPlan }

// Instances is how many instances a launch of the plan holds.
func (p BatchPlan) Instances() int { return p.pl.slots / max(p.pl.wpb, 1) }

// Searches is the searches (warps) an instance gets.
func (p BatchPlan) Searches() int { return p.pl.wpb }

// PlanBatch lays out instances of at most n cities, a block each, with the distance table in shared memory where that keeps
// as many warps on an SM, else the coordinates; an error wraps solver.ErrNoTourPool where n does not fit.
func PlanBatch(ru *device.Run, metric, n int) (BatchPlan, error) {
	coords, err := planBlockILS(ru, metric, n, batchCoordsWarps, true, false)
	if err != nil {
		return BatchPlan{coords}, err
	}
	if table, err := planBlockILS(ru, metric, n, batchTableWarps, true, true); err == nil && table.perSM*table.wpb >= coords.perSM*coords.wpb {
		return BatchPlan{table}, nil
	}
	return BatchPlan{coords}, nil
}

// Chunk is one launch's instances on the device, Searches tours each.
type Chunk struct {
	ru   *device.Run
	s    *biSet
	w    int     // searches an instance
	flat []int32 // the tours, concatenated in search order
}

// Work is a chunk's work mode: each instance's id (its searches' kick streams) and kick budget, so its tours do not
// depend on the chunk's other instances or launches.
type Work struct {
	IDs     []uint64
	Budgets []int64
}

// OpenChunk uploads ins, their candidate lists and their searches' start tours under pl, with ring stalled tours a search
// (0: none), in work mode where work is not nil.
func OpenChunk(ru *device.Run, pl BatchPlan, ins []*solver.Instance, nb [][]int32, starts [][][]int, ring int, work *Work) (*Chunk, error) {
	w := pl.Searches()
	insts := make([]biInst, len(ins))
	ti := make([]int, 0, w*len(ins))
	var flat []int32
	for k, in := range ins {
		insts[k] = biInst{in, nb[k]}
		for _, t := range starts[k][:w] {
			ti = append(ti, k)
			flat = append(flat, device.Convert[int32](t)...)
		}
	}
	c := &Chunk{ru: ru, w: w, flat: flat}
	err := ru.Do(func() (err error) {
		if c.s, err = newBISet(ru, pl.pl, insts, ti); err != nil {
			return err
		}
		if ring > 0 {
			err = c.s.addRing(ring)
		}
		if err == nil {
			err = c.s.put(flat)
		}
		if err == nil && work != nil {
			err = c.s.setWork(workTours(work, len(ins), w))
		}
		if err != nil {
			c.s.free()
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	return c, nil
}

// workTours is work's stream ids and budgets for w searches of count instances.
func workTours(work *Work, count, w int) ([]uint32, []int64) {
	ids, budgets := make([]uint32, 0, count*w), make([]int64, 0, count*w)
	for k := range count {
		for j := range w {
			ids = append(ids, uint32(work.IDs[k]*BatchMaxSearches+uint64(j)))
			budgets = append(budgets, work.Budgets[k])
		}
	}
	return ids, budgets
}

// Close frees the chunk's device memory.
func (c *Chunk) Close() { c.ru.Do(func() error { c.s.free(); return nil }) }

// Launch runs one launch of at most slice, kicks a search with settings o, and waits.
func (c *Chunk) Launch(kicks int64, seed uint64, slice time.Duration, o BatchSearch) error {
	bo := biOpts{seg: o.Seg, or3: biDefaults.or3, stall: o.Stall}
	return c.ru.Do(func() error { return c.s.launch(kicks, seed, slice, bo) })
}

// AllKicked reports whether every search has made kicks kicks.
func (c *Chunk) AllKicked(kicks int64) bool { return c.s.allKicked(kicks) }

// Tours downloads every instance's searches' tours (copies).
func (c *Chunk) Tours() ([][][]int32, error) {
	if err := c.ru.Do(func() error { return c.s.get(c.flat) }); err != nil {
		return nil, err
	}
	count := c.s.T / max(c.w, 1)
	all := make([][][]int32, count)
	for k := range all {
		for g := k * c.w; g < (k+1)*c.w; g++ {
			all[k] = append(all[k], slices.Clone(c.flat[c.s.offs[g]:c.s.offs[g]+c.s.ns[g]]))
		}
	}
	return all, nil
}

// Stalled downloads each instance's last ring tours its searches' walks had when they stalled.
func (c *Chunk) Stalled() ([][][]int32, error) {
	count := c.s.T / max(c.w, 1)
	all := make([][][]int32, count)
	r := c.s.ringR
	if r == 0 {
		return all, nil
	}
	flat := make([]int32, len(c.flat)*r)
	written := make([]int64, c.s.T)
	if err := c.ru.Do(func() error { return c.s.getRing(flat, written) }); err != nil {
		return nil, err
	}
	for k := range all {
		for g := k * c.w; g < (k+1)*c.w; g++ {
			n, from := c.s.ns[g], c.s.offs[g]*r
			for j := range int(min(written[g], int64(r))) {
				all[k] = append(all[k], slices.Clone(flat[from+j*n:from+(j+1)*n]))
			}
		}
	}
	return all, nil
}

// Shortest is instance k's search with the shortest tour, that tour's
// length, and all its searches' kicks.
func (c *Chunk) Shortest(k int) (int, int64, int64) {
	b, kicks := k*c.w, int64(0)
	for g := k * c.w; g < (k+1)*c.w; g++ {
		if c.s.hLens[g] < c.s.hLens[b] {
			b = g
		}
		kicks += c.s.hKick[g]
	}
	return b - k*c.w, c.s.hLens[b], kicks
}

// Counters are the kernel's counters after the last launch (biCounters).
func (c *Chunk) Counters() []uint64 { return c.s.hCtr }

// SliceFor is the next launch's time, cut to the deadline (zero: none).
func SliceFor(deadline time.Time) time.Duration { return biSliceFor(deadline) }
