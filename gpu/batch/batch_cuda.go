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
// batch's chunks out between the GPUs): Prepare, Search on a run of that
// device, then Finish, the instances numbered by their place in ins.
func Solve(ctx context.Context, ins []*solver.Instance, p solver.Params) ([]solver.Result, error) {
	return solveWith(ctx, ins, p, defaultConfig())
}

// Prepared is a chunk of a batch ready for a GPU: its instances, their
// candidate lists and start tours built on the cores (Prepare), searched
// on a GPU (Search), then merged and checked on the cores (Finish), so
// that the cores make the next chunk ready while a GPU searches this one.
//
// A block of blockils.cu searches each instance, its warps independent
// searches, one from the instance's greedy tour, the others from
// randomized nearest-neighbour tours (up to about 110 cities with the
// instance's distance table in shared memory); from mergeMinN cities the
// host merges each instance's tours (partition crossover, then EAX:
// merge.go). The budget is work: each search makes the kicks option's
// kicks, by default batchKicksFor its instance's size, its kicks drawn
// from the stream of its instance's id, so that an instance's tour
// depends on its id, the seed and the budget alone, not on the chunk it
// came in nor on how the GPU's launches cut its kicks. p.TimeLimit from
// the search's start, its context's deadline (Prepared.Search), is a cap; kicks=0 searches until
// it instead, and then a time limit that leaves each instance enough core
// time has the cores search the merged tours of mid-run with CPU auto
// beside the GPU (polish_cuda.go). A result's Steps are the kicks of all
// its GPU searches. Instances of fewer than 10 cities are solved exactly
// on the host. Every result went through solver.Finish. An instance the
// GPU cannot take (no coordinates, another metric, more cities than a
// block's shared memory holds) makes an error wrapping ErrUnsupported
// that names it; ctx's end stops the search and keeps the tours so far.
type Prepared struct {
	run
	groups map[int][]int
	small  []int
	label  string
	start  time.Time
}

// Prepare builds the instances' candidate lists and start tours on all
// cores; ids number the instances (their places in the whole batch).
func Prepare(ctx context.Context, ins []*solver.Instance, ids []uint64, p solver.Params) (*Prepared, error) {
	return prepareWith(ctx, ins, ids, p, defaultConfig())
}

func prepareWith(ctx context.Context, ins []*solver.Instance, ids []uint64, p solver.Params, cfg config) (*Prepared, error) {
	if len(ids) != len(ins) {
		return nil, fmt.Errorf("gpu batch: %d ids for %d instances", len(ids), len(ins))
	}
	groups, small, err := batchGroups(ins)
	if err != nil {
		return nil, err
	}
	pr := &Prepared{run: run{ctx: ctx, ins: ins, ids: ids, p: p, seed: p.Seed, cfg: cfg,
		out: &batchOut{tours: make([][]int, len(ins)), steps: make([]int64, len(ins))}},
		groups: groups, small: small, label: "cpu (fewer than 10 cities)"}
	if pr.budgets, pr.kicks, err = batchBudgets(ins, p); err != nil {
		return nil, err
	}
	if len(groups) > 0 {
		if pr.st, err = batchStarts(ctx, ins, ids, p.Seed, pr.budgets != nil); err != nil {
			return nil, err
		}
	}
	return pr, nil
}

// Join makes one chunk of prepared parts (of the same params), their
// instances in the parts' order, as Prepare of all of them at once does,
// so that the cores prepare each instance as it comes and the chunks are
// cut once the GPU tells what it holds.
func Join(parts []*Prepared) *Prepared {
	if len(parts) == 1 {
		return parts[0]
	}
	q := parts[0]
	pr := &Prepared{run: run{ctx: q.ctx, p: q.p, seed: q.seed, cfg: q.cfg}, groups: map[int][]int{}, label: q.label}
	for _, x := range parts {
		off := len(pr.ins)
		pr.ins, pr.ids = append(pr.ins, x.ins...), append(pr.ids, x.ids...)
		for m, idx := range x.groups {
			for _, i := range idx {
				pr.groups[m] = append(pr.groups[m], off+i)
			}
		}
		for _, i := range x.small {
			pr.small = append(pr.small, off+i)
		}
		st := x.st
		if st == nil { // none of x's instances is searched on the GPU
			st = make([]biStart, len(x.ins))
		}
		pr.st, pr.budgets = append(pr.st, st...), append(pr.budgets, x.budgets...)
		pr.kicks = max(pr.kicks, x.kicks)
	}
	if len(pr.groups) == 0 {
		pr.st = nil
	}
	pr.out = &batchOut{tours: make([][]int, len(pr.ins)), steps: make([]int64, len(pr.ins))}
	return pr
}

