package bound

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// Every instance of the TSPLIB folder with a known optimum: the bound never
// exceeds it. A short ascent per instance (a capped first period, no time
// limit, so that a loaded machine or -race changes the time it takes but
// not what is checked) keeps the test's time bounded; the exact evaluation
// on the complete graph is what this checks. Under -short instances above
// 5000 cities are skipped, under -race those above 1000 (some 75 remain;
// make test's tier without -race checks them all), and those above 20,000
// unless TSPLAB_BOUND_LONG is set.
func TestBoundBelowOptimumTSPLIB(t *testing.T) {
	dir := tsplibdir.Need(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.tsp"))
	checked := 0
	for _, f := range files {
		in, err := tsplib.Load(f, dir)
		// The optimum TSPLIB lists for a fixed-edge instance (linhp318) is
		// the length of the Hamiltonian path between the fixed edge's
		// ends, not of a tour: it says nothing about a tour's bound.
		if err != nil || !in.HasOptimum() || len(in.FixedEdges) > 0 {
			continue
		}
		if testing.Short() && in.N > 5000 {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(f), ".tsp")
		if raceDetector && in.N > 1000 {
			// Checked by a plain go test run (make test's tier
			// without -race); under -race the instances above 1000
			// cities take minutes of both cores, and the bound's
			// goroutines are held by the package's other tests.
			t.Run(name, func(t *testing.T) { t.Skip("above 1000 cities: not under -race") })
			continue
		}
		if in.N > 20000 && os.Getenv("TSPLAB_BOUND_LONG") == "" {
			t.Run(name, func(t *testing.T) { t.Skip("above 20,000 cities: set TSPLAB_BOUND_LONG=1") })
			continue
		}
		t.Run(name, func(t *testing.T) {
			res, err := Compute(context.Background(), in, Options{MaxPeriod: 10})
			if err != nil {
				t.Fatal(err)
			}
			if res.Bound > in.Optimum {
				t.Fatalf("bound %d above the optimum %d", res.Bound, in.Optimum)
			}
			if res.Bound <= 0 {
				t.Fatalf("bound %d", res.Bound)
			}
			if res.Optimal && res.Bound != in.Optimum {
				t.Fatalf("1-tree is a tour of length %d, but the optimum is %d", res.Bound, in.Optimum)
			}
		})
		checked++
	}
	if checked == 0 {
		t.Skip("no instance with a known optimum in " + dir)
	}
}

// The floors: how close the default ascent gets. pr2392 and fnl4461 run
// unless -short; usa13509 and pla85900 (about a minute on two cores) only
// with TSPLAB_BOUND_LONG=1.
func TestBoundQualityTSPLIB(t *testing.T) {
	if testing.Short() {
		t.Skip("-short")
	}
	if raceDetector {
		t.Skip("a quality check: make test runs it without -race")
	}
	cases := []struct {
		name  string
		floor float64 // percent below the optimum
		long  bool
	}{{"pr2392", 1.5, false}, {"fnl4461", 1, false}, {"usa13509", 1, true}, {"pla85900", 1, true}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if c.long && os.Getenv("TSPLAB_BOUND_LONG") == "" {
				t.Skip("set TSPLAB_BOUND_LONG=1")
			}
			p := tsplibdir.Instance(t, c.name)
			in, err := tsplib.Load(p, filepath.Dir(p))
			if err != nil {
				t.Fatal(err)
			}
			if !in.HasOptimum() {
				t.Skip("no known optimum")
			}
			res, err := Compute(context.Background(), in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			below := 100 * float64(in.Optimum-res.Bound) / float64(in.Optimum)
			t.Logf("%s: bound %d, %.3f%% below the optimum, %d iterations, %v", c.name, res.Bound, below, res.Iterations, res.Elapsed)
			if res.Bound > in.Optimum || below > c.floor {
				t.Errorf("bound %d is %.3f%% below the optimum %d (floor %.1f%%)", res.Bound, below, in.Optimum, c.floor)
			}
		})
	}
}

func TestTinyAndCancelled(t *testing.T) {
	in := solver.NewCoordInstance("three", solver.Euc2D, []float64{0, 3, 0}, []float64{0, 0, 4}, nil)
	res, err := Compute(context.Background(), in, Options{})
	if err != nil || res.Bound != 12 || !res.Optimal {
		t.Fatalf("three cities: %+v %v", res, err)
	}
	// Small enough that the first exact 1-tree fits in StopGrace on a
	// loaded two-core machine under -race.
	big := randomInstance(300, solver.Euc2D, 9)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Compute(ctx, big, Options{}); err == nil {
		t.Fatal("a cancelled context gave no error")
	}
	// A time limit too short for any 1-tree gives no bound: the limit
	// holds.
	if _, err = Compute(context.Background(), big, Options{Time: time.Nanosecond}); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("no time: error %v, want one wrapping context.DeadlineExceeded", err)
	}
	// Stopped at once, the penalty-free 1-tree (evaluated within
	// StopGrace) is the bound.
	stop := make(chan struct{})
	close(stop)
	res, err = StopAscent(context.Background(), stop, big, Options{})
	if err != nil || !res.Stopped || res.Iterations != 0 || res.Bound <= 0 {
		t.Fatalf("stopped ascent: bound %d after %d iterations, stopped %v, %v", res.Bound, res.Iterations, res.Stopped, err)
	}
	if _, err := res.AlphaCandidates(5); err != nil {
		t.Fatal(err)
	}
}
