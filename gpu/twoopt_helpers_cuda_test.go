//go:build cuda

package gpu

import "github.com/tsplab/tsplab/solver"

// The tests' windows into the 2-opt evaluation kernels.

// debugDeltas returns the per-move deltas the debug kernel computes for
// tour t (n*n floats, +Inf where (i, j) is no move).
func debugDeltas(in *solver.Instance, t []int) ([]float32, []float32, error) {
	r, err := newRun()
	if err != nil {
		return nil, nil, err
	}
	defer r.close()
	n := in.N
	xy := shiftedCoords(in)
	pts := make([]float32, 4*n)
	tourPoints(xy, rawScale(in), t, pts)
	out := make([]float32, n*n)
	err = r.do(func() error {
		var bufs buffers
		defer bufs.freeAll()
		p, err := bufs.alloc(int64(16 * n))
		if err != nil {
			return err
		}
		o, err := bufs.alloc(int64(4 * n * n))
		if err != nil {
			return err
		}
		if err := htod(p, pts); err != nil {
			return err
		}
		if err := r.launch("twoopt_eval_debug", (n*n+255)/256, 1, 256, 0, r.stream, p, n, o); err != nil {
			return err
		}
		if err := r.stream.Synchronize(); err != nil {
			return err
		}
		return dtoh(out, o)
	})
	return out, pts, err
}

// evalTiles runs the fast kernel on one tour and returns its tiles' best
// moves.
func evalTiles(in *solver.Instance, t []int) ([]tileBest, error) {
	r, err := newRun()
	if err != nil {
		return nil, err
	}
	defer r.close()
	var out []tileBest
	err = r.do(func() error {
		b, err := r.newBatch(in.N, 1)
		if err != nil {
			return err
		}
		defer b.free()
		if err := b.upload(0, shiftedCoords(in), rawScale(in), t); err != nil {
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
