package main

import (
	"testing"
)

// TestTourIsAFolder: a folder given where a tour file goes is said so in
// one line, without a line number.
func TestTourIsAFolder(t *testing.T) {
	p := genCircle(t, 12)
	dir := t.TempDir()
	for _, args := range [][]string{
		{"eval", p, dir},
		{"solve", p, "--start", dir, "--quiet"},
	} {
		code, _, stderr := tsp(t, args...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
		oneErrorLine(t, stderr, dir+": is a folder, not a tour file")
	}
}