// Search searches the chunk's instances on ru's GPU.
func (pr *Prepared) Search(ctx context.Context, ru *device.Run) error {
	pr.start = time.Now()
	// the chunk's run starts here: its time limit becomes its context's
	// deadline, which Finish ends
	ctx, pr.stop = solver.WithTimeLimit(ctx, pr.p.TimeLimit)
	pr.ctx = ctx
	pr.deadline = solver.DeadlineOf(ctx, pr.start)
	if pr.kicks == blockils.NoBudget && pr.deadline.IsZero() {
		return errors.New("gpu batch: kicks=0 searches until the time limit: give one")
	}
	if len(pr.groups) == 0 {
		return nil
	}
	var err error
	pr.label, err = pr.solveGroups(ru, pr.groups, pr.deadline)
	return err
}

// Finish merges what the search left to merge, solves the smallest
// instances exactly and returns every instance's result, each through
// solver.Finish.
func (pr *Prepared) Finish() ([]solver.Result, error) {
	for _, m := range pr.merges {
		pr.mergeAll(m.part, m.all, pr.seed, pr.deadline)
	}
	pr.merges = nil
	ins, tours, steps := pr.ins, pr.out.tours, pr.out.steps
	for _, i := range pr.small {
		tours[i] = exactSmall(ins[i])
	}
	// a search without a kick budget ends by its time limit alone, though
	// its end's merge may finish before the deadline
	var reason solver.StopReason
	switch {
	case errors.Is(context.Cause(pr.ctx), solver.ErrTimeLimit):
		reason = solver.StopTime
	case pr.ctx.Err() != nil:
		reason = solver.StopInterrupt
	case !pr.deadline.IsZero() && (pr.kicks == blockils.NoBudget || !time.Now().Before(pr.deadline)):
		reason = solver.StopTime
	}
	start := pr.start
	if start.IsZero() {
		start = time.Now()
	}
	res := make([]solver.Result, len(ins))
	for i, in := range ins {
		q := pr.p // with the instance's kicks a search, the work it was given
		if pr.budgets != nil {
			q = q.WithExtra("kicks", strconv.FormatInt(pr.budgets[i], 10))
		}
		r, err := solver.Finish(in, batchEngine{}, q, solver.Outcome{Tour: tours[i], Steps: steps[i], Start: start, Stopped: reason != "", Reason: reason, Device: pr.label})
		if err != nil {
			return nil, fmt.Errorf("gpu batch: %s: %w", in.Name, err)
		}
		res[i] = r
	}
	return res, nil
}

