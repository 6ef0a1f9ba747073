//go:build cuda

package batch

import (
	"context"
	"runtime"
	"time"

	"github.com/tsplab/tsplab/gpu/blockils"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	cpuils "github.com/tsplab/tsplab/solver/cpu/ils"
	"github.com/tsplab/tsplab/solver/cpu/recomb"
)

// batchOut is what the batch's launches fill: each instance's shortest
// tour and kicks.
type batchOut struct {
	tours [][]int
	steps []int64
}

// batchPolishAt is the share of a timed chunk's time after which the
// host's cores take each instance's searches' tours, merge them and search
// the child with CPU auto while the GPU searches on; the end merges the
// child with the GPU's tours. Measured (H100 host, 1,000 × 1,000 cities in
// 25 s, the first 40 against one 10-s CPU auto run each, batch seeds 1 /
// 2): 0.113 / 0.100 % against 0.142 / 0.149 % with the end's merge alone
// and 0.182 / 0.166 % with neither.
const batchPolishAt = 0.5

// batchPolishMin is the least core time an instance's polish is worth:
// below it (100-city batches of thousands in seconds) the cores stay out.
const batchPolishMin = 20 * time.Millisecond

// polishWorkers is the cores the polish takes: all but the one that
// drives the GPU.
func polishWorkers() int { return max(1, runtime.GOMAXPROCS(0)-1) }

// polisher searches the instances of a chunk on the host's cores beside
// the GPU.
type polisher struct {
	tours [][]int32 // each instance's polished tour (nil: none)
	wait  func()    // waits for the search's end
}

// startPolish merges each instance's tours and searches the child with
// CPU auto (a Go call), one core an instance, on all cores but one (the
// GPU's launches), each an equal share of the time to deadline.
func (r *run) startPolish(part []int, all [][][]int32, seed uint64, deadline time.Time) *polisher {
	ctx, ins, st := r.ctx, r.ins, r.st
	p := &polisher{tours: make([][]int32, len(part)), wait: func() {}}
	eng := cpuils.Auto()
	workers := polishWorkers()
	each := time.Until(deadline) * time.Duration(workers) / time.Duration(len(part))
	p.wait = spread(len(part), workers, func() func(int) bool {
		var g recomb.GPX
		var e recomb.EAX
		return func(k int) bool {
			if ctx.Err() != nil || !time.Now().Before(deadline) {
				return false
			}
			in := ins[part[k]]
			child, cl := mergeTours(in, all[k], st[part[k]].nb, blockils.BatchK, &g, &e, seed+uint64(k), 1, time.Now().Add(each/2))
			p.tours[k] = child
			until := min(time.Until(deadline), each)
			if until < time.Millisecond {
				return false
			}
			kctx, cancel := context.WithTimeoutCause(ctx, until, solver.ErrTimeLimit)
			r, err := eng.Solve(kctx, in, solver.Params{Seed: seed + uint64(k), Workers: 1, Start: device.Convert[int](child)}, nil)
			cancel()
			if err == nil && r.Length < cl {
				p.tours[k] = device.Convert[int32](r.Tour)
			}
			return true
		}
	})
	return p
}

// mergeAll merges each instance's tours on all cores (seeded by seed and
// its id), each evolution
// within an equal share of nine tenths of the time to deadline (zero:
// none; the rest for its last generation and the run's end), and keeps
// the child where shorter than its shortest GPU tour.
func (r *run) mergeAll(part []int, all [][][]int32, seed uint64, deadline time.Time) {
	workers := runtime.GOMAXPROCS(0)
	var each time.Duration
	if !deadline.IsZero() {
		each = time.Until(deadline) * 9 / 10 * time.Duration(workers) / time.Duration(max(len(part), 1))
	}
	ins, ids, st, out, log := r.ins, r.ids, r.st, r.out, r.cfg.log
	stale := 1 // a batch by time: its merge has a share of the time
	if r.budgets != nil {
		stale = evolveStaleWork
	}
	spread(len(part), workers, func() func(int) bool {
		var g recomb.GPX
		var e recomb.EAX
		return func(k int) bool {
			i := part[k]
			in := ins[i]
			// the child is never longer than any tour of all[k], the
			// shortest GPU tour in out.tours[i] among them
			var until time.Time
			if each > 0 {
				until = time.Now().Add(each)
			}
			child, cl := mergeTours(in, all[k], st[i].nb, blockils.BatchK, &g, &e, seed+ids[i], stale, until)
			if log != nil {
				log(i, solver.TourLength(in, out.tours[i]), cl)
			}
			out.tours[i] = device.Convert[int](child)
			return true
		}
	})()
}
