//go:build cuda

package climb

import (
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/benchgpu"
	"github.com/tsplab/tsplab/solver"
)

// TwoOptDescent runs 2opt-ils's GPU local search from start until no move survives the check.
func TwoOptDescent(in *solver.Instance, start []int) (benchgpu.Descent, error) {
	r, err := device.NewRunFor(in)
	if err != nil {
		return benchgpu.Descent{}, err
	}
	defer r.Close()
	if err := solver.ValidateTour(start, in.N); err != nil {
		return benchgpu.Descent{}, err
	}
	var b *twoOptBatch
	if err := r.Do(func() (err error) { b, err = newBatch(r, in.N, 1); return err }); err != nil {
		return benchgpu.Descent{}, err
	}
	defer r.Do(b.free)
	d := benchgpu.Descent{Tour: slices.Clone(start), Device: r.Dev.Label}
	t0 := time.Now()
	d.Moves, d.Passes, _, err = twoOptLocalSearch(context.Background(), b, in, device.ShiftedCoords(in), device.RawScale(in), d.Tour, time.Time{}, nil)
	d.Elapsed = time.Since(t0)
	return d, err
}

// OnePass times one 2-opt neighbourhood evaluation of t as Rocki and Suda's Table II does.
func OnePass(in *solver.Instance, t []int, reps int) (benchgpu.PassTimes, error) {
	r, err := device.NewRunFor(in)
	if err != nil {
		return benchgpu.PassTimes{}, err
	}
	defer r.Close()
	if err := solver.ValidateTour(t, in.N); err != nil {
		return benchgpu.PassTimes{}, err
	}
	reps = max(reps, 1)
	var ks, hs, ds []time.Duration
	err = r.Do(func() error {
		b, err := newBatch(r, in.N, 1)
		if err != nil {
			return err
		}
		defer b.free()
		xy, scale := device.ShiftedCoords(in), device.RawScale(in)
		for k := 0; k <= reps; k++ { // the first round warms up
			t0 := time.Now()
			if err := b.upload(0, xy, scale, t); err != nil {
				return err
			}
			if err := r.Stream.Synchronize(); err != nil {
				return err
			}
			t1 := time.Now()
			if err := b.eval(); err != nil {
				return err
			}
			if err := r.Stream.Synchronize(); err != nil {
				return fmt.Errorf("2-opt evaluation failed: %w", err)
			}
			t2 := time.Now()
			if err := device.DtoH(b.hostTB, b.best); err != nil {
				return err
			}
			t3 := time.Now()
			if k > 0 {
				hs, ks, ds = append(hs, t1.Sub(t0)), append(ks, t2.Sub(t1)), append(ds, t3.Sub(t2))
			}
		}
		return nil
	})
	med := func(v []time.Duration) time.Duration {
		slices.Sort(v)
		return v[len(v)/2]
	}
	if err != nil {
		return benchgpu.PassTimes{Device: r.Dev.Label}, err
	}
	return benchgpu.PassTimes{Kernel: med(ks), Upload: med(hs), Download: med(ds), Device: r.Dev.Label}, nil
}
