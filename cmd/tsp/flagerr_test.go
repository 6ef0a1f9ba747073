package main

import (
	"strings"
	"testing"
)

// TestFlagValueErrors: a value a flag refuses is said with what is wrong
// and what the flag wants, never the flag package's "parse error".
func TestFlagValueErrors(t *testing.T) {
	p := genCircle(t, 12)
	for args, want := range map[string]string{
		"--seed -1":          "tsp solve: --seed -1 is not a whole number from 0 to 18,446,744,073,709,551,615\n",
		"--seed many":        "tsp solve: --seed many is not a whole number from 0 to 18,446,744,073,709,551,615\n",
		"--target 1.5":       "tsp solve: --target 1.5 is not a whole number\n",
		"--quiet=maybe":      "tsp solve: --quiet=maybe is not true or false: --quiet alone is true\n",
		"--time soon":        "tsp solve: --time soon: want seconds (10) or a duration (10s, 1m30s)\n",
		"--gpus two":         "tsp solve: --gpus two is not all, a count or a list: want all, a count N of 1 or more, or device numbers such as 0 or 0,2 (count=N and device=LIST say which is meant)\n",
		"--no-such-flag yes": "tsp solve: unknown flag --no-such-flag\n",
	} {
		code, _, stderr := tsp(t, append([]string{"solve", p}, strings.Fields(args)...)...)
		first, _, _ := strings.Cut(stderr, "\n")
		if code != 2 || first+"\n" != want || strings.Contains(stderr, "parse error") {
			t.Errorf("solve %s: exit %d, %q; want exit 2, %q", args, code, stderr, want)
		}
	}
	// batch's durations read a bare number as seconds, as solve's --time
	if code, _, stderr := tsp(t, "batch", p, "--time-each", "0.05", "--out", "-", "--quiet"); code != 0 {
		t.Errorf("batch --time-each 0.05: exit %d, %q", code, stderr)
	}
}
