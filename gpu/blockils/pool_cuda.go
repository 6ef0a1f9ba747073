//go:build cuda

package blockils

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// tourPool is solver.TourPool on the GPU (blockils.cu), a warp a tour; the device keeps the instance until Close.
type tourPool struct {
	in       *solver.Instance
	metric   int
	nb       []int32
	seed     uint64
	launches uint64
	ru       *device.Run
	s        *biSet
	slots    int
	capT     int    // tours the buffers hold
	opts     biOpts // the search's settings
	// counters of the last Improve: moves evaluated, made, kicks, kept
	ctr []uint64
}

var _ solver.TourPool = (*tourPool)(nil)

// OpenTourPool is solver.OpenTourPool on the GPU, for 10 to about 30,000 cities, 8 nearest neighbours as candidates.
func OpenTourPool(in *solver.Instance, seed uint64) (solver.TourPool, error) {
	p, err := openTourPool(in, seed, biDefaults)
	if err != nil {
		return nil, err // no typed nil in the interface
	}
	return p, nil
}

// openTourPool is OpenTourPool with the search's settings o.
func openTourPool(in *solver.Instance, seed uint64, o biOpts) (*tourPool, error) {
	m, err := device.MetricCode(in)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", solver.ErrNoTourPool, err)
	}
	if in.N < biMinN || in.N > biMaxN {
		return nil, fmt.Errorf("%w: the GPU pool takes %d to %d cities, %s has %d", solver.ErrNoTourPool, biMinN, biMaxN, in.Name, in.N)
	}
	ru, err := device.NewRun()
	if err != nil {
		return nil, err
	}
	p := &tourPool{in: in, metric: m, seed: seed, ru: ru, opts: o}
	err = ru.Do(func() error {
		pl, err := planBlockILS(ru, m, in.N, biMaxWarps, true, false)
		p.slots = pl.slots
		return err
	})
	if err != nil {
		ru.Close()
		return nil, err
	}
	p.nb = neighbor.Nearest(in, biK).List
	return p, nil
}

// Slots is the tours the device searches at once.
func (p *tourPool) Slots() int { return p.slots }

// Close frees the device's buffers and ends the run.
func (p *tourPool) Close() error {
	if p.ru == nil {
		return nil
	}
	if p.s != nil {
		p.ru.Do(func() error { p.s.free(); return nil })
	}
	p.ru.Close()
	p.ru, p.s = nil, nil
	return nil
}

// Improve runs kicks kicks on every tour (solver.TourPool).
func (p *tourPool) Improve(ctx context.Context, tours [][]int32, kicks int) ([]int64, error) {
	if p.ru == nil {
		return nil, errors.New("gpu: the tour pool is closed")
	}
	budget, deadline, err := poolBudget(ctx, kicks)
	if err != nil {
		return nil, err
	}
	flat, err := p.flatten(tours)
	if err != nil || len(tours) == 0 {
		return nil, err
	}
	if err := p.ru.Do(func() error { return p.load(len(tours), flat) }); err != nil {
		return nil, err
	}
	if err := p.search(ctx, deadline, budget); err != nil {
		return nil, err
	}
	return p.collect(tours, len(flat))
}

// poolBudget returns an Improve's kicks a tour and deadline; a search needs one.
func poolBudget(ctx context.Context, kicks int) (int64, time.Time, error) {
	deadline, hasDeadline := ctx.Deadline()
	if kicks <= 0 && !hasDeadline {
		return 0, time.Time{}, errors.New("gpu: a tour pool search without a kick budget needs a deadline")
	}
	budget := int64(kicks)
	if kicks <= 0 {
		budget = biNoBudget
	}
	if !hasDeadline {
		deadline = time.Time{}
	}
	return budget, deadline, nil
}

// flatten checks the tours handed to the pool and concatenates them.
func (p *tourPool) flatten(tours [][]int32) ([]int32, error) {
	n := p.in.N
	flat := make([]int32, 0, len(tours)*n)
	for i, t := range tours {
		if err := solver.ValidateTour(device.Convert[int](t), n); err != nil {
			return nil, fmt.Errorf("gpu: tour %d handed to the pool: %v", i, err)
		}
		flat = append(flat, t...)
	}
	return flat, nil
}

// load puts flat's T tours on the device, growing the set first.
func (p *tourPool) load(T int, flat []int32) error {
	if p.s == nil || p.capT < T {
		if p.s != nil {
			p.s.free()
			p.s = nil
		}
		// few tours spread over the SMs, a block each
		want := (T + p.ru.Dev.Info.Multiprocs - 1) / p.ru.Dev.Info.Multiprocs
		pl, err := planBlockILS(p.ru, p.metric, p.in.N, want, true, false)
		if err != nil {
			return err
		}
		ti := make([]int, T)
		if p.s, err = newBISet(p.ru, pl, []biInst{{p.in, p.nb}}, ti); err != nil {
			return err
		}
		p.capT = T
	}
	p.s.T = T // a larger set takes fewer tours
	return p.s.put(flat)
}

// search launches the block search in slices until ctx ends, the deadline passes or budget kicks are spent.
func (p *tourPool) search(ctx context.Context, deadline time.Time, budget int64) error {
	c0 := slices.Clone(p.s.hCtr)
	for ctx.Err() == nil {
		slice := biSliceFor(deadline)
		if slice <= 0 {
			break
		}
		p.launches++
		seed := p.seed*0x9E3779B97F4A7C15 + p.launches
		if err := p.ru.Do(func() error { return p.s.launch(budget, seed, slice, p.opts) }); err != nil {
			return err
		}
		if p.s.allKicked(budget) {
			break
		}
	}
	p.ctr = make([]uint64, biCounters)
	for i := range p.ctr {
		p.ctr[i] = p.s.hCtr[i] - c0[i]
	}
	return nil
}

// collect reads the improved tours back, checks each is no longer than it came, and returns their lengths.
func (p *tourPool) collect(tours [][]int32, size int) ([]int64, error) {
	n := p.in.N
	out := make([]int32, size)
	if err := p.ru.Do(func() error { return p.s.get(out) }); err != nil {
		return nil, err
	}
	lens := make([]int64, len(tours))
	for i, t := range tours {
		gt := device.Convert[int](out[i*n : (i+1)*n])
		if err := solver.ValidateTour(gt, n); err != nil {
			return nil, fmt.Errorf("gpu: the block search returned an invalid tour %d: %v", i, err)
		}
		if err := p.in.CheckFixedEdges(gt); err != nil {
			return nil, fmt.Errorf("gpu: the block search returned tour %d without a fixed edge: %v", i, err)
		}
		lens[i] = solver.TourLength(p.in, gt)
		if l0 := solver.TourLength(p.in, device.Convert[int](t)); lens[i] > l0 {
			return nil, fmt.Errorf("gpu: the block search returned tour %d longer than it came (%d > %d)", i, lens[i], l0)
		}
	}
	for i, t := range tours {
		copy(t, out[i*n:(i+1)*n])
	}
	return lens, nil
}

// LastKicks is the last Improve's kicks (population.KickCounter).
func (p *tourPool) LastKicks() int64 {
	if len(p.ctr) < 3 {
		return 0
	}
	return int64(p.ctr[2])
}
