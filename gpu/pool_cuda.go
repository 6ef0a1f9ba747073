//go:build cuda

package gpu

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// tourPool is solver.TourPool on the GPU: kernels/blockils.cu with one
// warp per tour, the warps of a block sharing the instance's coordinates.
// The device keeps the instance and its candidate lists from the first
// Improve to Close; the tours' buffers grow to the largest call.
type tourPool struct {
	in       *solver.Instance
	metric   int
	nb       []int32
	seed     uint64
	launches uint64
	ru       *run
	s        *biSet
	slots    int
	capT     int // tours the buffers hold
	// counters of the last Improve: moves evaluated, made, kicks, kept
	ctr []uint64
}

var _ solver.TourPool = (*tourPool)(nil)

// OpenTourPool is solver.OpenTourPool on the GPU: it opens a run on the
// device for tours of in (10 to about 30,000 cities: a tour's state must
// fit a block's shared memory) with its 8 nearest neighbours as candidates.
func OpenTourPool(in *solver.Instance, seed uint64) (solver.TourPool, error) {
	m, err := metricCode(in)
	if err != nil {
		return nil, fmt.Errorf("%w: %w", solver.ErrNoTourPool, err)
	}
	if in.N < biMinN || in.N > biMaxN {
		return nil, fmt.Errorf("%w: the GPU pool takes %d to %d cities, %s has %d", solver.ErrNoTourPool, biMinN, biMaxN, in.Name, in.N)
	}
	ru, err := newRun()
	if err != nil {
		return nil, err
	}
	p := &tourPool{in: in, metric: m, seed: seed, ru: ru}
	err = ru.do(func() error {
		pl, err := ru.planBlockILS(m, in.N, biMaxWarps, true)
		p.slots = pl.slots
		return err
	})
	if err != nil {
		ru.close()
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
		p.ru.do(func() error { p.s.free(); return nil })
	}
	p.ru.close()
	p.ru, p.s = nil, nil
	return nil
}

// Improve runs kicks kicks on every tour (solver.TourPool).
func (p *tourPool) Improve(ctx context.Context, tours [][]int32, kicks int) ([]int64, error) {
	if p.ru == nil {
		return nil, errors.New("gpu: the tour pool is closed")
	}
	n := p.in.N
	deadline, hasDeadline := ctx.Deadline()
	if kicks <= 0 && !hasDeadline {
		return nil, errors.New("gpu: a tour pool search without a kick budget needs a deadline")
	}
	budget := int64(kicks)
	if kicks <= 0 {
		budget = biNoBudget
	}
	if !hasDeadline {
		deadline = time.Time{}
	}
	flat := make([]int32, 0, len(tours)*n)
	for i, t := range tours {
		if err := solver.ValidateTour(convert[int](t), n); err != nil {
			return nil, fmt.Errorf("gpu: tour %d handed to the pool: %v", i, err)
		}
		flat = append(flat, t...)
	}
	if len(tours) == 0 {
		return nil, nil
	}
	err := p.ru.do(func() error {
		if p.s == nil || p.capT < len(tours) {
			if p.s != nil {
				p.s.free()
				p.s = nil
			}
			// few tours spread over the SMs, a block each
			want := (len(tours) + p.ru.d.info.Multiprocs - 1) / p.ru.d.info.Multiprocs
			pl, err := p.ru.planBlockILS(p.metric, n, want, true)
			if err != nil {
				return err
			}
			ti := make([]int, len(tours))
			if p.s, err = p.ru.newBISet(pl, []biInst{{p.in, p.nb}}, ti); err != nil {
				return err
			}
			p.capT = len(tours)
		}
		p.s.T = len(tours) // a larger set takes fewer tours
		return p.s.put(flat)
	})
	if err != nil {
		return nil, err
	}
	c0 := slices.Clone(p.s.hCtr)
	for ctx.Err() == nil {
		slice := biSliceFor(deadline)
		if slice <= 0 {
			break
		}
		p.launches++
		seed := p.seed*0x9E3779B97F4A7C15 + p.launches
		if err := p.ru.do(func() error { return p.s.launch(budget, seed, slice, biDefaults) }); err != nil {
			return nil, err
		}
		if p.s.allKicked(budget) {
			break
		}
	}
	p.ctr = make([]uint64, biCounters)
	for i := range p.ctr {
		p.ctr[i] = p.s.hCtr[i] - c0[i]
	}
	out := make([]int32, len(flat))
	if err := p.ru.do(func() error { return p.s.get(out) }); err != nil {
		return nil, err
	}
	lens := make([]int64, len(tours))
	for i, t := range tours {
		gt := convert[int](out[i*n : (i+1)*n])
		if err := solver.ValidateTour(gt, n); err != nil {
			return nil, fmt.Errorf("gpu: the block search returned an invalid tour %d: %v", i, err)
		}
		lens[i] = solver.TourLength(p.in, gt)
		if l0 := solver.TourLength(p.in, convert[int](t)); lens[i] > l0 {
			return nil, fmt.Errorf("gpu: the block search returned tour %d longer than it came (%d > %d)", i, lens[i], l0)
		}
	}
	for i, t := range tours {
		copy(t, out[i*n:(i+1)*n])
	}
	return lens, nil
}
