package main

import (
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestSolveReadsSettingsOnce: a tsp solve reads its engine settings from
// their text once (solver.OptionReads), whatever the engine: checked
// before the instance is read, and carried to the engine from there.
func TestSolveReadsSettingsOnce(t *testing.T) {
	p := genCircle(t, 40)
	for _, args := range [][]string{
		{"--algo", "auto", "--opt", "kicks=20", "--opt", "stale=1"},
		{"--algo", "3opt-ils", "--opt", "kicks=20", "--opt", "pivot=rkbi"},
		{"--algo", "sa", "--sweeps", "1", "--tend", "0.5"},
		{"--algo", "pop", "--opt", "kicks=10", "--opt", "rounds=2"},
	} {
		before := solver.OptionReads()
		all := append([]string{"solve", p, "--backend", "cpu", "--workers", "1", "--quiet", "--optimum", "1"}, args...)
		if code, _, stderr := tsp(t, all...); code != 0 {
			t.Fatalf("%v: exit %d: %s", args, code, stderr)
		}
		if n := solver.OptionReads() - before; n != 1 {
			t.Errorf("%v: the settings were read %d times, want 1", args, n)
		}
	}
}
