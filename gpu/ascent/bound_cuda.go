//go:build cuda

package ascent

import (
	"errors"
	"fmt"
	"math/bits"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver/bound"
)

func init() {
	device.RegisterKernels("bound_step", "bound_pisum", "bound_minedge", "bound_hook", "bound_link", "bound_jump",
		"bound_relabel", "bound_leaf", "bound_addleaf", "bound_norm")
}

// boundState mirrors BoundState in bound.cu.
type boundState struct {
	Sum, PiSum, Norm, Joined, LeafKey, Overflow uint64
}

// boundBlock is every bound kernel's block size, a multiple of the warp size.
const boundBlock = 256

// boundDevice runs the Held–Karp ascent's 1-trees on the GPU, reading back one boundState per Borůvka round.
type boundDevice struct {
	r                      *device.Run
	n                      int
	idxBits                int64
	offset                 int64
	off, adj, dist, rev    cu.DevicePtr
	pi, bestPi, deg, lastv cu.DevicePtr
	comp, best, nbrx, done cu.DevicePtr
	ptr, ptr2, st          cu.DevicePtr
	host                   boundState
}

var _ bound.Device = (*boundDevice)(nil)

// BoundDevice opens the GPU for solver/bound's Held–Karp ascent (bound.Options.Device).
func BoundDevice() (bound.Device, error) {
	r, err := device.NewRun()
	if err != nil {
		return nil, err
	}
	return &boundDevice{r: r}, nil
}

func (b *boundDevice) Start(g bound.Graph) (int64, int64, error) {
	var w, norm int64
	err := b.r.Do(func() error {
		n := len(g.Off) - 1
		E := len(g.Adj)
		b.n = n
		b.idxBits = int64(bits.Len(uint(E)))
		// Keys hold weight+offset in 63-idxBits bits; beyond 2^(62-idxBits) the kernels raise the overflow flag.
		b.offset = int64(1) << (62 - b.idxBits)
		n64, E64 := int64(n), int64(E)
		err := b.r.Bufs.AllocAll(device.Buf(&b.off, 4*(n64+1)), device.Buf(&b.adj, 4*E64), device.Buf(&b.dist, 4*E64), device.Buf(&b.rev, 4*E64),
			device.Buf(&b.pi, 8*n64), device.Buf(&b.bestPi, 8*n64), device.Buf(&b.deg, 4*n64), device.Buf(&b.lastv, 4*n64),
			device.Buf(&b.comp, 4*n64), device.Buf(&b.best, 8*n64), device.Buf(&b.nbrx, 4*n64), device.Buf(&b.done, 4*n64),
			device.Buf(&b.ptr, 4*n64), device.Buf(&b.ptr2, 4*n64), device.Buf(&b.st, int64(unsafe.Sizeof(boundState{}))))
		if err == nil {
			err = device.InOrder(func() error { return device.HtoD(b.off, g.Off) }, func() error { return device.HtoD(b.adj, g.Adj) },
				func() error { return device.HtoD(b.dist, g.Dist) }, func() error { return device.HtoD(b.rev, g.Rev) },
				func() error { return device.HtoD(b.pi, make([]int64, n)) }, func() error { return device.HtoD(b.lastv, make([]int32, n)) },
				func() error { return device.HtoD(b.deg, make([]int32, n)) }, func() error { return device.HtoD(b.st, []boundState{{}}) })
		}
		if err != nil {
			return err
		}
		w, norm, err = b.tree(0)
		return err
	})
	return w, norm, err
}

func (b *boundDevice) Step(t int64) (int64, int64, error) {
	var w, norm int64
	err := b.r.Do(func() error {
		var err error
		w, norm, err = b.tree(t)
		return err
	})
	return w, norm, err
}

// tree moves the penalties by step t and computes the next minimum 1-tree.
func (b *boundDevice) tree(t int64) (int64, int64, error) {
	r, n := b.r, b.n
	grid := (n + boundBlock - 1) / boundBlock
	s := r.Stream
	if err := r.Launch("bound_step", grid, 1, boundBlock, 0, s, n, t, b.pi, b.deg, b.lastv, b.comp, b.best, b.nbrx, b.done, b.st); err != nil {
		return 0, 0, err
	}
	if err := r.Launch("bound_pisum", grid, 1, boundBlock, 0, s, n, b.pi, b.st); err != nil {
		return 0, 0, err
	}
	last := uint64(0)
	for {
		if err := r.Launch("bound_minedge", grid, 1, boundBlock, 0, s, n, b.off, b.adj, b.dist, b.rev, b.pi, b.comp, b.best, b.done, b.offset, b.idxBits, b.st); err != nil {
			return 0, 0, err
		}
		if err := r.Launch("bound_hook", grid, 1, boundBlock, 0, s, n, b.adj, b.rev, b.comp, b.best, b.ptr, b.idxBits); err != nil {
			return 0, 0, err
		}
		if err := r.Launch("bound_link", grid, 1, boundBlock, 0, s, n, b.adj, b.rev, b.comp, b.best, b.ptr, b.ptr2, b.deg, b.nbrx, b.offset, b.idxBits, b.st); err != nil {
			return 0, 0, err
		}
		if err := r.Launch("bound_jump", grid, 1, boundBlock, 0, s, n, b.comp, b.ptr2, b.ptr); err != nil {
			return 0, 0, err
		}
		if err := r.Launch("bound_relabel", grid, 1, boundBlock, 0, s, n, b.comp, b.ptr, b.best); err != nil {
			return 0, 0, err
		}
		if err := b.readState(); err != nil {
			return 0, 0, err
		}
		if b.host.Overflow != 0 {
			return 0, 0, errors.New("gpu: 1-tree weights out of the packed key's range")
		}
		if b.host.Joined >= uint64(n-1) {
			break
		}
		if b.host.Joined == last {
			return 0, 0, fmt.Errorf("gpu: the candidate graph is not connected (%d of %d tree edges)", last, n-1)
		}
		last = b.host.Joined
	}
	if err := r.Launch("bound_leaf", grid, 1, boundBlock, 0, s, n, b.off, b.adj, b.dist, b.pi, b.deg, b.nbrx, b.offset, b.idxBits, b.st); err != nil {
		return 0, 0, err
	}
	if err := r.Launch("bound_addleaf", 1, 1, 1, 0, s, b.adj, b.rev, b.deg, b.offset, b.idxBits, b.st); err != nil {
		return 0, 0, err
	}
	if err := r.Launch("bound_norm", grid, 1, boundBlock, 0, s, n, b.deg, b.st); err != nil {
		return 0, 0, err
	}
	if err := b.readState(); err != nil {
		return 0, 0, err
	}
	return int64(b.host.Sum) - 2*int64(b.host.PiSum), int64(b.host.Norm), nil
}

func (b *boundDevice) readState() error {
	if err := b.r.Sync("the bound's 1-tree"); err != nil {
		return err
	}
	h := []boundState{{}}
	if err := device.DtoH(h, b.st); err != nil {
		return err
	}
	b.host = h[0]
	return nil
}

func (b *boundDevice) KeepBest() error {
	return b.r.Do(func() error {
		// On the run's stream, so the next step's kernels wait for it.
		return cu.MemcpyDtoDAsync(b.bestPi, b.pi, int64(8*b.n), b.r.Stream)
	})
}

func (b *boundDevice) Best(pi []int64) error {
	return b.r.Do(func() error {
		if err := b.r.Sync("the bound's ascent"); err != nil {
			return err
		}
		return device.DtoH(pi, b.bestPi)
	})
}

func (b *boundDevice) Close() error {
	b.r.Close()
	return nil
}
