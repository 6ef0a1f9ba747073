package partition

import (
	"context"
	"fmt"
	"math"
	"sync/atomic"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// On its path rounds the partition search hands a stretch of the tour to
// the path improver its run's aid carries (solver.PathImprover, GPU auto's
// windows), beside the workers: the round's first segments, consecutive
// positions of the tour from the round's offset, as one path whose two
// ends stay; the workers search the other segments. The stretches are
// disjoint, so the tour written back stays one cycle. The stretch is a
// share of the tour counted in workers: besideShare workers' worth at
// first (none below besideSmallMaxN cities on instances that are not
// clustered: firstShare), then following the improver's gain per
// city and second against the workers' (adapt).

// Settings of the path improver beside the workers
// (docs/DECISIONS.md#partition-beside).
const (
	// besideShare is the workers' worth of the tour the improver takes
	// in the first round.
	besideShare = 4.0
	// besideSmallMaxN: below it, on instances that are not clustered, the
	// improver takes no stretch unless the aid sets a share, because
	// there the workers' chained LK gains more a city than the windows
	// from the first round (docs/DECISIONS.md#partition-beside).
	besideSmallMaxN = 200_000
	// besideMinShare and besideMaxShare bound the share: the improver
	// always keeps a stretch to be measured on, and at most besideMaxShare
	// times the workers' worth.
	besideMinShare = 0.25
	besideMaxShare = 4.0
	// besideFirstRound is the time a round's searches are taken to last
	// when neither a time slice nor a round before tells.
	besideFirstRound = time.Second
	// besideEarlyKicks is the kicks per city of the early phase
	// (besideEarly).
	besideEarlyKicks = 2.5
	// besideEarlyKicksLK is besideEarlyKicks where chained LK searches
	// the pieces: its kicks are deeper and far fewer (0.2 a city in a
	// minute on a million cities), so the early phase ends within a few
	// rounds (docs/DECISIONS.md#beside-early).
	besideEarlyKicksLK = 0.01
	// besideEarlySegment is the segment size the early phase's rounds
	// aim at (besideEarly) when no segment size is given: on a million
	// cities beside the GPU, segments of 10,000 cities gained more in
	// the first 10 s than partSegment's 5,000
	// (docs/DECISIONS.md#beside-early).
	besideEarlySegment = 10000
)

// DefaultEarlyMinN is the smallest instance with the early phase
// (besideEarly) unless a run's Env says otherwise (tests run it on small
// instances): from here the stitch's reversals of up to n/2 cities take
// half a round on one core. It has no largest: at ten million cities it
// lasts the whole minute, and gains (docs/DECISIONS.md#beside-early).
const DefaultEarlyMinN = 500_000

// besideEarly tells whether the partition search is in its early phase
// (docs/DECISIONS.md#beside-early): with the improver beside, from
// Env.EarlyMinN cities, until besideEarlyKicks (besideEarlyKicksLK) kicks
// per city, and the pieces' shape left to auto, every round cuts paths
// (the GPU takes a stretch of each) of about besideEarlySegment cities
// unless a size is given (segSize), and no descent over the whole tour
// follows, so that nothing between rounds runs on one core with the
// other cores and the GPU idle. There the pieces and the GPU gain far
// more a second than the stitch and the region rounds, whose merge kept
// nothing of their pieces' gains; later the tour's order, reshuffled by
// those alone, is what the rounds need.
func (pr *partRun) besideEarly() bool {
	n := pr.env.In.N
	k := besideEarlyKicks
	if pr.lkSeen != nil {
		k = besideEarlyKicksLK
	}
	return pr.bs.paths != nil && n >= pr.env.EarlyMinN &&
		pr.env.Opts.Shape == ShapeAuto && float64(pr.kicks) < k*float64(n)
}

// beside is the path improver's state in one partition search.
type beside struct {
	paths solver.PathImprover // nil: the workers take every segment
	share float64             // workers' worth of the tour it takes
	asked bool                // the aid set the first share
	g     int                 // the round's first segments it takes (layout)
	// path is the stretch handed to the improver, old the stretch as it
	// was; last is how long the workers' searches of the last round took
	path, old []int32
	last      time.Duration
	// err is the improver's first error: it takes no stretch after it
	err error
	// rounds and gain are the stretches it improved and its gain, taken
	// the stretches it returned that were not taken
	rounds, gain, refused int64
}

// newBeside readies the improver of r's aid for its partition search;
// none on a run with a kicks budget (it stays deterministic) or fixed
// edges (they stay with the workers' searches).
func newBeside(r *Env) beside {
	b := beside{paths: r.Aid.Paths, share: besideShare}
	if r.Aid.PathShare > 0 {
		b.share, b.asked = r.Aid.PathShare, true
	}
	if r.Opts.Kicks > 0 || len(r.In.FixedEdges) > 0 {
		b.paths = nil
	}
	return b
}

// firstShare sets the first share of a run on n cities, clustered or
// not, where the aid did not set it: none (no improver) where besideSmall.
func (b *beside) firstShare(n int, clustered bool) {
	if !b.asked && besideSmall(n, clustered) {
		b.share, b.paths = 0, nil
	}
}

// besideSmall tells whether an improver without a share the aid sets
// takes no stretch of a run on n cities, clustered or not: below
// besideSmallMaxN cities on instances that are not clustered.
func besideSmall(n int, clustered bool) bool { return !clustered && n < besideSmallMaxN }

// segments returns how many of this round's first segments the improver
// takes: those the round's layout gave it (partRun.layout), none on
// region rounds, after an error of the improver or without one.
func (b *beside) segments(pr *partRun) int {
	if b.paths == nil || b.err != nil || pr.region {
		return 0
	}
	return b.g
}

// besideLayout returns the segments of a path round beside the improver,
// of about size cities each, and how many of the first it takes: k·w for
// the w workers (k ≥ 1), so that each searches as many as the others in
// the round's time slice and none sits idle while the improver holds a
// stretch, and k·share for the improver (at least one), its share of
// the tour in workers' worth. It returns 0, 0 where the segments would
// hold fewer than partMinSegment cities.
func besideLayout(n, w, size int, share float64) (p, g int) {
	k := max(1, int(math.Round(float64(n)/(float64(size)*(float64(w)+share)))))
	g = max(1, int(math.Round(float64(k)*share)))
	p = k*w + g
	if n/p < partMinSegment {
		return 0, 0
	}
	return p, g
}

// besideRound is one round's stretch under way on the improver.
type besideRound struct {
	g      int
	cancel context.CancelFunc
	done   chan error
	gain   int64
	start  time.Time
}

// startBeside hands the first g segments, as one path, to the improver
// until the workers' searches are expected to end, at the latest the
// run's deadline (nil when g is 0).
func (pr *partRun) startBeside(g int) *besideRound {
	if g == 0 {
		return nil
	}
	b := &pr.bs
	b.path = b.path[:0]
	for _, sg := range pr.segs[:g] {
		b.path = append(b.path, sg.cities[:sg.m]...)
	}
	b.old = append(b.old[:0], b.path...)
	ctx, cancel := context.WithCancel(pr.ctx)
	br := &besideRound{g: g, cancel: cancel, done: make(chan error, 1), start: time.Now()}
	until := br.start.Add(pr.searchTime(pr.p - g))
	if dl := pr.env.Control.Deadline; !dl.IsZero() && dl.Before(until) {
		until = dl
	}
	in, path := pr.env.In, b.path
	go func() {
		var err error
		br.gain, err = b.paths.ImprovePath(ctx, in, path, until)
		br.done <- err
	}()
	return br
}

// searchTime is how long the workers' searches of tasks segments are
// expected to take: by the time slice when there is one, else as long
// as the last round's.
func (pr *partRun) searchTime(tasks int) time.Duration {
	w := pr.env.Workers
	slice := time.Duration(pr.env.Opts.SliceMS) * time.Millisecond
	switch {
	case slice > 0 && tasks <= w:
		return slice
	case slice > 0:
		return time.Duration((tasks+w-1)/w) * taskSlice(slice, w, tasks, pr.env.In.N)
	case pr.bs.last > 0:
		return pr.bs.last
	}
	return besideFirstRound
}

// endBeside stops the improver once the workers are done, takes its path
// when it is good and shorter, and sets the next share from the round's
// gains (deltas: the workers' changes of length by segment).
func (pr *partRun) endBeside(br *besideRound, deltas []int64) {
	if br == nil {
		return
	}
	b := &pr.bs
	b.last = time.Since(br.start)
	br.cancel()
	err := <-br.done
	dt := time.Since(br.start)
	if err != nil {
		b.err = err
		return
	}
	gain := pr.takePath(br.g)
	var cpu int64
	for _, d := range deltas {
		cpu -= min(d, 0)
	}
	b.adapt(gain, len(b.path), dt, cpu, pr.env.In.N-len(b.path), b.last, pr.env.Workers)
}

// takePath writes the improver's path into the tour when it joins the
// stretch's two ends through the stretch's cities (the first g segments')
// and is shorter, and returns the gain (0 when it is not taken). It looks
// only at the positions the improver changed, split among the workers,
// whose searches are over: a stretch of millions of cities, most of them
// moved, is checked in a few hundredths of a second, so a round ending at
// the deadline ends promptly.
func (pr *partRun) takePath(g int) int64 {
	b := &pr.bs
	p, old := b.path, b.old
	m := len(p)
	if m == 0 || len(old) != m || p[0] != old[0] || p[m-1] != old[m-1] {
		b.refused++
		return 0
	}
	// first[s]: the path's position of segment s's first city
	first := make([]int, g)
	for s := 1; s < g; s++ {
		first[s] = first[s-1] + pr.segs[s-1].m
	}
	w := pr.env.Workers
	gains := make([]int64, w)
	var bad atomic.Bool
	pr.pool(w, func(_, k int) {
		lo, hi := k*m/w, (k+1)*m/w
		if !pr.movedWithin(first, g, lo, hi) {
			bad.Store(true)
			return
		}
		// the same two ends: the paths' lengths differ only on the edges
		// that touch a changed position
		for i := lo; i < hi && i+1 < m; i++ {
			if p[i] != old[i] || p[i+1] != old[i+1] {
				gains[k] += pr.d.At(old[i], old[i+1]) - pr.d.At(p[i], p[i+1])
			}
		}
	})
	if bad.Load() {
		b.refused++
		return 0
	}
	var gain int64
	for _, x := range gains {
		gain += x
	}
	if gain <= 0 {
		return 0
	}
	n, at := pr.env.In.N, pr.segs[0].from
	pr.pool(w, func(_, k int) {
		for i := k * m / w; i < (k+1)*m/w; i++ {
			if p[i] != old[i] {
				pr.t[(at+i)%n] = p[i]
			}
		}
	})
	pr.length -= gain
	b.rounds++
	b.gain += gain
	return gain
}

// movedWithin tells whether the improver's path holds, at its changed
// positions from lo to hi, cities of the stretch that left a changed
// position, each seen once. Checked over every position, the map from
// changed positions to the changed positions their cities left is one to
// one, so the changed positions hold the cities they held before. It
// marks the cities seen in local (atomically: the workers check their
// parts at once), which the next round's cut rewrites; first[s] is the
// path's position of segment s's first city.
func (pr *partRun) movedWithin(first []int, g, lo, hi int) bool {
	p, old := pr.bs.path, pr.bs.old
	for i := lo; i < hi; i++ {
		ct := p[i]
		if ct == old[i] {
			continue
		}
		if ct < 0 || int(ct) >= pr.env.In.N {
			return false
		}
		s, l := pr.segOf[ct], atomic.LoadInt32(&pr.local[ct])
		if s < 0 || s >= int32(g) || l < 0 {
			return false
		}
		j := first[s] + int(l)
		if j >= len(old) || old[j] != ct || p[j] == old[j] || !atomic.CompareAndSwapInt32(&pr.local[ct], l, -1) {
			return false
		}
	}
	return true
}

// adapt sets the next share from the round's gain per city and second of
// the improver (gain on m cities in dt) against the workers' (cpu on cm
// cities in cdt): up when the improver's is higher, down when lower, at
// most doubled or halved a round, within besideMinShare and
// besideMaxShare times the w workers.
func (b *beside) adapt(gain int64, m int, dt time.Duration, cpu int64, cm int, cdt time.Duration, w int) {
	rg := float64(gain) / float64(max(m, 1)) / max(dt.Seconds(), 1e-6)
	rc := float64(cpu) / float64(max(cm, 1)) / max(cdt.Seconds(), 1e-6)
	f := 1.0
	switch {
	case rc > 0:
		f = rg / rc
	case rg > 0:
		f = 2
	}
	b.share = min(max(b.share*min(max(f, 0.5), 2), besideMinShare), besideMaxShare*float64(w))
}

// account is the improver's account on in (nil when it took no
// stretch), and a warning when it stopped on an error.
func (b *beside) account(in *solver.Instance) (*solver.WindowsAccount, string) {
	warn := ""
	if b.err != nil {
		warn = fmt.Sprintf("the path improver beside the workers stopped: %v", b.err)
	}
	if b.rounds == 0 && b.refused == 0 {
		return nil, warn
	}
	return &solver.WindowsAccount{Improved: int(b.rounds), Gain: in.LengthValue(b.gain), Refused: int(b.refused), Share: b.share}, warn
}
