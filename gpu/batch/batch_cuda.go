//go:build cuda

package batch

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"strconv"
	"time"

	"github.com/tsplab/tsplab/gpu/blockils"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// Solve solves many small instances at once on one GPU (the first p's
// gpus option selects, device 0 when it gives none; tsp batch shares a
// batch's chunks out between the GPUs), a block of
// blockils.cu per instance, its warps independent searches, one from the
// instance's greedy tour, the others from randomized nearest-neighbour
// tours (up to about 110 cities with the instance's distance table in
// shared memory); at the end the host merges each instance's tours
// (partition crossover, then EAX: merge.go), and on a time limit that
// leaves each instance enough core time its cores search the merged
// tours of mid-run with CPU auto beside the GPU, the end merging that
// tour in too (polish_cuda.go). p's deadline (p.TimeLimit from the
// start without one) bounds the whole batch (every instance searches the
// while; batches larger than the device holds at once run in turns,
// sharing the time), and the kicks option bounds each search's kicks
// (default: until the deadline; without one, batchDefaultKicks); a
// result's Steps are the kicks of all its GPU searches. Instances of
// fewer than 10 cities are solved exactly on the host. Every result went
// through solver.Finish. An instance the GPU cannot take (no coordinates,
// another metric, more cities than a block's shared memory holds) makes
// an error wrapping ErrUnsupported that names it; ctx's end stops the
// search and returns the tours so far.
func Solve(ctx context.Context, ins []*solver.Instance, p solver.Params) ([]solver.Result, error) {
	return solveWith(ctx, ins, p, defaultConfig())
}

// config is how a batch searches: the GPU's settings, the share of a
// chunk's time after which the polish begins (0: the end's merge alone),
// and log, when set, told each instance's shortest GPU tour's length and
// the merged tour's at the end (the measurements' hook).
type config struct {
	search   blockils.BatchSearch
	polishAt float64
	log      func(i int, gpu, merged int64)
}

// defaultConfig is the batch's config.
func defaultConfig() config {
	return config{search: blockils.DefaultBatchSearch(), polishAt: batchPolishAt}
}

// run is one batch's instances, their starts, what it fills and how.
type run struct {
	ctx   context.Context
	ins   []*solver.Instance
	st    []biStart
	p     solver.Params // the batch's params: its gpus option names the one device it runs on
	kicks int64
	seed  uint64
	cfg   config
	out   *batchOut
}

// solveWith is Solve with the config cfg.
func solveWith(ctx context.Context, ins []*solver.Instance, p solver.Params, cfg config) ([]solver.Result, error) {
	start := time.Now()
	deadline := p.WithDeadline(start).Deadline
	kicks, err := batchKicks(p, !deadline.IsZero())
	if err != nil {
		return nil, err
	}
	groups, small, err := batchGroups(ins)
	if err != nil {
		return nil, err
	}
	r := &run{ctx: ctx, ins: ins, p: p, kicks: kicks, seed: p.Seed, cfg: cfg,
		out: &batchOut{tours: make([][]int, len(ins)), steps: make([]int64, len(ins))}}
	tours, steps := r.out.tours, r.out.steps
	label := "cpu (fewer than 10 cities)"
	if len(groups) > 0 {
		if label, err = r.solveGroups(groups, deadline); err != nil {
			return nil, err
		}
	}
	for _, i := range small {
		tours[i] = exactSmall(ins[i])
	}
	// a timed batch without a kick budget ends by its time limit alone,
	// though its end's merge may finish before the deadline
	var reason solver.StopReason
	switch {
	case ctx.Err() != nil:
		reason = solver.StopInterrupt
	case !deadline.IsZero() && (kicks == blockils.NoBudget || !time.Now().Before(deadline)):
		reason = solver.StopTime
	}
	res := make([]solver.Result, len(ins))
	for i, in := range ins {
		r, err := solver.Finish(in, batchEngine{}, p, solver.Outcome{Tour: tours[i], Steps: steps[i], Start: start, Stopped: reason != "", Reason: reason, Device: label})
		if err != nil {
			return nil, fmt.Errorf("gpu batch: %s: %w", in.Name, err)
		}
		res[i] = r
	}
	return res, nil
}

