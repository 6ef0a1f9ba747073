//go:build cuda

package blockils

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// SolveBatch solves many small instances at once on the GPU, a block of
// blockils.cu per instance, its warps independent searches, one from the
// instance's greedy tour, the others from randomized nearest-neighbour
// tours (up to about 110 cities with the instance's distance table in
// shared memory); at the end the host merges each instance's tours
// (partition crossover, then EAX: merge.go), and on a time limit that
// leaves each instance enough core time its cores search the merged
// tours of mid-run with CPU auto beside the GPU, the end merging that
// tour in too (polish_cuda.go). p.TimeLimit
// bounds the whole batch (every instance searches the while; batches larger
// than the device holds at once run in turns, sharing the time), and
// the kicks option bounds each search's kicks (default: until the time
// limit; without one, batchDefaultKicks); a result's Steps are the kicks
// of all its GPU searches. Instances of fewer than 10 cities
// are solved exactly on the host. Every result went through solver.Finish.
// An instance the GPU cannot take (no coordinates, another metric, more
// cities than a block's shared memory holds) makes an error wrapping
// ErrUnsupported that names it; ctx's end stops the search and returns the
// tours so far.
func SolveBatch(ctx context.Context, ins []*solver.Instance, p solver.Params) ([]solver.Result, error) {
	start := time.Now()
	kicks, err := batchKicks(p)
	if err != nil {
		return nil, err
	}
	deadline := p.WithDeadline(start).Deadline
	groups, small, err := batchGroups(ins)
	if err != nil {
		return nil, err
	}
	out := &batchOut{tours: make([][]int, len(ins)), steps: make([]int64, len(ins))}
	tours, steps := out.tours, out.steps
	label := "cpu (fewer than 10 cities)"
	if len(groups) > 0 {
		if label, err = solveGroups(ctx, ins, groups, kicks, p.Seed, deadline, out); err != nil {
			return nil, err
		}
	}
	for _, i := range small {
		tours[i] = exactSmall(ins[i])
	}
	stopped := ctx.Err() != nil || (!deadline.IsZero() && !time.Now().Before(deadline))
	res := make([]solver.Result, len(ins))
	for i, in := range ins {
		r, err := solver.Finish(in, batchEngine{}, p, solver.Outcome{Tour: tours[i], Steps: steps[i], Start: start, Stopped: stopped, Device: label})
		if err != nil {
			return nil, fmt.Errorf("gpu batch: %s: %w", in.Name, err)
		}
		res[i] = r
	}
	return res, nil
}

// batchKicks returns each instance's kicks: the option kicks, else
// biNoBudget with a time limit and batchDefaultKicks without.
func batchKicks(p solver.Params) (int64, error) {
	if v := p.Text("kicks"); v != "" {
		k, err := strconv.ParseInt(v, 10, 64)
		if err != nil || k < 0 {
			return 0, fmt.Errorf("gpu batch: kicks must be a whole number of at least 0, got %q", v)
		}
		return k, nil
	}
	if p.TimeLimit <= 0 {
		return batchDefaultKicks, nil
	}
	return biNoBudget, nil
}

// batchGroups sorts the instances by metric code for the device (groups:
// metric code -> instances) and lists those too small for it, which the
// host solves exactly.
func batchGroups(ins []*solver.Instance) (groups map[int][]int, small []int, err error) {
	groups = map[int][]int{}
	for i, in := range ins {
		if in == nil {
			return nil, nil, fmt.Errorf("gpu batch: instance %d is missing", i)
		}
		if in.N < biMinN {
			small = append(small, i)
			continue
		}
		m, err := device.MetricCode(in)
		if err != nil {
			return nil, nil, fmt.Errorf("gpu batch: %s: %w", in.Name, err)
		}
		if in.N > biMaxN {
			return nil, nil, fmt.Errorf("%w: gpu batch: %s has %d cities, the block search takes at most %d", device.ErrUnsupported, in.Name, in.N, biMaxN)
		}
		groups[m] = append(groups[m], i)
	}
	return groups, small, nil
}

// solveGroups runs the block search on each group of instances in turn,
// the groups sharing the time to deadline in proportion to their
// instances, fills tours and steps, and returns the device's label with
// the counters of all groups.
func solveGroups(ctx context.Context, ins []*solver.Instance, groups map[int][]int, kicks int64, seed uint64, deadline time.Time, out *batchOut) (string, error) {
	ru, err := device.NewRun()
	if err != nil {
		return "", err
	}
	defer ru.Close()
	insts, err := batchStarts(ctx, ins, seed)
	if err != nil {
		return "", err
	}
	var total []uint64
	for m, idx := range groups {
		gdl := deadline
		if !deadline.IsZero() && len(groups) > 1 {
			gdl = time.Now().Add(time.Until(deadline) * time.Duration(len(idx)) / time.Duration(len(ins)))
		}
		c, err := batchGroup(ctx, ru, m, ins, insts, idx, kicks, seed, gdl, out)
		if err != nil {
			return "", err
		}
		total = addCounters(total, c)
	}
	return fmt.Sprintf("%s, a block per instance: %d kicks, %d kept, %.3g moves evaluated", ru.Dev.Label, total[2], total[3], float64(total[0])), nil
}

