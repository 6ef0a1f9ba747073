//go:build cuda

package device

import (
	"fmt"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
)

// LSDist is the swap and 3-opt kernels' distances: the suffix and the coordinates or matrix.
type LSDist struct {
	Suffix  string
	Xy, Mat cu.DevicePtr
}

// LSDistMode decides between matrix and coordinates for in and OptDist.
func LSDistMode(in *solver.Instance, choice string) (matrix bool, err error) {
	_, cerr := MetricCode(in)
	switch choice {
	case "matrix":
		if in.Matrix == nil && int64(in.N)*int64(in.N) > 1<<28 {
			return false, fmt.Errorf("%w: a %d x %d distance matrix does not fit the GPU engines' 1 GiB limit", ErrUnsupported, in.N, in.N)
		}
		return true, nil
	case "coords":
		if cerr != nil {
			return false, cerr
		}
		return false, nil
	case "", "auto":
		switch {
		case in.Matrix != nil:
			return true, nil
		case cerr != nil: // a metric the kernels do not compute: the matrix, while it is small
			if in.N > MatrixMaxN {
				return false, cerr
			}
			return true, nil
		}
		return false, nil
	}
	return false, fmt.Errorf("option %s=%q: want auto, matrix or coords", OptDist, choice)
}

// NewLSDist uploads in's distances (context thread).
func NewLSDist(bufs *Buffers, in *solver.Instance, matrix bool) (LSDist, error) {
	if matrix {
		free, _, err := cu.MemInfo()
		if err != nil {
			return LSDist{}, err
		}
		if bytes := int64(in.N) * int64(in.N) * 4; bytes > UsableMemory(free) {
			return LSDist{}, fmt.Errorf("%w: the %d x %d distance matrix takes %d MiB; %d MiB of GPU memory are free", ErrUnsupported, in.N, in.N, bytes>>20, free>>20)
		}
		m := in.DistMatrix(in.N * in.N)
		p, err := bufs.Alloc(int64(len(m)) * 4)
		if err != nil {
			return LSDist{}, err
		}
		if err := HtoD(p, m); err != nil {
			return LSDist{}, err
		}
		return LSDist{Suffix: "mat", Mat: p}, nil
	}
	code, err := MetricCode(in)
	if err != nil {
		return LSDist{}, err
	}
	xy := ShiftedCoords(in)
	p, err := bufs.Alloc(int64(len(xy)) * 4)
	if err != nil {
		return LSDist{}, err
	}
	if err := HtoD(p, xy); err != nil {
		return LSDist{}, err
	}
	return LSDist{Suffix: MetricSuffix[code], Xy: p}, nil
}

// LSBest mirrors LSBest in localsearch.cuh.
type LSBest struct {
	Delta   int32
	A, B, C int32
}
