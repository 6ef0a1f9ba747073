package batch

import (
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/recomb"
)

// mergeMinN is the fewest cities of a batch's instances whose searches'
// tours are merged: 100-city searches end at the same tours, and their
// merge (about 6 µs a city on a core) took a tenth of a 2-s batch from the
// GPU for nothing (H100 host, 10,000 × 100 cities: -0.0021 % with one over
// 0.10 % against -0.0032 % with none).
const mergeMinN = 200

// mergeWorth reports whether the instances of part are worth the merge:
// the largest has mergeMinN cities.
func mergeWorth(ins []*solver.Instance, part []int) bool {
	for _, i := range part {
		if ins[i].N >= mergeMinN {
			return true
		}
	}
	return false
}

// batchRing is the tours of its stalled walks each search of an instance
// worth the merge keeps (the last ones), for the merge's population, in a
// batch by time, whose merge has a share of the time: 16 were behind.
const batchRing = 8

// A batch by work keeps batchRingWork stalled tours a search (with
// batchMergedCopies blocks an instance, a population of 64 tours: the
// figures at batchKicksPerCity) and evolves it until evolveStaleWork
// generations in a row gain nothing, because its merge has no deadline
// and runs on the cores while the GPUs search the next chunks. Measured
// with one block an instance (2-H200 host, 32 cores, 1,000 × 1,000 cities,
// the first 24 against one 10-s CPU auto run each): 3 idle generations
// with 32 stalled tours a search 0.153 % in 16.6 s against 0.228 % with 8.
const (
	batchRingWork   = 4
	evolveStaleWork = 3
)

// mergeReserve is the time the end's merge of part's tours is given on
// all cores, at most a fifth of left: 100 µs a city of the instances, so
// that a population of 36 tours of 1,000 cities (4 searches' and 8
// stalled tours of each; 49 ms on one core of the 2-core development
// host) evolves until it converges. Measured (2-H200 host, 1,000 × 1,000
// cities in 25 s, BenchmarkBatch, batch seeds 1 and 2): 0.103 % above
// 10-s CPU auto in 24.1 s, against 0.107 % in 25.05 s with a tenth and 50
// µs a city (another call), and 0.111 % keeping 16 stalled tours a
// search.
func mergeReserve(ins []*solver.Instance, part []int, left time.Duration) time.Duration {
	var cities int
	for _, i := range part {
		cities += ins[i].N
	}
	return min(left/5, time.Duration(cities)*100*time.Microsecond/time.Duration(runtime.GOMAXPROCS(0)))
}

// evolveMinTours is the fewest tours mergeTours evolves as a population:
// fewer (a block's searches alone) give EAX too few edges to assemble.
const evolveMinTours = 8

// evolveMaxGens is the most generations of a population's evolution for
// each generation in a row without gain that ends it.
const evolveMaxGens = 30

// mergeTours merges tours of one instance into one no longer than the
// shortest: the shortest crossed with each other by partition crossover,
// then, from evolveMinTours tours, all of them evolved by EAX with the
// child in the shortest's place (evolve: until stale generations in a row
// gain nothing, or until when not zero), else
// EAX children of the child with each other while one is shorter; EAX
// joins on the candidate lists nb (k a city).
func mergeTours(in *solver.Instance, tours [][]int32, nb []int32, k int, g *recomb.GPX, e *recomb.EAX, seed uint64, stale int, until time.Time) ([]int32, int64) {
	lens := make([]int64, len(tours))
	b := 0
	for j, t := range tours {
		lens[j] = solver.TourLength(in, t)
		if lens[j] < lens[b] {
			b = j
		}
	}
	child, cl := slices.Clone(tours[b]), lens[b]
	if len(tours) < 2 || in.N < 8 {
		return child, cl
	}
	buf := make([]int32, len(child))
	for j, t := range tours {
		if j == b {
			continue
		}
		if st := g.Cross(in, child, t, cl, lens[j], buf); st.Length < cl {
			child, buf, cl = buf, child, st.Length
		}
	}
	e.NB, e.K, e.Fixed = nb, k, in.FixedEdges
	if len(tours) >= evolveMinTours {
		return evolve(in, tours, lens, b, child, cl, e, seed, stale, until)
	}
	for round := uint64(0); round < 8; round++ {
		better := false
		for j, t := range tours {
			if j == b {
				continue
			}
			if st := e.Improve(in, child, t, cl, seed*31+round*7+uint64(j), buf); st.Length < cl {
				child, buf, cl = buf, child, st.Length
				better = true
			}
		}
		if !better {
			break
		}
	}
	return child, cl
}

// evolve evolves a population of copies of tours (lens their lengths),
// child of length cl in the place of tour b, by EAX: each generation
// every member, paired with the next in a random order, takes the pair's
// child when shorter, in the manner of Nagata and Kobayashi's GA, until
// stale generations in a row gain nothing (at most evolveMaxGens × stale
// generations) or until (zero: none) passes; it returns the shortest
// member.
func evolve(in *solver.Instance, tours [][]int32, lens []int64, b int, child []int32, cl int64, e *recomb.EAX, seed uint64, stale int, until time.Time) ([]int32, int64) {
	pop, pl := make([][]int32, len(tours)), slices.Clone(lens)
	for j, t := range tours {
		pop[j] = slices.Clone(t)
	}
	pop[b], pl[b] = child, cl
	buf := make([]int32, in.N)
	r := rand.New(rand.NewPCG(seed, 0x65766f6c))
	idle := 0 // generations in a row without a shorter member
	for gen := 0; gen < evolveMaxGens*stale && idle < stale && (until.IsZero() || time.Now().Before(until)); gen++ {
		better := false
		perm := r.Perm(len(pop))
		for i, a := range perm {
			o := perm[(i+1)%len(perm)]
			if st := e.Improve(in, pop[a], pop[o], pl[a], seed*31+uint64(gen)<<16+uint64(i), buf); st.Length < pl[a] {
				pop[a], buf, pl[a] = buf, pop[a], st.Length
				better = true
			}
		}
		if idle++; better {
			idle = 0
		}
	}
	best := slices.Index(pl, slices.Min(pl))
	return pop[best], pl[best]
}

// spread hands 0..count-1 out to workers goroutines (at most count), the
// next k to whichever is free; each goroutine takes a func of its own
// from worker (its scratch state with it), which returns false to end
// that goroutine. It returns a func that waits for all of them.
func spread(count, workers int, worker func() func(k int) bool) (wait func()) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(min(workers, count), 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			f := worker()
			for {
				k := int(next.Add(1) - 1)
				if k >= count || !f(k) {
					return
				}
			}
		}()
	}
	return wg.Wait
}
