package main

import (
	"strings"
	"testing"
)

// TestEnginesLabWing: tsp engines --verbose --all lists the product's
// engines first, then under the lab's heading the papers' engines on both
// backends; the product's engines keep at most 20 experimental options.
func TestEnginesLabWing(t *testing.T) {
	_, out, _ := tsp(t, "engines", "--verbose", "--all")
	main, wing, ok := strings.Cut(out, labHeading+"\n")
	if !ok {
		t.Fatalf("no lab heading in tsp engines --verbose --all:\n%s", out)
	}
	heads := func(s string) map[string]bool {
		m := map[string]bool{}
		for _, l := range strings.Split(s, "\n") {
			if f := strings.Fields(l); len(f) >= 2 && !strings.HasPrefix(l, " ") && (f[1] == "cpu" || f[1] == "gpu") {
				m[f[0]+"/"+f[1]] = true
			}
		}
		return m
	}
	inMain, inLab := heads(main), heads(wing)
	for _, e := range []string{"auto/cpu", "auto/gpu", "pop/cpu", "pop/gpu", "or-ils/gpu", "2opt-or/gpu"} {
		if !inMain[e] || inLab[e] {
			t.Errorf("%s: want it among the product's engines, before the lab's", e)
		}
	}
	for _, name := range []string{"sa", "sspm", "pssm", "pspm", "2opt-climb", "2opt-ils", "3opt-ils", "swap-climb"} {
		if !inLab[name+"/cpu"] || inMain[name+"/cpu"] {
			t.Errorf("%s/cpu: want it under the lab's heading", name)
		}
	}
	for _, name := range []string{"sspm", "pssm", "pspm", "2opt-climb", "2opt-ils", "3opt-ils", "swap-climb"} {
		if !inLab[name+"/gpu"] || inMain[name+"/gpu"] {
			t.Errorf("%s/gpu: want it under the lab's heading", name)
		}
	}
	if n := strings.Count(main, "(experimental)"); n > 20 {
		t.Errorf("the product's engines list %d experimental options, want at most 20", n)
	}
}
