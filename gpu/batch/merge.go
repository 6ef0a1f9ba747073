package batch

import (
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

// mergeReserve is the time the end's merge of part's tours is given on
// all cores, at most a tenth of left: 4 µs a city of the instances' tours
// (1,000 instances of 1,000 cities, 5 tours each, took about 0.23 s on the
// H100 host's 16 cores).
func mergeReserve(ins []*solver.Instance, part []int, left time.Duration) time.Duration {
	var cities int
	for _, i := range part {
		cities += ins[i].N
	}
	return min(left/10, time.Duration(cities)*4*time.Microsecond/time.Duration(runtime.GOMAXPROCS(0)))
}

// mergeTours merges tours of one instance into one no longer than the
// shortest: the shortest crossed with each other by partition crossover,
// then EAX children of it with each other while one is shorter, EAX's
// joins on the candidate lists nb (k a city).
func mergeTours(in *solver.Instance, tours [][]int32, nb []int32, k int, g *recomb.GPX, e *recomb.EAX, seed uint64) ([]int32, int64) {
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

// spread hands 0..count-1 out to workers goroutines, the next k to
// whichever is free; each goroutine takes a func of its own from worker
// (its scratch state with it), which returns false to end that
// goroutine. It returns a func that waits for all of them.
func spread(count, workers int, worker func() func(k int) bool) (wait func()) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range max(workers, 1) {
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