// batchKicks returns each instance's kicks: the option kicks, else
// blockils.NoBudget in a timed batch and batchDefaultKicks in another.
func batchKicks(p solver.Params, timed bool) (int64, error) {
	if v := p.Text("kicks"); v != "" {
		k, err := strconv.ParseInt(v, 10, 64)
		if err != nil || k < 0 {
			return 0, fmt.Errorf("gpu batch: kicks must be a whole number of at least 0, got %q", v)
		}
		return k, nil
	}
	if !timed {
		return batchDefaultKicks, nil
	}
	return blockils.NoBudget, nil
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
		if in.N < blockils.BatchMinN {
			small = append(small, i)
			continue
		}
		m, err := device.MetricCode(in)
		if err != nil {
			return nil, nil, fmt.Errorf("gpu batch: %s: %w", in.Name, err)
		}
		if in.N > blockils.BatchMaxN {
			return nil, nil, fmt.Errorf("%w: gpu batch: %s has %d cities, the block search takes at most %d", device.ErrUnsupported, in.Name, in.N, blockils.BatchMaxN)
		}
		groups[m] = append(groups[m], i)
	}
	return groups, small, nil
}

// solveGroups runs the block search on each group of instances in turn,
// the groups sharing the time to deadline in proportion to their
// instances, fills tours and steps, and returns the device's label with
// the counters of all groups.
func (r *run) solveGroups(groups map[int][]int, deadline time.Time) (string, error) {
	ru, err := device.NewRunOf(r.p)
	if err != nil {
		return "", err
	}
	defer ru.Close()
	if r.st, err = batchStarts(r.ctx, r.ins, r.seed); err != nil {
		return "", err
	}
	var total []uint64
	for m, idx := range groups {
		gdl := deadline
		if !deadline.IsZero() && len(groups) > 1 {
			gdl = time.Now().Add(time.Until(deadline) * time.Duration(len(idx)) / time.Duration(len(r.ins)))
		}
		c, err := r.batchGroup(ru, m, idx, gdl)
		if err != nil {
			return "", err
		}
		total = addCounters(total, c)
	}
	return fmt.Sprintf("%s, a block per instance: %d kicks, %d kept, %.3g moves evaluated", ru.Dev.Label, total[2], total[3], float64(total[0])), nil
}

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
// starts for the others (fewer than blockils.BatchMinN cities: none) on all cores.
func batchStarts(ctx context.Context, ins []*solver.Instance, seed uint64) ([]biStart, error) {
	out := make([]biStart, len(ins))
	spread(len(ins), runtime.GOMAXPROCS(0), func() func(int) bool {
		return func(i int) bool {
			if ctx.Err() != nil {
				return false
			}
			in := ins[i]
			if in.N < blockils.BatchMinN {
				return true
			}
			// quadrant candidates: the 200-instance sample above
			// 0.0075 % on average with the nearest
			nb := neighbor.Quadrant(in, blockils.BatchK)
			out[i] = biStart{nb: nb.List, tour: construct.Greedy(in, nb)}
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			for range blockils.BatchMaxSearches - 1 {
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
func (r *run) batchGroup(ru *device.Run, metric int, idx []int, deadline time.Time) ([]uint64, error) {
	for _, i := range idx {
		r.out.tours[i] = r.st[i].tour
	}
	parts, err := batchParts(ru, metric, r.ins, idx)
	if err != nil {
		return nil, err
	}
	var total []uint64
	for c, part := range parts {
		if r.ctx.Err() != nil {
			break
		}
		cdl := deadline
		if !deadline.IsZero() {
			cdl = time.Now().Add(time.Until(deadline) / time.Duration(len(parts)-c))
		}
		ctr, err := r.batchChunk(ru, part.layout, part.idx, r.seed+uint64(c)<<32, cdl)
		if err != nil {
			return nil, err
		}
		total = addCounters(total, ctr)
	}
	return total, nil
}

// batchParts cuts idx into launches (cutBatch) with the layouts
// blockils.PlanBatch gives.
func batchParts(ru *device.Run, metric int, ins []*solver.Instance, idx []int) ([]batchPart[blockils.BatchPlan], error) {
	return cutBatch(idx, func(i int) int { return ins[i].N }, func(n int) (blockils.BatchPlan, int, error) {
		var pl blockils.BatchPlan
		err := ru.Do(func() (err error) { pl, err = blockils.PlanBatch(ru, metric, n); return err })
		if errors.Is(err, solver.ErrNoTourPool) {
			err = fmt.Errorf("%w: gpu batch: %w", device.ErrUnsupported, err)
		}
		return pl, pl.Instances(), err
	})
}

// openChunk puts the instances part on the device under pl, each with
// its searches' starts: the greedy tour, then the others.
func (r *run) openChunk(ru *device.Run, pl blockils.BatchPlan, part []int) (*blockils.Chunk, error) {
	ins, nb, starts := make([]*solver.Instance, len(part)), make([][]int32, len(part)), make([][][]int, len(part))
	for k, i := range part {
		ins[k], nb[k] = r.ins[i], r.st[i].nb
		for j := range pl.Searches() {
			t := r.st[i].tour
			if j > 0 && j-1 < len(r.st[i].alt) {
				t = r.st[i].alt[j-1]
			}
			starts[k] = append(starts[k], t)
		}
	}
	ring := 0
	if pl.Searches() > 1 && mergeWorth(r.ins, part) {
		ring = batchRing
	}
	return blockils.OpenChunk(ru, pl, ins, nb, starts, ring)
}

// chunkTours downloads every instance's searches' tours, then the tours
// their walks stalled at.
func chunkTours(ch *blockils.Chunk) ([][][]int32, error) {
	all, err := ch.Tours()
	if err != nil {
		return nil, err
	}
	stalled, err := ch.Stalled()
	if err != nil {
		return nil, err
	}
	for k := range all {
		all[k] = append(all[k], stalled[k]...)
	}
	return all, nil
}

// polishFrom is when a chunk of part that ends at deadline hands its
// tours to the polish (zero: never), and the deadline of its searches:
// the end's merge, where worth it, takes its time off the deadline.
func (r *run) polishFrom(part []int, w int, deadline time.Time) (time.Time, time.Time, bool) {
	merge := w > 1 && mergeWorth(r.ins, part)
	if !merge || deadline.IsZero() {
		return time.Time{}, deadline, merge
	}
	deadline = deadline.Add(-mergeReserve(r.ins, part, time.Until(deadline)))
	now := time.Now()
	from := time.Duration(float64(deadline.Sub(now)) * r.cfg.polishAt)
	if r.cfg.polishAt > 0 && (deadline.Sub(now)-from)*time.Duration(polishWorkers())/time.Duration(len(part)) >= batchPolishMin {
		return now.Add(from), deadline, true
	}
	return time.Time{}, deadline, true
}

// batchChunk runs one chunk of instances on the device until the kicks or
// deadline and takes their tours back (validated by the caller's Finish).
func (r *run) batchChunk(ru *device.Run, pl blockils.BatchPlan, part []int, seed uint64, deadline time.Time) ([]uint64, error) {
	ch, err := r.openChunk(ru, pl, part)
	if err != nil {
		return nil, err
	}
	defer ch.Close()
	var pol *polisher
	end := deadline
	polishFrom, deadline, merge := r.polishFrom(part, pl.Searches(), deadline)
	defer func() {
		if pol != nil {
			pol.wait()
		}
	}()
	for launch := uint64(0); r.ctx.Err() == nil; launch++ {
		slice := blockils.SliceFor(deadline)
		if slice <= 0 {
			break
		}
		if err := ch.Launch(r.kicks, seed*0x9E3779B97F4A7C15+launch, slice, r.cfg.search); err != nil {
			return nil, err
		}
		if ch.AllKicked(r.kicks) {
			break
		}
		if pol == nil && !polishFrom.IsZero() && !time.Now().Before(polishFrom) {
			all, err := chunkTours(ch)
			if err != nil {
				return nil, err
			}
			pol = r.startPolish(part, all, seed, deadline)
		}
	}
	all, err := chunkTours(ch)
	if err != nil {
		return nil, err
	}
	if pol != nil {
		pol.wait()
	}
	for k, i := range part {
		b, kicks := ch.Shortest(k)
		r.out.steps[i] = kicks
		r.out.tours[i] = device.Convert[int](all[k][b])
	}
	if merge {
		if pol != nil {
			for k := range all {
				if pol.tours[k] != nil {
					all[k] = append(all[k], pol.tours[k])
				}
			}
		}
		r.mergeAll(part, all, seed, end)
	}
	return ch.Counters(), nil
}

// exactSmall returns an optimal tour of an instance of fewer than blockils.BatchMinN
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

func (batchEngine) Name() string    { return blockils.AlgoBatchILS }
func (batchEngine) Backend() string { return solver.BackendGPU }
func (batchEngine) Describe() string {
	return "iterated 2-opt + Or-opt search, a block of independent searches per instance, many instances at once"
}
func (batchEngine) Available() error { return device.Available() }
func (batchEngine) Solve(ctx context.Context, in *solver.Instance, p solver.Params, _ chan solver.Snapshot) (solver.Result, error) {
	r, err := Solve(ctx, []*solver.Instance{in}, p)
	if err != nil {
		return solver.Result{}, err
	}
	return r[0], nil
}
