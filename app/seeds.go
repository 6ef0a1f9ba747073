package app

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/tsplab/tsplab/solver"
)

// seedSpread is what compare mode's runs of one engine in both panes gave by seed, to tell the seeds' spread from the panes'.
type seedSpread struct {
	key     string                  // the instance, engine and budget of the results
	results map[uint64][]seedResult // by seed, in the order run
	run     int                     // the compare run recorded last
}

// seedResult is one pane's end of a run: its letter and result as the summary writes it.
type seedResult struct{ pane, text string }

// spreadKey names what a spread compares: instance, engine and budget.
func spreadKey(s PaneSummary, budget string) string {
	return fmt.Sprintf("%p|%s|%s", s.Instance, s.Engine, budget)
}

// resultText is a pane's end in the spread: its gap above the optimum or bound, else its length.
func resultText(s PaneSummary) string {
	if g, ok := solver.GapPercent(s.Best, s.Reference); ok {
		return fmt.Sprintf("%.2f %%", g)
	}
	return s.Instance.HumanLength(s.Best)
}

// recordSeeds keeps a compare run's results when both panes ran one engine to its end.
func (a *App) recordSeeds(l, r PaneSummary) {
	if !l.Done || !r.Done || l.Engine != r.Engine || l.Best == 0 || r.Best == 0 || a.seeds.run == a.compareRun {
		return
	}
	budget, _ := a.budget.Get()
	if key := spreadKey(l, budget); key != a.seeds.key || a.seeds.results == nil {
		a.seeds = seedSpread{key: key, results: map[uint64][]seedResult{}}
	}
	a.seeds.run = a.compareRun
	for _, s := range []PaneSummary{l, r} {
		a.seeds.results[s.Seed] = append(a.seeds.results[s.Seed], seedResult{pane: paneOf(s.Label), text: resultText(s)})
	}
}

// line is the summary's word on one engine in both panes: the spread by seed, or how to see it.
func (sp seedSpread) line(l, r PaneSummary, budget string) string {
	if sp.key == spreadKey(l, budget) {
		seeds := slices.Sorted(maps.Keys(sp.results))
		both := false
		var parts []string
		for _, seed := range seeds {
			var rs []string
			panes := map[string]bool{}
			for _, x := range sp.results[seed] {
				rs = append(rs, x.text+" ("+x.pane+")")
				panes[x.pane] = true
			}
			both = both || len(panes) == 2
			parts = append(parts, fmt.Sprintf("seed %d gave %s", seed, strings.Join(rs, ", ")))
		}
		if both && len(seeds) > 1 {
			return "Same engine in both panes; the results by seed (a timed run also varies with the machine's load): " + strings.Join(parts, "; ") + "."
		}
	}
	if l.Seed == r.Seed {
		return fmt.Sprintf("Same engine and seed (%d) in both panes: a difference comes from the timing of the run alone.", l.Seed)
	}
	return fmt.Sprintf("Same engine in both panes, seeds %d and %d: a difference between them comes from the seeds and from the timing of each run. Swap seeds runs the pair again with the seeds swapped.", l.Seed, r.Seed)
}

// SwapSeeds swaps the compare panes' seeds and runs the pair again with the budget.
func (a *App) SwapSeeds() error {
	l, errL := a.Left.Settings()
	r, errR := a.Right.Settings()
	if err := errors.Join(errL, errR); err != nil {
		return err
	}
	l.Seed, r.Seed = r.Seed, l.Seed
	a.Left.SetSettings(l)
	a.Right.SetSettings(r)
	return a.RunCompare()
}