// batchOpts are the batch's search settings: the pool's, and a walk with
// no shorter tour for 100 kicks restarts from its tour kicked three times,
// because that leaves no instance far above the reference. Measured (H100,
// 10,000 × 100 cities in 2 s, the first 200, batch seeds 1 / 2, mean and
// worst): -0.0032 / -0.0032 % and 0.0 / 0.025 % against -0.0024 /
// -0.0023 % and 0.20 / 0.20 % without; after 20 or 50 kicks 0.20 / 0.17 %
// and 0.0 / 0.24 % at worst.
var batchOpts = biOpts{seg: biDefaults.seg, or3: biDefaults.or3, stall: 100}

// batchDefaultKicks is each search's kicks when neither a time limit nor
// a budget is given.
const batchDefaultKicks = 2000

func addCounters(a, b []uint64) []uint64 {
	if a == nil {
		a = make([]uint64, len(b))
	}
	for i := range b {
		a[i] += b[i]
	}
	return a
}

// batchStarts builds every instance's quadrant candidate lists, its
// greedy start for the first search and randomized nearest-neighbour
// starts for the others (fewer than biMinN cities: none) on all cores.
func batchStarts(ctx context.Context, ins []*solver.Instance, seed uint64) ([]biStart, error) {
	out := make([]biStart, len(ins))
	spread(len(ins), runtime.GOMAXPROCS(0), func() func(int) bool {
		return func(i int) bool {
			if ctx.Err() != nil {
				return false
			}
			in := ins[i]
			if in.N < biMinN {
				return true
			}
			// quadrant candidates: the 200-instance sample above
			// 0.0075 % on average with the nearest
			nb := neighbor.Quadrant(in, biK)
			out[i] = biStart{nb: nb.List, tour: construct.Greedy(in, nb)}
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			for range batchMaxWarps - 1 {
				t, err := construct.RandomizedNearestNeighborContext(ctx, in, rng.IntN(in.N), nb, rng, 0.1)
				if err != nil {
					return false
				}
				out[i].alt = append(out[i].alt, t)
			}
			return true
		}
	})()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	return out, nil
}

// biStart is an instance's candidate lists and start tours.
type biStart struct {
	nb   []int32
	tour []int
	alt  [][]int // the other searches' starts
}

// batchGroup searches the instances idx (one metric) in launches of what
// the device holds at once (batchParts), each a share of the time left; it
// writes their tours and kicks and returns the kernel's counters.
func batchGroup(ctx context.Context, ru *device.Run, metric int, ins []*solver.Instance, st []biStart, idx []int, kicks int64, seed uint64, deadline time.Time, out *batchOut) ([]uint64, error) {
	for _, i := range idx {
		out.tours[i] = st[i].tour
	}
	parts, err := batchParts(ru, metric, ins, idx)
	if err != nil {
		return nil, err
	}
	var total []uint64
	for c, part := range parts {
		if ctx.Err() != nil {
			break
		}
		cdl := deadline
		if !deadline.IsZero() {
			cdl = time.Now().Add(time.Until(deadline) / time.Duration(len(parts)-c))
		}
		ctr, err := batchChunk(ctx, ru, part.layout, ins, st, part.idx, kicks, seed+uint64(c)<<32, cdl, out)
		if err != nil {
			return nil, err
		}
		total = addCounters(total, ctr)
	}
	return total, nil
}

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
	batchMaxWarps    = max(batchTableWarps, batchCoordsWarps)
)

// batchParts cuts idx into launches (cutBatch) with the layouts
// batchPlan gives.
func batchParts(ru *device.Run, metric int, ins []*solver.Instance, idx []int) ([]batchPart[biPlan], error) {
	return cutBatch(idx, func(i int) int { return ins[i].N }, func(n int) (biPlan, int, error) {
		var pl biPlan
		err := ru.Do(func() (err error) { pl, err = batchPlan(ru, metric, n); return err })
		if errors.Is(err, solver.ErrNoTourPool) {
			err = fmt.Errorf("%w: gpu batch: %w", device.ErrUnsupported, err)
		}
		return pl, pl.slots / max(pl.wpb, 1), err
	})
}

// batchPlan lays out instances of at most n cities, a block each: with
// the distance table in shared memory where that keeps as many warps on
// an SM as the coordinates do (about 110 cities), else the coordinates
// (context thread).
func batchPlan(ru *device.Run, metric, n int) (biPlan, error) {
	coords, err := planBlockILS(ru, metric, n, batchCoordsWarps, true, false)
	if err != nil {
		return coords, err
	}
	if table, err := planBlockILS(ru, metric, n, batchTableWarps, true, true); err == nil && table.perSM*table.wpb >= coords.perSM*coords.wpb {
		return table, nil
	}
	return coords, nil
}

