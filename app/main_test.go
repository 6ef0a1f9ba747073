package app

import (
	"fmt"
	"os"
	"testing"

	"github.com/tsplab/tsplab/internal/tsplibdir"
)

// samplesCache is the cache directory the tests' apps share: the bundled
// samples are extracted there once, not once a test.
var samplesCache string

// TestMain reports, in one line, the tests skipped for want of TSPLIB data.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "tsplab-app-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	samplesCache = dir
	tsplibdir.Main(removeAfter{m, dir})
}

// removeAfter runs the tests, then removes dir.
type removeAfter struct {
	m   *testing.M
	dir string
}

func (r removeAfter) Run() int {
	defer os.RemoveAll(r.dir)
	return r.m.Run()
}
