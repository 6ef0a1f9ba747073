//go:build cuda

package ils

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// PathWindows is solver.PathImprover on the GPU: or-ils's windows over one path, never wrapping past its last position,
// so the path's ends stay; the device keeps the instance and whole-tour buffers between paths.
type PathWindows struct {
	at     context.Context // names the GPU context the run opens on (device.NewRunIn)
	in     *solver.Instance
	o      OrConfig
	ru     *device.Run
	r      *orRun
	capWR  int // windows × replicas the buffers hold
	rng    *rand.Rand
	seed   uint64
	clock  orClock
	rounds int64
	// slots is the windows the device runs at once, one chunk's
	slots int
}

var _ solver.PathImprover = (*PathWindows)(nil)

// pathMinCities is the shortest path the windows take (shorter ones come back unchanged).
const pathMinCities = 64

// NewPathWindows readies windows of settings o for paths of in on the GPU context at names; the first path opens it.
func NewPathWindows(at context.Context, in *solver.Instance, o OrConfig, seed uint64) *PathWindows {
	return &PathWindows{at: at, in: in, o: o, rng: rand.New(rand.NewPCG(seed, 0xbe51de)), seed: seed}
}

// ImprovePath runs the windows on path until until or ctx ends, writes the (never longer) path back and returns the gain.
func (pw *PathWindows) ImprovePath(ctx context.Context, in *solver.Instance, path []int32, until time.Time) (int64, error) {
	if in != pw.in {
		return 0, fmt.Errorf("gpu: path windows readied for %s were handed a path of %s", pw.in.Name, in.Name)
	}
	if dl, ok := ctx.Deadline(); ok && dl.Before(until) {
		until = dl
	}
	m := int64(len(path))
	if m < pathMinCities || m > int64(in.N) {
		return 0, nil
	}
	if err := pw.load(path); err != nil {
		return 0, err
	}
	var gain uint64
	ran := false
	for ctx.Err() == nil && time.Now().Before(until) {
		off := pw.rng.Int64N(max(1, min(int64(pw.r.L), m/2)))
		g, swept, err := pw.sweep(ctx, off, m-off, until)
		if err != nil {
			return 0, err
		}
		if swept {
			gain, ran = g, true
		}
		pw.rounds++
	}
	if !ran || gain == 0 {
		return 0, nil
	}
	if err := pw.ru.Do(func() error { return device.DtoH(path, pw.r.tour) }); err != nil {
		return 0, err
	}
	return int64(gain), nil
}

// sweep runs one round of windows over off..off+span-1, a wave at a time so a stop waits for one chunk at most;
// it returns the gain so far and whether a chunk ran.
func (pw *PathWindows) sweep(ctx context.Context, off, span int64, until time.Time) (gain uint64, ran bool, err error) {
	seed := pw.seed*0x9E3779B97F4A7C15 + uint64(pw.rounds)
	for _, k := range pathChunks(off, span, pw.r.L, pw.slots, pw.r.R) {
		left := time.Until(until)
		if ctx.Err() != nil || left <= 0 {
			break
		}
		pw.r.W = k.W
		kicks := pw.clock.kicks(pw.o.Window, left)
		t0 := time.Now()
		err = pw.ru.Do(func() (err error) {
			gain, _, err = pw.r.round(k.from, k.size, kicks, seed+uint64(k.from), pw.o.Segment)
			return err
		})
		if err != nil {
			return 0, false, err
		}
		pw.clock.timed(time.Since(t0), kicks)
		ran = true
	}
	return gain, ran, nil
}

// load opens the device on the first path, uploads path, sets the replicas and zeroes the gain.
func (pw *PathWindows) load(path []int32) error {
	if pw.ru == nil {
		ru, err := device.NewRunIn(pw.at)
		if err != nil {
			return err
		}
		// buffers for the whole tour's windows hold any path's
		err = ru.Do(func() (err error) { pw.r, err = newOrRun(ru, pw.in, nil, min(pw.o.Window, pw.in.N), 0); return err })
		if err != nil {
			ru.Close()
			return err
		}
		pw.ru, pw.capWR = ru, pw.r.W*pw.r.R
		err = ru.Do(func() (err error) {
			fn, _ := ru.Dev.Fn("oropt_windows") // newOrRun found it
			pw.slots, err = orSlots(ru.Dev, fn, pw.r.L)
			return err
		})
		if err != nil {
			pw.Close()
			return err
		}
	}
	m := len(path)
	return pw.ru.Do(func() error {
		W, R, err := orGeometry(pw.ru.Dev, m, pw.r.L, 0)
		if err != nil {
			return err
		}
		pw.r.n, pw.r.R = m, max(1, min(R, pw.capWR/W))
		pw.r.hostTo[0] = 0
		return device.InOrder(func() error { return device.HtoD(pw.r.tour, path) }, func() error { return device.HtoD(pw.r.total, pw.r.hostTo) })
	})
}

// Close frees the device's buffers and ends the run.
func (pw *PathWindows) Close() {
	if pw.ru == nil {
		return
	}
	pw.ru.Do(func() error { pw.r.free(); return nil })
	pw.ru.Close()
	pw.ru = nil
}
