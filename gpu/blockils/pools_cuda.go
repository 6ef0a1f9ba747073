//go:build cuda

package blockils

import (
	"context"
	"errors"
	"slices"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// OpenTourPoolOn is solver.OpenTourPool on the GPU contexts sel: on one
// (or none: device 0) OpenTourPool's pool there; on several, a pool on
// each (pool i seeded device.ShareSeed(seed, i)), every Improve sharing
// the tours out between them by their slots, the shares searched at once.
func OpenTourPoolOn(sel []device.DevSlot) solver.OpenTourPool {
	return func(in *solver.Instance, seed uint64) (solver.TourPool, error) {
		if len(sel) <= 1 {
			ds := device.DevSlot{}
			if len(sel) == 1 {
				ds = sel[0]
			}
			p, err := openTourPoolAt(in, seed, biDefaults, ds)
			if err != nil {
				return nil, err
			}
			return p, nil
		}
		m := &tourPools{}
		for i, ds := range sel {
			p, err := openTourPoolAt(in, device.ShareSeed(seed, i), biDefaults, ds)
			if err != nil {
				m.Close()
				return nil, err
			}
			m.pools = append(m.pools, p)
		}
		return m, nil
	}
}

// tourPools is one solver.TourPool over the pools of several GPU contexts.
type tourPools struct {
	pools []*tourPool
	kicks int64 // the last Improve's, all pools together
}

var _ solver.TourPool = (*tourPools)(nil)

// Slots is the tours the devices search at once, all together.
func (m *tourPools) Slots() int {
	s := 0
	for _, p := range m.pools {
		s += p.Slots()
	}
	return s
}

// Close closes every pool.
func (m *tourPools) Close() error {
	var errs []error
	for _, p := range m.pools {
		errs = append(errs, p.Close())
	}
	return errors.Join(errs...)
}

// LastKicks is the kicks of the last Improve, all pools together
// (population.KickCounter).
func (m *tourPools) LastKicks() int64 { return m.kicks }

// Improve shares tours out between the pools by their slots, each share
// searched on its own device at once, and writes the tours back only
// when every share came back (solver.TourPool).
func (m *tourPools) Improve(ctx context.Context, tours [][]int32, kicks int) ([]int64, error) {
	cuts := m.shares(len(tours))
	work := make([][]int32, len(tours))
	for i, t := range tours {
		work[i] = slices.Clone(t)
	}
	lens := make([][]int64, len(m.pools))
	errs := device.OnEach(len(m.pools), func(i int) error {
		if cuts[i] == cuts[i+1] {
			return nil
		}
		var err error
		lens[i], err = m.pools[i].Improve(ctx, work[cuts[i]:cuts[i+1]], kicks)
		return err
	})
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	m.kicks = 0
	var out []int64
	for i, p := range m.pools {
		if cuts[i] < cuts[i+1] {
			m.kicks += p.LastKicks()
		}
		out = append(out, lens[i]...)
	}
	for i, t := range work {
		copy(tours[i], t)
	}
	return out, nil
}

// shares cuts T tours into the pools' shares by their slots: pool i takes
// tours cuts[i]:cuts[i+1].
func (m *tourPools) shares(T int) []int {
	total := max(m.Slots(), 1)
	cuts := make([]int, len(m.pools)+1)
	acc := 0
	for i, p := range m.pools {
		acc += p.Slots()
		cuts[i+1] = T * acc / total
	}
	cuts[len(m.pools)] = T
	return cuts
}
