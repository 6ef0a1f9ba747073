//go:build cuda

package climb

import (
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// The tests' windows into the 2-opt evaluation kernels.

// debugDeltas returns the per-move deltas the debug kernel computes for
// tour t (n*n floats, +Inf where (i, j) is no move).
func debugDeltas(in *solver.Instance, t []int) ([]float32, []float32, error) {
	r, err := device.NewRun()
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	n := in.N
	xy := device.ShiftedCoords(in)
	pts := make([]float32, 4*n)
	device.TourPoints(xy, device.RawScale(in), t, pts)
	out := make([]float32, n*n)
	err = r.Do(func() error {
		var bufs device.Buffers
		defer bufs.FreeAll()
		p, err := bufs.Alloc(int64(16 * n))
		if err != nil {
			return err
		}
		o, err := bufs.Alloc(int64(4 * n * n))
		if err != nil {
			return err
		}
		if err := device.HtoD(p, pts); err != nil {
			return err
		}
		if err := r.Launch("twoopt_eval_debug", (n*n+255)/256, 1, 256, 0, r.Stream, p, n, o); err != nil {
			return err
		}
		if err := r.Stream.Synchronize(); err != nil {
			return err
		}
		return device.DtoH(out, o)
	})
	return out, pts, err
}

// evalTiles runs the fast kernel on one tour and returns its tiles' best
// moves.
func evalTiles(in *solver.Instance, t []int) ([]tileBest, error) {
	r, err := device.NewRun()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	var out []tileBest
	err = r.Do(func() error {
		b, err := newBatch(r, in.N, 1)
		if err != nil {
			return err
		}
		defer b.free()
		if err := b.upload(0, device.ShiftedCoords(in), device.RawScale(in), t); err != nil {
			return err
		}
		if err := b.eval(); err != nil {
			return err
		}
		if err := b.fetchBest(); err != nil {
			return err
		}
		out = append(out, b.hostTB...)
		return nil
	})
	return out, err
}
