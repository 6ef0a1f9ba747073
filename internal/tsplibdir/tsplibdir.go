// Package tsplibdir finds the TSPLIB95 folder that tests, benchmarks and
// `tsp bench` read: $TSPLIB_DIR, or ../shared/tsplib beside the repository.
// The data is never copied into the repository.
//
// The package does not import testing, so the tsp binary that uses
// TSPLIBDir does not link the test framework; the helpers for tests take
// the small interfaces below, which testing.TB and *testing.M satisfy.
package tsplibdir

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync/atomic"
)

// TSPLIBDir returns the TSPLIB folder, or "" when it is absent.
func TSPLIBDir() string {
	if d := os.Getenv("TSPLIB_DIR"); d != "" {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
		return ""
	}
	root := ModuleRoot()
	if root == "" {
		return ""
	}
	d := filepath.Join(root, "..", "shared", "tsplib")
	if st, err := os.Stat(d); err == nil && st.IsDir() {
		return d
	}
	return ""
}

// ModuleRoot returns the directory holding go.mod above the working directory, or "".
func ModuleRoot() string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// TB is the part of testing.TB that Need and Instance use.
type TB interface {
	Helper()
	Skip(args ...any)
	Skipf(format string, args ...any)
}

// skipped counts the tests Need or Instance skipped, for Main's summary line.
var skipped atomic.Int64

// Need returns the TSPLIB folder or skips tb, saying how to provide it.
func Need(tb TB) string {
	tb.Helper()
	d := TSPLIBDir()
	if d == "" {
		skipped.Add(1)
		tb.Skip("TSPLIB data not found: set TSPLIB_DIR or put the instances in ../shared/tsplib beside the repository")
	}
	return d
}

// Instance returns NAME.tsp's path in the TSPLIB folder, skipping tb when missing.
func Instance(tb TB, name string) string {
	tb.Helper()
	p := filepath.Join(Need(tb), name+".tsp")
	if _, err := os.Stat(p); err != nil {
		skipped.Add(1)
		tb.Skipf("%s not found in the TSPLIB folder", p)
	}
	return p
}

// Runner is the part of *testing.M that Main uses.
type Runner interface{ Run() int }

// RequireEnv names the variable that makes missing TSPLIB data fail the package.
const RequireEnv = "TSPLAB_REQUIRE_TSPLIB"

// Main runs a package's tests from TestMain and exits: it reports tests skipped without TSPLIB data (failing them with
// $TSPLAB_REQUIRE_TSPLIB set), with a cache folder of its own ($TSPLAB_CACHE_DIR).
func Main(m Runner) {
	dir, err := os.MkdirTemp("", "tsplab-cache-")
	if err != nil {
		fmt.Fprintf(os.Stderr, "tests' cache: %v\n", err)
		os.Exit(1)
	}
	os.Setenv(CacheDirEnv, dir)
	code := finish(m.Run(), os.Stderr)
	os.RemoveAll(dir)
	os.Exit(code)
}

// CacheDirEnv names the variable that moves TSP Lab's cache (session.CacheDirEnv).
const CacheDirEnv = "TSPLAB_CACHE_DIR"

func finish(code int, w io.Writer) int {
	n := skipped.Load()
	if n == 0 {
		return code
	}
	fmt.Fprintf(w, "TSPLIB data missing: %d tests skipped (set TSPLIB_DIR or put the instances in ../shared/tsplib; %s=1 makes this a failure)\n", n, RequireEnv)
	if os.Getenv(RequireEnv) != "" && code == 0 {
		return 1
	}
	return code
}
