package partition

import (
	"context"
	"fmt"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tour"
)

// A shadow search (solver.Aid.Shadow, GPU auto's windows over the whole
// tour) runs beside every round of the partition search on a copy of the
// tour as the round found it, for as long as the round and its descent
// between pieces take. After the round the search merges the copy into
// its own tour by partition crossover (recomb.GPX): every component of
// the two tours' differences takes the shorter parent's paths, so the
// shadow's gains outside the stretches the workers changed come on top of
// theirs, and the workers give up no stretch of the tour to it.

// shadow is the shadow search's state in one partition search.
type shadow struct {
	imp   solver.PathImprover // nil: no shadow search
	posP  []int32             // city → its position in the round's copy
	posC  []int32             // city → its position in the search's tour
	seen  []uint32            // the permutation check's marks, by round
	stamp uint32
	// last is how long the last round with the shadow took
	last time.Duration
	err  error
	// rounds the shadow ran, merges that shortened the tour, their gain,
	// and the shadow's own gains over the rounds
	rounds, merged, gain, own, refused int64
}

// shadowRound is one round's copy under way on the shadow search.
type shadowRound struct {
	path   []int32 // the shadow's copy
	orig   []int32 // the copy as handed over
	len0   int64
	cancel context.CancelFunc
	done   chan error
	gain   int64
	start  time.Time
}

// newShadow readies the shadow search of r's aid; none on a run with a
// kicks budget (it stays deterministic) or fixed edges.
func newShadow(r *Env) shadow {
	s := shadow{imp: r.Aid.Shadow}
	if r.Opts.Kicks > 0 || len(r.In.FixedEdges) > 0 {
		s.imp = nil
	}
	return s
}

// startShadow hands a copy of the tour to the shadow search until the
// round is expected to end (as long as the last one, at the latest the
// run's deadline); nil without a shadow search or after its error.
func (pr *partRun) startShadow() *shadowRound {
	s := &pr.sh
	if s.imp == nil || s.err != nil {
		return nil
	}
	sr := &shadowRound{path: append([]int32(nil), pr.t...), orig: append([]int32(nil), pr.t...), len0: pr.length, done: make(chan error, 1), start: time.Now()}
	last := s.last
	if last <= 0 {
		last = besideFirstRound
	}
	until := sr.start.Add(last)
	if dl := pr.env.Control.Deadline; !dl.IsZero() && dl.Before(until) {
		until = dl
	}
	ctx, cancel := context.WithCancel(pr.ctx)
	sr.cancel = cancel
	in := pr.env.In
	go func() {
		var err error
		sr.gain, err = s.imp.ImprovePath(ctx, in, sr.path, until)
		sr.done <- err
	}()
	return sr
}

// endShadow stops the shadow search and merges its copy into the tour
// when the crossover's child is shorter.
func (pr *partRun) endShadow(sr *shadowRound) {
	if sr == nil {
		return
	}
	s := &pr.sh
	sr.cancel()
	err := <-sr.done
	s.last = time.Since(sr.start)
	if err != nil {
		s.err = err
		return
	}
	s.rounds++
	if sr.gain <= 0 {
		return
	}
	n := len(sr.path)
	if !s.permutation(sr.path) || sr.path[0] != sr.orig[0] || sr.path[n-1] != sr.orig[n-1] {
		s.refused++
		return
	}
	s.own += sr.len0 - pr.d.Length(sr.path)
	gain, taken := s.splice(pr.d, sr.orig, sr.path, pr.t)
	if taken > 0 {
		s.merged += int64(taken)
		s.gain += gain
		pr.length -= gain
	}
}

// splice writes into the tour c the shadow's order of each interval of
// positions of p (the copy as handed over) that the shadow s reordered,
// where that interval's cities lie between the same two neighbours in c
// and the shadow's order is shorter there; it returns the gain and the
// intervals taken. s is a permutation with p's first and last city.
func (s *shadow) splice(d *tour.Dist, p, sh, c []int32) (gain int64, taken int) {
	n := len(p)
	if len(s.posP) != n {
		s.posP, s.posC = make([]int32, n), make([]int32, n)
	}
	for i, x := range p {
		s.posP[x] = int32(i)
	}
	for i, x := range c {
		s.posC[x] = int32(i)
	}
	for i := 1; i < n-1; i++ {
		if sh[i] == p[i] {
			continue
		}
		// the interval from i ends at the first j where every city of
		// sh[i..j] came from p[i..j]: the positions before i hold their
		// own cities, so none of these came from before i
		j, reach := i, i
		for ; j < n-1; j++ {
			reach = max(reach, int(s.posP[sh[j]]))
			if reach == j {
				break
			}
		}
		if g := s.spliceOne(d, p, sh, c, i, j); g > 0 {
			gain += g
			taken++
		}
		i = j
	}
	return gain, taken
}

// spliceOne puts the shadow's order of the positions i..j of the copy p
// into c where those cities lie between p[i-1] and p[j+1] in c and the
// shadow's order is shorter; it returns the gain (0: not taken).
func (s *shadow) spliceOne(d *tour.Dist, p, sh, c []int32, i, j int) int64 {
	n, k := len(c), j-i+1
	a, b := p[i-1], p[j+1]
	pa, pb := int(s.posC[a]), int(s.posC[b])
	dir := 0
	switch k + 1 {
	case (pb - pa + n) % n:
		dir = 1
	case (pa - pb + n) % n:
		dir = n - 1
	default:
		return 0
	}
	cur, prev := int64(0), a
	for t := 1; t <= k; t++ {
		x := c[(pa+t*dir)%n]
		if q := int(s.posP[x]); q < i || q > j {
			return 0
		}
		cur += d.At(prev, x)
		prev = x
	}
	cur += d.At(prev, b)
	alt, prev := int64(0), a
	for _, x := range sh[i : j+1] {
		alt += d.At(prev, x)
		prev = x
	}
	alt += d.At(prev, b)
	if alt >= cur {
		return 0
	}
	for t := 1; t <= k; t++ {
		q := (pa + t*dir) % n
		c[q] = sh[i+t-1]
		s.posC[c[q]] = int32(q)
	}
	return cur - alt
}

// permutation tells whether t holds every city once.
func (s *shadow) permutation(t []int32) bool {
	n := len(t)
	if len(s.seen) != n {
		s.seen, s.stamp = make([]uint32, n), 0
	}
	s.stamp++
	for _, c := range t {
		if c < 0 || int(c) >= n || s.seen[c] == s.stamp {
			return false
		}
		s.seen[c] = s.stamp
	}
	return true
}

// note is the device line's account of the shadow search (empty when it
// ran no round).
func (s *shadow) note() string {
	switch {
	case s.err != nil:
		return fmt.Sprintf("; the shadow search beside the rounds stopped: %v", s.err)
	case s.rounds == 0:
		return ""
	}
	return fmt.Sprintf("; a shadow of the whole tour beside %d rounds gained %d on its own, %d merged in %d rounds (%d refused)", s.rounds, s.own, s.gain, s.merged, s.refused)
}
