package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fuzzAlgos are the algorithms the flag fuzzer picks from (by index).
var fuzzAlgos = []string{"auto", "2opt-ils", "3opt-ils", "2opt-climb", "swap-climb", "sa", "pspm", "pssm", "sspm"}

// FuzzSolveFlags runs the tsp binary's solve over fuzzed numeric flags on
// a tiny instance with a time limit of at most 200 ms. Whatever the
// values, tsp may not panic, may not run more than a second past its time
// limit (beyond what starting it costs at that moment), must exit 0, 1
// or 2 with one line on stderr when it fails, and may not leave a partial
// or temporary output file: the tour is complete when it exits 0 and
// absent otherwise. The seed corpus runs in plain
// `go test`; `go test -fuzz FuzzSolveFlags ./cmd/tsp` searches further.
func FuzzSolveFlags(f *testing.F) {
	type seed struct {
		algo                             uint8
		blocks, threads, workers, sweeps int64
		k                                int64
		t0, tend, alpha                  float64
		ms                               uint16
		seed                             uint64
	}
	for _, s := range []seed{
		{0, 0, 0, 0, 0, 0, 0, 0, 0, 200, 1},
		{6, 64, 32, 2, 10, 100, 100, 0.1, 0.99, 150, 2},
		{5, 4611686018427387904, 0, 0, 0, 0, 0, 0, 0, 100, 3},
		{6, 1 << 16, 1024, 1024, 1 << 20, 1 << 30, 1e300, 1e-300, 0.999999, 200, 4},
		{7, 1000, 1, 1, 9223372036854775807, 1, 0, 0, 0, 100, 5},
		{8, 1, 1024, 0, 1, 0, 5, 10, 0.5, 50, 6},
		{3, 0, 0, 1024, 0, 0, 0, 0, 0, 100, 7},
		{2, -1, -1, -1, -1, -1, -1, -1, -1, 100, 8},
	} {
		f.Add(s.algo, s.blocks, s.threads, s.workers, s.sweeps, s.k, s.t0, s.tend, s.alpha, s.ms, s.seed)
	}
	inst := genInstance(f, 12)
	f.Fuzz(func(t *testing.T, algo uint8, blocks, threads, workers, sweeps, k int64, t0, tend, alpha float64, ms uint16, seed uint64) {
		limit := time.Duration(1+int(ms)%200) * time.Millisecond
		dir := t.TempDir()
		out := filepath.Join(dir, "t.tour")
		args := []string{"solve", inst, "--backend", "cpu", "--quiet", "--out", out,
			"--algo", fuzzAlgos[int(algo)%len(fuzzAlgos)], "--time", limit.String(), "--seed", fmt.Sprint(seed),
			"--blocks", fmt.Sprint(blocks), "--threads", fmt.Sprint(threads), "--workers", fmt.Sprint(workers),
			"--sweeps", fmt.Sprint(sweeps), "--k", fmt.Sprint(k),
			"--t0", fmt.Sprint(t0), "--tend", fmt.Sprint(tend), "--alpha", fmt.Sprint(alpha)}
		// What starting the binary and loading the instance costs on this
		// machine now (a loaded two-core runner under -race can take
		// seconds): the second of slack is on top of it.
		base := bin(t, "info", inst).wall
		r := bin(t, args...)
		if strings.Contains(r.stderr, "panic") || strings.Contains(r.stderr, "goroutine ") {
			t.Fatalf("tsp %v panicked: %s", args, r.stderr)
		}
		if slack := time.Second + 2*base; r.wall > limit+slack {
			t.Errorf("tsp %v ran %v, past its %v limit by more than %v (tsp info took %v)", args, r.wall, limit, slack, base)
		}
		switch r.code {
		case 0:
			completeTour(t, out, 12)
		case 1, 2:
			if lines := strings.Count(strings.TrimRight(r.stderr, "\n"), "\n") + 1; lines > 2 {
				t.Errorf("tsp %v: exit %d with %d lines on stderr: %q", args, r.code, lines, r.stderr)
			}
			if _, err := os.Stat(out); err == nil {
				t.Errorf("tsp %v failed (exit %d) but left %s", args, r.code, out)
			}
		default:
			t.Errorf("tsp %v: exit %d: %s", args, r.code, r.stderr)
		}
		noTemps(t, dir)
	})
}
