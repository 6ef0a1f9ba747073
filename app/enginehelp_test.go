package app

import (
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// TestAboutAutoReadsInPlainWords: the settings' "About auto" says what
// the default engine does without the papers' terms.
func TestAboutAutoReadsInPlainWords(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	for _, algo := range []string{"auto", "pop"} {
		p.SetSettings(Settings{Algorithm: algo, Backend: solver.BackendCPU, Seed: 1})
		f := p.settings
		if got := f.about.Items[0].Title; got != "About "+algo {
			t.Errorf("the fold is titled %q", got)
		}
		text := f.algoHelp.Text
		for _, jargon := range []string{"EAX", "GPX", "alpha", "Held", "Lin", "Or-opt", "2-opt", "5-opt", "crossover", "AB-cycle", "partition", "quadrant", "candidates"} {
			if strings.Contains(text, jargon) {
				t.Errorf("About %s says %q: %q", algo, jargon, text)
			}
		}
		if len(strings.Fields(text)) < 20 {
			t.Errorf("About %s says too little: %q", algo, text)
		}
	}
}
