//go:build cuda

package gpu

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver/bench"
	_ "github.com/tsplab/tsplab/solver/cpu" // the CPU engines the suite compares against
)

// TestBenchSuiteGPU runs `tsp bench --suite gpu` through the test binary
// (TSPLAB_GPU_BENCH=OUTDIR, TSPLIB_DIR set; TSPLAB_GPU_BENCH_TIME caps the
// CPU runs), so the suite can run on the device machine before cmd/tsp
// exists.
func TestBenchSuiteGPU(t *testing.T) {
	dir := os.Getenv("TSPLAB_GPU_BENCH")
	if dir == "" {
		t.Skip("set TSPLAB_GPU_BENCH=OUTDIR to run the gpu bench suite")
	}
	d, _ := time.ParseDuration(os.Getenv("TSPLAB_GPU_BENCH_TIME"))
	opt := bench.Options{TSPLIBDir: os.Getenv("TSPLIB_DIR"), OutDir: dir, Time: d, Log: os.Stdout, Quick: os.Getenv("TSPLAB_GPU_BENCH_QUICK") != ""}
	if err := bench.Run(context.Background(), "gpu", opt, os.Stdout); err != nil {
		t.Fatal(err)
	}
}
