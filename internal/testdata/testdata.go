// Package testdata finds the TSPLIB95 folder that tests and benchmarks
// read: $TSPLIB_DIR, or ../shared/tsplib beside the repository. The data
// is never copied into the repository.
package testdata

import (
	"os"
	"path/filepath"
	"testing"
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

// ModuleRoot returns the directory holding go.mod, searching upward from
// the working directory, or "".
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

// Need returns the TSPLIB folder or skips tb with a message saying how to
// provide it.
func Need(tb testing.TB) string {
	tb.Helper()
	d := TSPLIBDir()
	if d == "" {
		tb.Skip("TSPLIB data not found: set TSPLIB_DIR or put the instances in ../shared/tsplib beside the repository")
	}
	return d
}

// Instance returns the path of NAME.tsp in the TSPLIB folder, skipping tb
// when the folder or the file is absent.
func Instance(tb testing.TB, name string) string {
	tb.Helper()
	p := filepath.Join(Need(tb), name+".tsp")
	if _, err := os.Stat(p); err != nil {
		tb.Skipf("%s not found in the TSPLIB folder", p)
	}
	return p
}