// Capacity is how many instances like in ru's GPU searches at once under
// p (0: none, an instance it does not take).
func Capacity(ru *device.Run, in *solver.Instance, p solver.Params) int {
	m, err := device.MetricCode(in)
	if err != nil || in.N < blockils.BatchMinN || in.N > blockils.BatchMaxN {
		return 0
	}
	var pl blockils.BatchPlan
	if ru.Do(func() (err error) { pl, err = blockils.PlanBatch(ru, m, in.N); return err }) != nil {
		return 0
	}
	return pl.Instances() / batchCopies(in.N, batchByWork(p))
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

// run is one chunk's instances, their ids, starts and budgets, what it
// fills and how.
type run struct {
	ctx      context.Context
	ins      []*solver.Instance
	ids      []uint64
	st       []biStart
	p        solver.Params
	kicks    int64   // the most kicks of a search (blockils.NoBudget: by time)
	budgets  []int64 // each instance's kicks a search (nil: by time)
	seed     uint64
	deadline time.Time
	stop     context.CancelFunc // ends the context Search made (nil: none)
	cfg      config
	out      *batchOut
	merges   []pendingMerge // the merges Finish makes
}

// pendingMerge is a launch's instances and their tours, to merge.
type pendingMerge struct {
	part []int
	all  [][][]int32
}

// solveWith is Solve with the config cfg.
func solveWith(ctx context.Context, ins []*solver.Instance, p solver.Params, cfg config) ([]solver.Result, error) {
	ids := make([]uint64, len(ins))
	for i := range ids {
		ids[i] = uint64(i)
	}
	pr, err := prepareWith(ctx, ins, ids, p, cfg)
	if err != nil {
		return nil, err
	}
	if len(pr.groups) > 0 {
		ru, err := device.NewRunOf(p)
		if err != nil {
			return nil, err
		}
		defer ru.Close()
		if err := pr.Search(ctx, ru); err != nil {
			return nil, err
		}
	} else {
		pr.ctx = ctx
	}
	return pr.Finish()
}

// batchKicksPerCity is a search's default kicks for each city of its
// instance, at least batchMinKicks: 500 for 100 cities, where the batch
// of 10,000 uniform 100-city instances ends a mean -0.007 % against the
// better of two 5,000-kick CPU runs of each of the first 200, none above
// it (4-H200 host). From mergeMinN cities a search makes
// batchMergedKicksPerCity, in each of batchMergedCopies blocks of 4
// searches, and keeps batchRingWork stalled tours: a population of 64
// tours of a 1,000-city instance from 32 starts. Measured (4-H200 host,
// 1,000 × 1,000 cities on four GPUs, the first 24 against one 10-s CPU
// auto run each): +0.005 % (at most +0.062 %) in 19.4 s, against +0.103
// % (at most +0.184 %) in 13.1 s for one block of 10 kicks a city and 32
// stalled tours a search, whose longer evolutions (10 or 30 idle
// generations) ended at the same tours; 16 blocks of 1 kick a city and 2
// stalled tours +0.001 % in 23.6 s, 8 of 1 and 8 +0.034 % in 12.8 s, 4 of
// 3 and 8 +0.047 % in 17.8 s.
const (
	batchKicksPerCity       = 5
	batchMergedKicksPerCity = 2
	batchMinKicks           = 100
)

// batchMergedCopies is how many blocks search an instance of at least
// mergeMinN cities in a batch by work, each its searches from start tours
// of its own, so that the merge evolves a population of many lineages
// rather than a few walks' stalls.
const batchMergedCopies = 8

// batchByWork reports whether a batch under p searches by work: its
// kicks option is not 0 (batchBudgets).
func batchByWork(p solver.Params) bool {
	k, err := strconv.ParseInt(p.Text("kicks"), 10, 64)
	return err != nil || k != 0
}

// batchCopies is how many blocks search an n-city instance: byWork (a
// kick budget), from mergeMinN cities, batchMergedCopies; else one.
func batchCopies(n int, byWork bool) int {
	if byWork && n >= mergeMinN {
		return batchMergedCopies
	}
	return 1
}

// batchKicksFor is the default kicks of each search of an n-city
// instance.
func batchKicksFor(n int) int64 {
	if n >= mergeMinN {
		return batchMergedKicksPerCity * int64(n)
	}
	return max(batchMinKicks, batchKicksPerCity*int64(n))
}

// batchBudgets returns each instance's kicks a search and the most of
// them: the option kicks for all (0: by time, budgets nil and
// blockils.NoBudget), else batchKicksFor each one's size.
func batchBudgets(ins []*solver.Instance, p solver.Params) ([]int64, int64, error) {
	given := int64(-1)
	if v := p.Text("kicks"); v != "" {
		k, err := strconv.ParseInt(v, 10, 64)
		if err != nil || k < 0 {
			return nil, 0, fmt.Errorf("gpu batch: kicks must be a whole number of at least 0, got %q", v)
		}
		if k == 0 {
			return nil, blockils.NoBudget, nil
		}
		given = k
	}
	budgets := make([]int64, len(ins))
	var most int64
	for i, in := range ins {
		budgets[i] = given
		if given < 0 {
			budgets[i] = batchKicksFor(in.N)
		}
		most = max(most, budgets[i])
	}
	return budgets, most, nil
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

// solveGroups runs the block search on ru's GPU on each group of
// instances in turn, the groups sharing the time to deadline in
// proportion to their instances, fills tours and steps, and returns the
// device's label with the counters of all groups.
func (r *run) solveGroups(ru *device.Run, groups map[int][]int, deadline time.Time) (string, error) {
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
// starts for the others, drawn from the stream of its id (fewer than
// blockils.BatchMinN cities: none), on all cores.
func batchStarts(ctx context.Context, ins []*solver.Instance, ids []uint64, seed uint64, byWork bool) ([]biStart, error) {
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
			rng := rand.New(rand.NewPCG(seed, ids[i]))
			for range blockils.BatchMaxSearches*batchCopies(in.N, byWork) - 1 {
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
	parts, err := batchParts(ru, metric, r.ins, idx, r.budgets != nil)
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
func batchParts(ru *device.Run, metric int, ins []*solver.Instance, idx []int, byWork bool) ([]batchPart[blockils.BatchPlan], error) {
	return cutBatch(idx, func(i int) int { return ins[i].N }, func(n int) (blockils.BatchPlan, int, int, error) {
		var pl blockils.BatchPlan
		err := ru.Do(func() (err error) { pl, err = blockils.PlanBatch(ru, metric, n); return err })
		if errors.Is(err, solver.ErrNoTourPool) {
			err = fmt.Errorf("%w: gpu batch: %w", device.ErrUnsupported, err)
		}
		return pl, max(1, pl.Instances()/batchCopies(n, byWork)), pl.Searches(), err
	})
}

// copies is how many blocks search instance i (batchCopies).
func (r *run) copies(i int) int { return batchCopies(r.ins[i].N, r.budgets != nil) }

// openChunk puts the instances part on the device under pl, each as
// r.copies blocks, their searches' starts the greedy tour, then the
// others in turn; a copy's kicks are drawn from a stream of its own.
func (r *run) openChunk(ru *device.Run, pl blockils.BatchPlan, part []int) (*blockils.Chunk, error) {
	var ins []*solver.Instance
	var nb [][]int32
	var starts [][][]int
	var ids []uint64
	var budgets []int64
	for _, i := range part {
		for c := range r.copies(i) {
			ins, nb = append(ins, r.ins[i]), append(nb, r.st[i].nb)
			var st [][]int
			for j := range pl.Searches() {
				t := r.st[i].tour
				if q := c*pl.Searches() + j; q > 0 && q-1 < len(r.st[i].alt) {
					t = r.st[i].alt[q-1]
				}
				st = append(st, t)
			}
			starts = append(starts, st)
			if r.budgets != nil {
				ids, budgets = append(ids, r.ids[i]*uint64(r.copies(i))+uint64(c)), append(budgets, r.budgets[i])
			}
		}
	}
	ring := 0
	switch {
	case pl.Searches() < 2 || !mergeWorth(r.ins, part):
	case r.budgets != nil:
		ring = batchRingWork
	default:
		ring = batchRing
	}
	var work *blockils.Work
	if r.budgets != nil {
		work = &blockils.Work{IDs: ids, Budgets: budgets}
	}
	return blockils.OpenChunk(ru, pl, ins, nb, starts, ring, work)
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

// byInstance gathers the tours of each instance of part's copies, in a
// chunk's order (chunkTours), into one list an instance.
func (r *run) byInstance(part []int, all [][][]int32) [][][]int32 {
	out := make([][][]int32, len(part))
	e := 0
	for k, i := range part {
		for range r.copies(i) {
			out[k] = append(out[k], all[e]...)
			e++
		}
	}
	return out
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
	timed := r.budgets == nil
	polishFrom, merge := time.Time{}, pl.Searches() > 1 && mergeWorth(r.ins, part)
	if timed {
		polishFrom, deadline, merge = r.polishFrom(part, pl.Searches(), deadline)
	}
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
		ls := r.seed // work mode: every launch draws on the searches' own streams
		if timed {
			ls = seed*0x9E3779B97F4A7C15 + launch
		}
		if err := ch.Launch(r.kicks, ls, slice, r.cfg.search); err != nil {
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
			pol = r.startPolish(part, r.byInstance(part, all), seed, deadline)
		}
	}
	allC, err := chunkTours(ch)
	if err != nil {
		return nil, err
	}
	if pol != nil {
		pol.wait()
	}
	all := r.byInstance(part, allC)
	e := 0 // the copy's place in the chunk
	for _, i := range part {
		var best []int32
		var bl, steps int64
		for range r.copies(i) {
			b, l, kicks := ch.Shortest(e)
			steps += kicks
			if best == nil || l < bl {
				best, bl = allC[e][b], l
			}
			e++
		}
		r.out.steps[i] = steps
		r.out.tours[i] = device.Convert[int](best)
	}
	switch {
	case merge && !timed:
		r.merges = append(r.merges, pendingMerge{part, all}) // on the cores, while the GPU goes on
	case merge:
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
