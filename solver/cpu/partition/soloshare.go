package partition

import (
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver/cpu/recomb"
	"github.com/tsplab/tsplab/solver/tour/twolevel"
)

// soloShareEvery is how often each worker's chained LK search publishes
// its tour and crosses it with the next worker's latest.
const soloShareEvery = 2 * time.Second

// soloShare is the exchange of the workers' chained LK searches: each
// publishes its tour, and takes the partition crossover (GPX) of its own
// and the next worker's latest where that is shorter than its own, so that
// the improvements each finds in its own part of the plane join in one
// tour.
type soloShare struct {
	mu   sync.Mutex
	tour [][]int32
	len  []int64
	ver  []int
}

func newSoloShare(workers int) *soloShare {
	return &soloShare{tour: make([][]int32, workers), len: make([]int64, workers), ver: make([]int, workers)}
}

// soloTrade is one worker's side of a soloShare: its GPX, its buffers and
// the version of the next worker's tour it crossed last.
type soloTrade struct {
	sh                *soloShare
	w, seen           int
	g                 recomb.GPX
	own, other, child []int32
	succ, pred        []int32
	last              time.Time
	taken, gained     int64
}

func newSoloTrade(sh *soloShare, w, n int) *soloTrade {
	return &soloTrade{sh: sh, w: w, succ: make([]int32, n), pred: make([]int32, n), child: make([]int32, n), last: time.Now()}
}

// trade publishes s's tour and, when the next worker has published a tour
// it has not crossed yet, takes the crossover of the two if it is shorter,
// queueing the cities whose tour neighbours changed; it reports whether s
// took one.
func (tr *soloTrade) trade(s *solo, d recomb.Distancer) bool {
	if time.Since(tr.last) < soloShareEvery {
		return false
	}
	tr.last = time.Now()
	tr.own = s.l.Tour(tr.own[:0])
	sh := tr.sh
	o := (tr.w + 1) % len(sh.ver)
	sh.mu.Lock()
	sh.tour[tr.w] = append(sh.tour[tr.w][:0], tr.own...)
	sh.len[tr.w] = s.length
	sh.ver[tr.w]++
	fresh := sh.ver[o] != tr.seen && sh.tour[o] != nil
	var ol int64
	if fresh {
		tr.other, ol, tr.seen = append(tr.other[:0], sh.tour[o]...), sh.len[o], sh.ver[o]
	}
	sh.mu.Unlock()
	if !fresh {
		return false
	}
	st := tr.g.Cross(d, tr.own, tr.other, s.length, ol, tr.child)
	if st.Length >= s.length {
		return false
	}
	n := len(tr.own)
	for i, c := range tr.own {
		tr.succ[c], tr.pred[c] = tr.own[(i+1)%n], tr.own[(i+n-1)%n]
	}
	for i, c := range tr.child {
		if nx := tr.child[(i+1)%n]; tr.succ[c] != nx && tr.pred[c] != nx {
			s.push(c)
			s.push(nx)
		}
	}
	tr.taken++
	tr.gained += s.length - st.Length
	s.l, s.length = twolevel.New(tr.child), st.Length
	return true
}