// batchChunk runs one chunk of instances on the device until kicks or
// deadline and takes their tours back (validated by the caller's Finish).
func batchChunk(ctx context.Context, ru *device.Run, pl biPlan, ins []*solver.Instance, st []biStart, part []int, kicks int64, seed uint64, deadline time.Time, out *batchOut) ([]uint64, error) {
	insts := make([]biInst, len(part))
	w := pl.wpb // searches an instance
	ti := make([]int, 0, w*len(part))
	var flat []int32
	for k, i := range part {
		insts[k] = biInst{ins[i], st[i].nb}
		for j := range w {
			ti = append(ti, k)
			t := st[i].tour
			if j > 0 && j-1 < len(st[i].alt) {
				t = st[i].alt[j-1]
			}
			flat = append(flat, device.Convert[int32](t)...)
		}
	}
	var s *biSet
	err := ru.Do(func() (err error) {
		if s, err = newBISet(ru, pl, insts, ti); err == nil {
			err = s.put(flat)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	defer ru.Do(func() error { s.free(); return nil })
	var pol *polisher
	var polishFrom time.Time
	merge := w > 1 && mergeWorth(ins, part)
	if merge && !deadline.IsZero() {
		deadline = deadline.Add(-mergeReserve(ins, part, time.Until(deadline)))
		now := time.Now()
		from := time.Duration(float64(deadline.Sub(now)) * batchPolishAt)
		if batchPolishAt > 0 && (deadline.Sub(now)-from)*time.Duration(polishWorkers())/time.Duration(len(part)) >= batchPolishMin {
			polishFrom = now.Add(from)
		}
	}
	defer func() {
		if pol != nil {
			pol.wait()
		}
	}()
	for launch := uint64(0); ctx.Err() == nil; launch++ {
		slice := biSliceFor(deadline)
		if slice <= 0 {
			break
		}
		if err := ru.Do(func() error { return s.launch(kicks, seed*0x9E3779B97F4A7C15+launch, slice, batchOpts) }); err != nil {
			return nil, err
		}
		if s.allKicked(kicks) {
			break
		}
		if pol == nil && !polishFrom.IsZero() && !time.Now().Before(polishFrom) {
			if err := ru.Do(func() error { return s.get(flat) }); err != nil {
				return nil, err
			}
			pol = startPolish(ctx, ins, st, part, splitTours(s, flat, len(part), w), seed, deadline)
		}
	}
	if err := ru.Do(func() error { return s.get(flat) }); err != nil {
		return nil, err
	}
	if pol != nil {
		pol.wait()
	}
	for k, i := range part {
		b := k * w // the shortest of the instance's searches
		out.steps[i] = 0
		for g := k * w; g < (k+1)*w; g++ {
			if s.hLens[g] < s.hLens[b] {
				b = g
			}
			out.steps[i] += s.hKick[g]
		}
		out.tours[i] = device.Convert[int](flat[s.offs[b] : s.offs[b]+s.ns[b]])
	}
	if merge {
		all := splitTours(s, flat, len(part), w)
		if pol != nil {
			for k := range all {
				if pol.tours[k] != nil {
					all[k] = append(all[k], pol.tours[k])
				}
			}
		}
		mergeAll(ins, st, part, all, seed, out)
	}
	return s.hCtr, nil
}

// exactSmall returns an optimal tour of an instance of fewer than biMinN
// cities by trying every order of the cities after city 0.
func exactSmall(in *solver.Instance) []int {
	n := in.N
	t := make([]int, n)
	for i := range t {
		t[i] = i
	}
	if n <= 3 {
		return t
	}
	best := append([]int(nil), t...)
	bestLen := solver.TourLength(in, t)
	var permute func(k int)
	permute = func(k int) {
		if k == n {
			if l := solver.TourLength(in, t); l < bestLen {
				bestLen = l
				copy(best, t)
			}
			return
		}
		for i := k; i < n; i++ {
			t[k], t[i] = t[i], t[k]
			permute(k + 1)
			t[k], t[i] = t[i], t[k]
		}
	}
	permute(1)
	return best
}

// batchEngine names the batch search in its results.
type batchEngine struct{}

func (batchEngine) Name() string    { return AlgoBatchILS }
func (batchEngine) Backend() string { return solver.BackendGPU }
func (batchEngine) Describe() string {
	return "iterated 2-opt + Or-opt search, a block of independent searches per instance, many instances at once"
}
func (batchEngine) Available() error { return device.Available() }
func (batchEngine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, _ chan solver.Snapshot) (solver.Result, error) {
	r, err := SolveBatch(ctx, []*solver.Instance{in}, p)
	if err != nil {
		return solver.Result{}, err
	}
	return r[0], nil
}
