//go:build cuda

package ils

import (
	"strings"
	"testing"

	"github.com/tsplab/tsplab/internal/benchgpu"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
)

// TestFIPopulationMatchesSequential: with exact distances every GPU
// mapping runs the sequential search's moves, so the population's best is
// the same length as on the CPU.
func TestFIPopulationMatchesSequential(t *testing.T) {
	gputest.NeedDevice(t)
	for _, c := range []struct {
		n, nb, kicks int
	}{{150, 5, 40}, {400, 70, 3}} {
		in := fiInstance(c.n, uint64(c.n))
		seq, err := FISequential(in, 0, c.nb, benchgpu.Population{Kicks: c.kicks, Seed: 5})
		want := seq.Length
		if err != nil {
			t.Fatal(err)
		}
		for _, mode := range FIModes {
			res, err := FIPopulation(in, benchgpu.Population{Solutions: c.nb, Kicks: c.kicks, Mode: mode, Seed: 5, Dist: "matrix"})
			tr, l, el, dev := res.Tour, res.Length, res.Elapsed, res.Device
			if err != nil {
				t.Fatalf("%s: %v", mode, err)
			}
			if err := solver.ValidateTour(tr, in.N); err != nil || l != solver.TourLength(in, tr) {
				t.Fatalf("%s: tour %v, length %d exact %d", mode, err, l, solver.TourLength(in, tr))
			}
			if l != want {
				t.Fatalf("n=%d nb=%d %s: GPU best %d, sequential %d", c.n, c.nb, mode, l, want)
			}
			if el <= 0 || !strings.Contains(dev, "NVIDIA") {
				t.Fatalf("%s: time %v, device %q", mode, el, dev)
			}
		}
	}
}

func TestFIPopulationRefusesSharedOverflow(t *testing.T) {
	gputest.NeedDevice(t)
	in := fiInstance(6000, 2)
	if _, err := FIPopulation(in, benchgpu.Population{Solutions: 1, Kicks: 1, Mode: "block-shared", Seed: 1}); err == nil || !strings.Contains(err.Error(), "shared memory") {
		t.Fatalf("6000 cities in shared memory: %v", err)
	}
	if _, err := FIPopulation(in, benchgpu.Population{Solutions: 1, Kicks: 1, Mode: "warp", Seed: 1}); err == nil {
		t.Fatal("unknown mapping accepted")
	}
}
