//go:build cuda

package climb

import (
	"testing"

	"github.com/tsplab/tsplab/gpu/internal/gputest"
)

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
