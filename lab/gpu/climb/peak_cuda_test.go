//go:build cuda

package climb

import (
	"fmt"
	"math"
	"testing"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
)

// The chip's peak rates are measured by tests and benchmarks alone.
func init() { device.RegisterKernels("peak_sqrt", "peak_fma") }

// Peak is the chip's own rate on the two pipes the 2-opt kernels load,
// measured by peak.cu: fast square roots a second (the
// special-function units) and fused multiply-adds a second (the FMA pipe,
// which also issues every add, compare and min of a move).
type Peak struct {
	RootsPerSec, FMAsPerSec float64
	Device                  string
}

// peakChains and peakFMAs are peak.cu's PEAK_CHAINS and its FMAs
// per chain a round.
const (
	peakChains  = 8
	peakFMAs    = 4
	peakThreads = 256
)

// PeakRates measures Peak on device 0: each kernel fills every SM (8
// blocks of 256 threads an SM) for iters rounds, once to warm up and
// once timed with device events. It fails when a result is not finite
// (a kernel that did not run its chains).
func PeakRates(iters int) (Peak, error) {
	r, err := device.NewRun()
	if err != nil {
		return Peak{}, err
	}
	defer r.Close()
	var pk Peak
	err = r.Do(func() error {
		blocks := 8 * r.Dev.Info.Multiprocs
		th := blocks * peakThreads
		var out cu.DevicePtr
		if err := r.Bufs.AllocAll(device.Buf(&out, int64(4*th))); err != nil {
			return err
		}
		rate := func(name string, perIter int, a ...any) (float64, error) {
			args := append([]any{out, int64(iters)}, a...)
			for k := 0; k < 2; k++ {
				ms, err := r.Timed(name, func() error { return r.Launch(name, blocks, 1, peakThreads, 0, r.Stream, args...) })
				if err != nil {
					return 0, err
				}
				if k == 1 {
					return float64(th) * float64(iters) * float64(perIter) / (ms / 1000), nil
				}
			}
			return 0, nil
		}
		check := func(name string) error {
			v := make([]float32, th)
			if err := device.DtoH(v, out); err != nil {
				return err
			}
			for _, x := range v {
				if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) || x == 0 {
					return fmt.Errorf("gpu: %s wrote %v", name, x)
				}
			}
			return nil
		}
		var err error
		if pk.RootsPerSec, err = rate("peak_sqrt", peakChains); err != nil {
			return err
		}
		if err := check("peak_sqrt"); err != nil {
			return err
		}
		if pk.FMAsPerSec, err = rate("peak_fma", peakChains*peakFMAs, 0.999, 0.001); err != nil {
			return err
		}
		return check("peak_fma")
	})
	pk.Device = r.Dev.Label
	return pk, err
}

// TestPeakRates runs both microbenchmarks briefly: each must fill its
// output with finite values and report a positive rate.
func TestPeakRates(t *testing.T) {
	gputest.NeedDevice(t)
	pk, err := PeakRates(64)
	if err != nil {
		t.Fatal(err)
	}
	if !(pk.RootsPerSec > 0 && pk.FMAsPerSec > 0) {
		t.Fatalf("rates %+v", pk)
	}
}

// BenchmarkPeakRates measures the chip's square roots and FMAs a second,
// the ceilings the 2-opt kernels' rates are shares of. Run it with
// -test.bench PeakRates -test.benchtime 1x.
func BenchmarkPeakRates(b *testing.B) {
	gputest.NeedDevice(b)
	for b.Loop() {
		pk, err := PeakRates(1 << 16)
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(pk.RootsPerSec, "roots/s")
		b.ReportMetric(pk.FMAsPerSec, "fma/s")
	}
}
