//go:build cuda

package ils

import (
	"context"
	"fmt"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

func init() {
	device.RegisterKernels("gls_cells", "gls_scatter", "gls_cellsort", "gls_permute", "gls_start", "gls_knn",
		"gls_eval", "gls_mark", "gls_check", "gls_apply", "gls_pos", "gls_export")
}

// glsBlock is the threads per block of every tourls kernel.
const glsBlock = 256

// glsRun is one 2opt-or descent's device state; cities are Hilbert ranks on the device.
type glsRun struct {
	ru           *device.Run
	n, k, metric int
	cells, slots int
	bufs         device.Buffers
	xy, xs, cell, count, start, order, rank, tour, next, pos,
	nbr, active, mv, mvmid, owner, finer, sel, cnt cu.DevicePtr
	hostCnt []uint64
	greedy  bool // start from the greedy tour (glsgreedy.cu), else the curve
}

// glsStats counts a descent's passes, moves, gain and device time.
type glsStats struct {
	Passes, full  int
	moves         int64
	gain          uint64
	Setup, Search time.Duration
	stopped       bool // by the deadline or the context
	Rounds, Frags int  // the greedy start's matching rounds and fragments (0: none)
}

// newGLSRun allocates the run and uploads in's coordinates (run thread).
func newGLSRun(ru *device.Run, in *solver.Instance) (*glsRun, error) {
	metric, err := device.MetricCode(in)
	if err != nil {
		return nil, err
	}
	g := &glsRun{ru: ru, n: in.N, k: glsGridBits(in.N), metric: metric, hostCnt: make([]uint64, 3)}
	g.cells, g.slots = 1<<(2*g.k), glsLevelSlots(in.N)
	n, c := int64(in.N), int64(g.cells)
	if err := g.bufs.AllocAll(device.Buf(&g.xy, 16*n), device.Buf(&g.xs, 16*n), device.Buf(&g.cell, 4*n),
		device.Buf(&g.count, 4*c), device.Buf(&g.start, 4*(c+1)), device.Buf(&g.order, 4*n), device.Buf(&g.rank, 4*n),
		device.Buf(&g.tour, 4*n), device.Buf(&g.next, 4*n), device.Buf(&g.pos, 4*n), device.Buf(&g.nbr, 4*glsK*n),
		device.Buf(&g.active, n), device.Buf(&g.mv, 16*n), device.Buf(&g.mvmid, 4*n), device.Buf(&g.owner, 8*int64(g.slots)),
		device.Buf(&g.finer, int64(g.slots)), device.Buf(&g.sel, n), device.Buf(&g.cnt, 24)); err != nil {
		return nil, err
	}
	xy := make([]float64, 2*in.N)
	for i := 0; i < in.N; i++ {
		xy[2*i], xy[2*i+1] = in.X[i], in.Y[i]
	}
	if err := device.HtoD(g.xy, xy); err != nil {
		g.bufs.FreeAll()
		return nil, err
	}
	return g, nil
}

func (g *glsRun) grid(m int) int { return (m + glsBlock - 1) / glsBlock }

// build sorts the cities into the Hilbert grid, finds the lists and sets the start tour (given, greedy or the curve).
func (g *glsRun) build(in *solver.Instance, given []int, st *glsStats) error {
	r, n := g.ru, g.n
	minx, miny, inv := glsBox(in, g.k)
	if err := cu.MemsetD32Async(g.count, 0, int64(g.cells), r.Stream); err != nil {
		return err
	}
	if err := r.Launch("gls_cells", g.grid(n), 1, glsBlock, 0, r.Stream, g.xy, n, minx, miny, inv, g.k, g.cell, g.count); err != nil {
		return err
	}
	if err := r.Sync("the Hilbert grid"); err != nil {
		return err
	}
	counts, start := make([]uint32, g.cells), make([]uint32, g.cells+1)
	if err := device.DtoH(counts, g.count); err != nil {
		return err
	}
	glsScan(counts, start)
	if err := device.HtoD(g.start, start); err != nil {
		return err
	}
	if err := cu.Synchronize(); err != nil {
		return err
	}
	if err := cu.MemsetD32Async(g.count, 0, int64(g.cells), r.Stream); err != nil {
		return err
	}
	steps := []struct {
		name string
		m    int
		a    []any
	}{
		{"gls_scatter", n, []any{n, g.cell, g.start, g.count, g.order}},
		{"gls_cellsort", g.cells, []any{g.cells, g.start, g.order}},
		{"gls_permute", n, []any{n, g.order, g.xy, g.xs, g.rank, g.tour, g.pos, g.active}},
		{"gls_knn", n, []any{n, g.xs, g.start, minx, miny, inv, g.k, g.nbr}},
	}
	for _, s := range steps {
		if err := r.Launch(s.name, g.grid(s.m), 1, glsBlock, 0, r.Stream, s.a...); err != nil {
			return err
		}
	}
	if err := g.setStart(in, given, st); err != nil {
		return err
	}
	return r.Sync("the neighbour lists")
}

// setStart replaces the curve by the given tour or, when g.greedy, the greedy tour.
func (g *glsRun) setStart(in *solver.Instance, given []int, st *glsStats) error {
	r, n := g.ru, g.n
	if len(given) != n {
		if !g.greedy {
			return nil
		}
		var err error
		st.Rounds, st.Frags, err = g.greedyStart(in)
		return err
	}
	// the given tour goes where the city coordinates were: xy is free now
	if err := r.Sync("the neighbour lists"); err != nil {
		return err
	}
	if err := device.HtoD(g.xy, device.Convert[int32](given)); err != nil {
		return err
	}
	if err := cu.Synchronize(); err != nil {
		return err
	}
	return r.Launch("gls_start", g.grid(n), 1, glsBlock, 0, r.Stream, n, g.xy, g.rank, g.tour, g.pos)
}

// pass runs one pass from virtual origin off and returns the cities improved, moves applied and their gain.
func (g *glsRun) pass(off int, full bool) (found, applied, gain uint64, err error) {
	r, n, s := g.ru, g.n, g.ru.Stream
	err = device.InOrder(
		func() error { return cu.MemsetD32Async(g.owner, 0, 2*int64(g.slots), s) },
		func() error { return cu.MemsetD8Async(g.finer, 0, int64(g.slots), s) },
		func() error { return cu.MemsetD8Async(g.sel, 0, int64(n), s) },
		func() error { return cu.MemsetD32Async(g.cnt, 0, 6, s) },
		func() error {
			return r.Launch("gls_eval", g.grid(n), 1, glsBlock, 0, s, n, off, g.xs, g.tour, g.pos, g.nbr, g.active, full, g.metric, g.mv, g.mvmid, g.cnt)
		},
		func() error { return r.Launch("gls_mark", g.grid(n), 1, glsBlock, 0, s, n, g.mv, g.owner, g.finer) },
		func() error {
			return r.Launch("gls_check", g.grid(n), 1, glsBlock, 0, s, n, off, g.tour, g.mv, g.mvmid, g.owner, g.finer, g.sel, g.active, g.cnt)
		},
		func() error {
			return r.Launch("gls_apply", g.grid(n), 1, glsBlock, 0, s, n, off, g.tour, g.next, g.mv, g.mvmid, g.owner, g.sel)
		},
		func() error { return r.Launch("gls_pos", g.grid(n), 1, glsBlock, 0, s, n, g.next, g.pos) },
		func() error { return r.Sync("a 2opt-or pass") },
		func() error { return device.DtoH(g.hostCnt, g.cnt) },
	)
	g.tour, g.next = g.next, g.tour
	return g.hostCnt[0], g.hostCnt[1], g.hostCnt[2], err
}

// descend runs passes until two full ones find nothing, ctx ends, the deadline passes or a
// window of passes gains less than the share stall of the descent's gain (stallWatch; 0: never).
func (g *glsRun) descend(ctx context.Context, deadline time.Time, seed uint64, stall float64, st *glsStats) error {
	full, empty := false, 0
	watch := stallWatch{share: stall}
	for empty < 2 {
		now := time.Now()
		if ctx.Err() != nil || (!deadline.IsZero() && now.After(deadline)) {
			st.stopped = true
			return nil
		}
		if watch.stalled(now, st.gain) {
			return nil
		}
		off := int((seed*0x9E3779B97F4A7C15 + uint64(st.Passes)*0xBF58476D1CE4E5B9) >> 33 % uint64(g.n))
		found, applied, gain, err := g.pass(off, full)
		if err != nil {
			return err
		}
		st.Passes++
		if full {
			st.full++
		}
		st.moves += int64(applied)
		st.gain += gain
		switch {
		case found > 0:
			full, empty = false, 0
		case full:
			empty++
		default:
			full = true
		}
	}
	return nil
}

// export downloads the tour in city ids.
func (g *glsRun) export() ([]int, error) {
	if err := g.ru.Launch("gls_export", g.grid(g.n), 1, glsBlock, 0, g.ru.Stream, g.n, g.tour, g.order, g.next); err != nil {
		return nil, err
	}
	if err := g.ru.Sync("exporting the tour"); err != nil {
		return nil, err
	}
	t := make([]int32, g.n)
	if err := device.DtoH(t, g.next); err != nil {
		return nil, err
	}
	return device.Convert[int](t), nil
}

// GlsDescent descends on the GPU from a start tour (given, greedy or the Hilbert
// curve) to a 2-opt + Or-opt optimum over the lists, or until the deadline, or
// until a second of passes gains less than the share stall of its gain (0:
// never).
func GlsDescent(ctx context.Context, in *solver.Instance, given []int, greedy bool, seed uint64, deadline time.Time, stall float64) ([]int, glsStats, error) {
	var st glsStats
	if in.N < glsMinN || len(in.X) != in.N || !OrSpanOK(in) {
		return nil, st, fmt.Errorf("%w: 2opt-or needs at least %d cities with coordinates within a span of %.0e", device.ErrUnsupported, glsMinN, OrMaxSpan)
	}
	ru, err := device.NewRunIn(ctx)
	if err != nil {
		return nil, st, err
	}
	defer ru.Close()
	var t []int
	err = ru.Do(func() error {
		g, err := newGLSRun(ru, in)
		if err != nil {
			return err
		}
		defer g.bufs.FreeAll()
		g.greedy = greedy
		t0 := time.Now()
		if err := g.build(in, given, &st); err != nil {
			return err
		}
		st.Setup = time.Since(t0)
		t0 = time.Now()
		if err := g.descend(ctx, deadline, seed, stall, &st); err != nil {
			return err
		}
		st.Search = time.Since(t0)
		t, err = g.export()
		return err
	})
	return t, st, err
}

// solveTourLS is the 2opt-or engine: one descent, its tour re-measured by Finish.
func solveTourLS(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	if len(in.FixedEdges) > 0 {
		return solver.Result{}, fmt.Errorf("%w: 2opt-or does not keep fixed edges", device.ErrUnsupported)
	}
	deadline := solver.DeadlineOf(ctx, start)
	cfg, err := tourLSSpec.Parse(in, p)
	if err != nil {
		return solver.Result{}, err
	}
	t, st, err := GlsDescent(ctx, in, p.Start, cfg.Greedy, p.Seed, deadline, 0)
	if err != nil {
		return solver.Result{}, err
	}
	sink := solver.NewSink(snaps, 0, start)
	l := solver.TourLength(in, t)
	sink.Send(solver.Snapshot{Tour: t, Length: l, Best: t, BestLength: l, Progress: 1, Phase: solver.PhaseSearch, PhaseProgress: 1, Step: int64(st.Passes), Moves: st.moves})
	dev := fmt.Sprintf("%s: grid, %d-nearest lists and %s start %.1f ms; %d passes (%d over every city) %.1f ms, %d moves, gain %d",
		device.LabelIn(ctx), glsK, GlsStartName(len(p.Start) == in.N, st.Rounds, st.Frags), Millis(st.Setup), st.Passes, st.full, Millis(st.Search), st.moves, st.gain)
	return solver.Finish(in, e, p, solver.Outcome{Tour: t, Moves: st.moves, Steps: int64(st.Passes), Start: start, Stopped: st.stopped || ctx.Err() != nil, Device: dev})
}

// Millis is d in milliseconds.
func Millis(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
