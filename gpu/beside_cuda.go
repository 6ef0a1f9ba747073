//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// pathWindows is solver.PathImprover on the GPU: or-ils's windows
// (kernels/oropt.cu) over one path instead of the whole tour. The path's
// cities are the positions 0..m-1 of the kernel's tour, and each kernel
// round cuts the positions off..m-1 (off below one window and half the
// path, shifting every round) into windows, which never wrap past the
// last position to the first, so the path's two ends stay. The device
// keeps the instance's coordinates, and buffers sized for the whole tour,
// from the first path to the last.
type pathWindows struct {
	in     *solver.Instance
	o      orConfig
	ru     *run
	r      *orRun
	capWR  int // windows × replicas the buffers hold
	rng    *rand.Rand
	seed   uint64
	clock  orClock
	rounds int64
	// firstPerCity is the time per city of the first round of the last
	// path: the windows' lists and descent, which no kick count bounds
	firstPerCity time.Duration
}

var _ solver.PathImprover = (*pathWindows)(nil)

// pathMinCities is the shortest path the windows take: shorter ones come
// back as they were.
const pathMinCities = 64

// newPathWindows readies windows of settings o for paths of in; the
// device is opened by the first path.
func newPathWindows(in *solver.Instance, o orConfig, seed uint64) *pathWindows {
	return &pathWindows{in: in, o: o, rng: rand.New(rand.NewPCG(seed, 0xbe51de)), seed: seed}
}

// ImprovePath runs the windows' rounds on path until until, ctx's
// deadline or its end, and writes the path they leave into path (never
// longer: a window commits only gains); it returns their gain. A path
// whose first round, timed on the last one taken, would not end in time
// is left as it is: a round in flight cannot be stopped.
func (pw *pathWindows) ImprovePath(ctx context.Context, in *solver.Instance, path []int32, until time.Time) (int64, error) {
	if in != pw.in {
		return 0, fmt.Errorf("gpu: path windows readied for %s were handed a path of %s", pw.in.Name, in.Name)
	}
	if dl, ok := ctx.Deadline(); ok && dl.Before(until) {
		until = dl
	}
	m := len(path)
	if m < pathMinCities || m > in.N {
		return 0, nil
	}
	if time.Duration(m)*pw.firstPerCity >= time.Until(until) {
		pw.firstPerCity /= 2 // a later path tries again
		return 0, nil
	}
	if err := pw.load(path); err != nil {
		return 0, err
	}
	L := int64(pw.r.L)
	var gain uint64
	ran := false
	for left := time.Until(until); ctx.Err() == nil && left > 0; left = time.Until(until) {
		kicks := pw.clock.kicks(pw.o.Window, left)
		off := pw.rng.Int64N(max(1, min(L, int64(m)/2)))
		span := int64(m) - off
		pw.r.W = int((span + L - 1) / L)
		seed := pw.seed*0x9E3779B97F4A7C15 + uint64(pw.rounds)
		t0 := time.Now()
		err := pw.ru.do(func() (err error) {
			gain, _, err = pw.r.round(off, span, kicks, seed, pw.o.Segment)
			return err
		})
		if err != nil {
			return 0, err
		}
		dt := time.Since(t0)
		pw.clock.timed(dt, kicks)
		if !ran {
			pw.firstPerCity = dt / time.Duration(m)
		}
		pw.rounds++
		ran = true
	}
	if !ran || gain == 0 {
		return 0, nil
	}
	if err := pw.ru.do(func() error { return dtoh(path, pw.r.tour) }); err != nil {
		return 0, err
	}
	return int64(gain), nil
}

// load opens the device on the first path, uploads path as the kernel's
// tour, sets the replicas for its windows and zeroes the gain.
func (pw *pathWindows) load(path []int32) error {
	if pw.ru == nil {
		ru, err := newRun()
		if err != nil {
			return err
		}
		// buffers for the whole tour's windows hold any path's
		err = ru.do(func() (err error) { pw.r, err = newOrRun(ru, pw.in, nil, min(pw.o.Window, pw.in.N), 0); return err })
		if err != nil {
			ru.close()
			return err
		}
		pw.ru, pw.capWR = ru, pw.r.W*pw.r.R
	}
	m := len(path)
	return pw.ru.do(func() error {
		W, R, err := orGeometry(pw.ru.d, m, pw.r.L, 0)
		if err != nil {
			return err
		}
		pw.r.n, pw.r.R = m, max(1, min(R, pw.capWR/W))
		pw.r.hostTo[0] = 0
		return inOrder(func() error { return htod(pw.r.tour, path) }, func() error { return htod(pw.r.total, pw.r.hostTo) })
	})
}

// close frees the device's buffers and ends the run.
func (pw *pathWindows) close() {
	if pw.ru == nil {
		return
	}
	pw.ru.do(func() error { pw.r.free(); return nil })
	pw.ru.close()
	pw.ru = nil
}
