package enginetest

import (
	"context"
	"errors"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/tour"
)

// Solve runs the CPU engine name on in with p as the pipeline does and fails t unless the tour is valid and exactly measured.
func Solve(t testing.TB, name string, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) solver.Result {
	t.Helper()
	e, err := solver.Lookup(name, solver.BackendCPU)
	if err != nil {
		t.Fatal(err)
	}
	res, err := solver.RunAided(context.Background(), e, in, p, snaps, solver.Aid{}, false)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := solver.ValidateTour(res.Tour, in.N); err != nil {
		t.Fatalf("%s: invalid tour: %v", name, err)
	}
	if got := solver.TourLength(in, res.Tour); got != res.Length {
		t.Fatalf("%s: length %d, exact %d", name, res.Length, got)
	}
	return res
}

// FakePaths is a test solver.PathImprover: a 2-opt descent between the path's ends, or by Mode a path that moves an end
// ("end"), repeats a city ("dup"), comes back unchanged ("keep") or an error ("error"). It records each call.
type FakePaths struct {
	Mode   string
	mu     sync.Mutex
	Calls  int         // the calls so far
	Sizes  []int       // each call's path length
	Untils []time.Time // each call's deadline
}

// CallCount returns the calls so far, safe beside calls in flight.
func (f *FakePaths) CallCount() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.Calls
}

// ImprovePath improves path as Mode says and records the call.
func (f *FakePaths) ImprovePath(ctx context.Context, in *solver.Instance, path []int32, until time.Time) (int64, error) {
	f.mu.Lock()
	f.Calls++
	f.Sizes = append(f.Sizes, len(path))
	f.Untils = append(f.Untils, until)
	f.mu.Unlock()
	switch f.Mode {
	case "error":
		return 0, errors.New("the device went away")
	case "end":
		path[0], path[1] = path[1], path[0]
		return 1, nil
	case "dup":
		path[2] = path[1]
		return 1, nil
	case "keep":
		return 0, nil
	}
	d := tour.LazyDist(in)
	before := d.Length(path) // the ends stay: the closed lengths differ as the paths'
	for improved := true; improved; {
		improved = false
		for i := 0; i+3 < len(path); i++ {
			for j := i + 2; j+1 < len(path); j++ {
				a, b, c, e := path[i], path[i+1], path[j], path[j+1]
				if d.At(a, c)+d.At(b, e) < d.At(a, b)+d.At(c, e) {
					slices.Reverse(path[i+1 : j+1])
					improved = true
				}
			}
		}
	}
	return before - d.Length(path), nil
}

// DIMACS returns the challenge's instance of kind with n cities from seed.
func DIMACS(t testing.TB, kind string, n int, seed uint64) *solver.Instance {
	t.Helper()
	in, err := gen.Generate(kind, n, seed)
	if err != nil {
		t.Fatal(err)
	}
	return in
}
