//go:build cuda

package blockils

import (
	"slices"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// The bounds of an instance a batch's block search takes, and its
// candidates per city.
const (
	// BatchMinN: fewer cities have no 8 candidates each (the host
	// solves those).
	BatchMinN = biMinN
	// BatchMaxN: positions are 16 bits.
	BatchMaxN = biMaxN
	// BatchK is the candidates per city of an instance's lists.
	BatchK = biK
	// NoBudget is the kick budget of a search that ends by time.
	NoBudget = biNoBudget
)

// Searches an instance of a batch: a block's warps, each an independent
// search from a start of its own, the shortest tour kept. Measured on
// 10,000 uniform 100-city instances, 2 s (H100; the first 200 against the
// better of two CPU auto runs of 5,000 kicks, mean and worst): a warp an
// instance from the greedy tour 0.035 / 0.99 %; 8 a block sharing the
// coordinates 0.013 / 0.78 %, sharing the table 0.0075 / 0.78 %; with
// quadrant candidates 0.0006 / 0.33 % (seed 2: 0.0116 / 0.78 %); the
// others from randomized nearest-neighbour tours -0.0034 / 0.0 % (seed 2:
// -0.0023 / 0.21 %). On 1,000 of 1,000 cities, 10 s: 4 sharing the
// coordinates 0.24 %, 8 0.26 %, one 0.28 % above 10-s CPU auto.
// Searches that take the block's best tour now and then (2 to 8 times a
// run) ended worse: the independent ones keep apart.
const (
	batchTableWarps  = 8
	batchCoordsWarps = 4
	// BatchMaxSearches is the most searches an instance of a batch gets.
	BatchMaxSearches = max(batchTableWarps, batchCoordsWarps)
)

// BatchSearch is a batch's search settings: the longest segment a kick
// moves, and the kicks without a shorter tour after which a walk
// restarts from its tour kicked several times (0: never).
type BatchSearch struct{ Seg, Stall int }

// DefaultBatchSearch is the batch's search: the pool's segments, and a
// walk with no shorter tour for 100 kicks restarts from its tour kicked
// three times, because that leaves no instance far above the reference.
// Measured (H100, 10,000 × 100 cities in 2 s, the first 200, batch seeds
// 1 / 2, mean and worst): -0.0032 / -0.0032 % and 0.0 / 0.025 % against
// -0.0024 / -0.0023 % and 0.20 / 0.20 % without; after 20 or 50 kicks
// 0.20 / 0.17 % and 0.0 / 0.24 % at worst.
func DefaultBatchSearch() BatchSearch { return BatchSearch{Seg: biDefaults.seg, Stall: 100} }

// BatchPlan is the layout of a launch of a batch's instances of one
// metric, a block each.
type BatchPlan struct{ pl biPlan }

// Instances is how many instances a launch of the plan holds.
func (p BatchPlan) Instances() int { return p.pl.slots / max(p.pl.wpb, 1) }

// Searches is the searches (warps) an instance gets.
func (p BatchPlan) Searches() int { return p.pl.wpb }

// PlanBatch lays out instances of metric code metric and at most n
// cities, a block each: with the distance table in shared memory where
// that keeps as many warps on an SM as the coordinates do (about 110
// cities), else the coordinates (context thread). An error wraps
// solver.ErrNoTourPool where the block search cannot take n cities.
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

// Chunk is one launch's instances of a batch on the device, a block
// each, Searches tours an instance.
type Chunk struct {
	ru   *device.Run
	s    *biSet
	w    int     // searches an instance
	flat []int32 // the tours, concatenated in search order
}

// Work is a chunk's work mode: each instance's id, whose searches' kicks
// draw on streams of their own (id·BatchMaxSearches + the search), and
// kick budget. A chunk in work mode gives each instance the same tours
// whatever the chunk's other instances and however the launches cut the
// kicks.
type Work struct {
	IDs     []uint64
	Budgets []int64
}

// OpenChunk uploads the instances ins (nb: each one's candidate lists,
// BatchK a city) and their searches' start tours (starts[k]: instance
// k's, pl.Searches() of them) under the layout pl, with room for the last
// ring tours of each search's stalled walks (0: none kept), in work mode
// where work is not nil.
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

// workTours is work's stream ids and budgets for each of w searches of
// count instances, in tour order.
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

// Launch runs one launch of at most slice with a budget of kicks a search
// and the settings o, and waits for it.
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

// Stalled downloads, for every instance, the tours its searches' walks
// had when they stalled and restarted (copies; the last ring of each
// search, none without a ring).
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

// Shortest is which of instance k's searches has the shortest tour after
// the last launch, and the kicks of all its searches.
func (c *Chunk) Shortest(k int) (int, int64) {
	b, kicks := k*c.w, int64(0)
	for g := k * c.w; g < (k+1)*c.w; g++ {
		if c.s.hLens[g] < c.s.hLens[b] {
			b = g
		}
		kicks += c.s.hKick[g]
	}
	return b - k*c.w, kicks
}

// Counters are the kernel's counters after the last launch: moves
// evaluated, moves made, kicks, kicks kept, 3-opt moves made.
func (c *Chunk) Counters() []uint64 { return c.s.hCtr }

// SliceFor is the next launch's time: a slice, cut to the deadline (zero
// time: none).
func SliceFor(deadline time.Time) time.Duration { return biSliceFor(deadline) }
