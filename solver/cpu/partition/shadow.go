package partition

import (
	"context"
	"fmt"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/recomb"
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
	gpx   recomb.GPX
	child []int32
	seen  []uint32 // the permutation check's marks, by round
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
	path   []int32
	first  int32 // the copy's first city, which the shadow keeps
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
	sr := &shadowRound{path: append([]int32(nil), pr.t...), first: pr.t[0], len0: pr.length, done: make(chan error, 1), start: time.Now()}
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
	if !s.permutation(sr.path) || sr.path[0] != sr.first {
		s.refused++
		return
	}
	l := pr.d.Length(sr.path)
	s.own += sr.len0 - l
	if len(s.child) != len(pr.t) {
		s.child = make([]int32, len(pr.t))
	}
	st := s.gpx.Cross(pr.env.In, pr.t, sr.path, pr.length, l, s.child)
	if st.Length >= pr.length {
		return
	}
	copy(pr.t, s.child)
	nl := pr.d.Length(pr.t)
	s.gain += pr.length - nl
	s.merged++
	pr.length = nl
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
