package report

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// ungrouped finds a number of four digits or more without its thousands
// apart (a fraction's digits aside).
var ungrouped = regexp.MustCompile(`(^|[^.,\d])\d{4,}`)

// wrongPlural finds "1 tours", "1 populations" and the like.
var wrongPlural = regexp.MustCompile(`\b1 (tours|populations|crossovers|generations|restarts|workers|rounds|stretches|children|searches|members|kicks|passes|GPU contexts|new bests)\b`)

// fullAccount is an account with every part, its figures large enough to
// need grouping.
func fullAccount() solver.Account {
	return solver.Account{Search: solver.SearchPopulation, Workers: 16, LastGain: solver.SourceGPU,
		Lists: &solver.ListsAccount{Kind: solver.ListsAlpha, AscentOnGPU: true, DuringSearch: true},
		Pool: &solver.PoolAccount{Tours: 8, Capacity: 8, SpreadEdges: 6.2, SpreadLength: 0.215, NewTours: 5, Crossovers: 1234567,
			Gained: 1, Entered: 1, Merges: 16, FromGPU: 2},
		EAX:      &solver.EAXAccount{Populations: 1, Tours: 31, FromGPU: 1, Generations: 29, FirstBest: 4776.9125, Best: 4700.3281},
		LKStart:  &solver.LKStartAccount{Seconds: 3.04, Length: 5726538},
		Restarts: &solver.RestartAccount{Count: 1, Gained: 1},
		Windows:  &solver.WindowsAccount{Improved: 1, Gain: 123456.5, Refused: 3, Share: 0.5},
		TourWindows: &solver.TourWindowsAccount{From: 11.6, Size: 6250, Cores: 1, Rounds: 5, Searched: 1280, Improved: 1190, Gain: 809410,
			Rejected: 2, WholeLists: 1234},
		GPU: &solver.GPUAccount{Rounds: 1, TourSlots: 1024, Improved: 98765, Kicks: 1, Entered: 1, Bests: 1, Members: 1,
			Start: &solver.GPUStart{Construction: "greedy", Passes: 1, Seconds: 0.15}, EarlyTours: true, Contexts: 2, PerContext: 1},
		Route:    &solver.RouteAccount{From: "1", To: "2"},
		Warnings: []string{"the GPU's searches on the pool stopped after 3 rounds: device lost"},
	}
}

// TestWordsGroupDigitsAndPlurals: every line made from an account groups
// its numbers and says "1 tour", "2 tours".
func TestWordsGroupDigitsAndPlurals(t *testing.T) {
	in := solver.NewCoordInstance("mm", solver.Euc2D, []float64{0, 1}, []float64{0, 1}, nil)
	in.ScaleExp = 4
	acc := fullAccount()
	texts := append(Lines(in, acc), Summary(acc))
	for _, ph := range []solver.Phase{solver.PhaseEvolve, solver.PhaseFill, solver.PhaseRecombine, solver.PhaseSearch, solver.PhaseBound} {
		texts = append(texts, Status(ph, &acc))
	}
	acc.EAX.Generations = 0
	acc.EAX.Built, acc.EAX.Descents = 1, 1
	texts = append(texts, Status(solver.PhaseEvolve, &acc))
	for _, s := range texts {
		if m := ungrouped.FindString(s); m != "" {
			t.Errorf("%q: %q is not grouped", s, m)
		}
		if m := wrongPlural.FindString(s); m != "" {
			t.Errorf("%q: %q", s, m)
		}
	}
	all := strings.Join(texts, "\n")
	for _, want := range []string{"best 4,776.9125 to 4,700.3281", "1,234,567 crossovers", "98,765 shortened", "1 tour so far (at most 1), 1 on the GPU", "the pool took 1 child",
		"chained Lin–Kernighan over the whole tour first, one search a worker: 3.0 s, to 5,726,538"} {
		if !strings.Contains(all, want) {
			t.Errorf("no %q in\n%s", want, all)
		}
	}
	for _, banned := range []string{"children entered", "first tours", "gains merging"} {
		if strings.Contains(all, banned) {
			t.Errorf("%q says %q", all, banned)
		}
	}
}

// TestStatusSaysWhatHelped: the status names what the search does and
// what found the last shorter tour.
func TestStatusSaysWhatHelped(t *testing.T) {
	acc := &solver.Account{Pool: &solver.PoolAccount{Tours: 8, Capacity: 8}, LastGain: solver.SourceGPU}
	if got, want := Status(solver.PhaseRecombine, acc), "recombining 8 tours; the last improvement came from the GPU's searches"; got != want {
		t.Errorf("status %q, want %q", got, want)
	}
	acc.Pool.Tours = 1
	if got := Status(solver.PhaseFill, acc); !strings.HasPrefix(got, "filling the pool: 1 of 8 tours") {
		t.Errorf("status %q", got)
	}
	if got := Status(solver.PhaseSearch, nil); got != "" {
		t.Errorf("a plain search's status %q, want none", got)
	}
	restart := &solver.Account{Search: solver.SearchMerged, Restarts: &solver.RestartAccount{Count: 3}}
	if got := Status(solver.PhaseSearch, restart); !strings.Contains(got, "restart 3 from the best") {
		t.Errorf("status %q", got)
	}
}

// TestLengthInFileUnits: a length of the account is written in the
// file's units, grouped, with the unit when it has a name.
func TestLengthInFileUnits(t *testing.T) {
	mm := solver.NewCoordInstance("mm", solver.Euc2D, []float64{0, 1}, []float64{0, 1}, nil)
	geo := solver.NewCoordInstance("geo", solver.GreatCircle, []float64{0, 1}, []float64{0, 1}, nil)
	for _, c := range []struct {
		in   *solver.Instance
		v    float64
		want string
	}{{mm, 4700.3281, "4,700.3281"}, {mm, 12, "12"}, {geo, 12477394, "12,477,394 m"}} {
		if got := Length(c.in, c.v); got != c.want {
			t.Errorf("Length(%v) = %q, want %q", c.v, got, c.want)
		}
	}
}

// TestCrossoverWordsAgree: a pool whose crossovers gave no shorter child
// while the last improvement came from a crossover's descended child is
// told in words that agree: neither says that recombining gave nothing.
func TestCrossoverWordsAgree(t *testing.T) {
	acc := solver.Account{LastGain: solver.SourceCrossover, Pool: &solver.PoolAccount{Tours: 8, Capacity: 8, Crossovers: 3}}
	want := "recombined a pool of 8 tours (3 crossovers, 0 gave a child shorter than its parents); the last improvement came from a descent of a recombined tour"
	if got := Summary(acc); got != want {
		t.Errorf("Summary\n got %q\nwant %q", got, want)
	}
	if got := Status(solver.PhaseRecombine, &acc); !strings.HasSuffix(got, "the last improvement came from a descent of a recombined tour") {
		t.Errorf("Status %q", got)
	}
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 1}, []float64{0, 1}, nil)
	if l := strings.Join(Lines(in, acc), "\n"); strings.Contains(l, "0 gave a shorter tour") {
		t.Errorf("Lines say no crossover gave a shorter tour:\n%s", l)
	}
}

// TestSummaryLeavesListsToLines: candidate lists whose ascent did not end
// are told in Lines (--verbose, the app's details), not in the summary.
func TestSummaryLeavesListsToLines(t *testing.T) {
	acc := solver.Account{Lists: &solver.ListsAccount{Kind: solver.ListsNearest, AscentSeconds: 1.5}}
	if s := Summary(acc); s != "" {
		t.Errorf("Summary %q, want none", s)
	}
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 1}, []float64{0, 1}, nil)
	if l := strings.Join(Lines(in, acc), "\n"); !strings.Contains(l, "did not end within 1.5 s") {
		t.Errorf("Lines:\n%s", l)
	}
}

// TestTitle: the record's title names the instance and the length as
// people read them, the gap above a known optimum, a path's route instead
// of a gap, and the cities without a tour.
func TestTitle(t *testing.T) {
	in := &solver.Instance{Name: "sq", N: 4, Optimum: 320}
	for _, c := range []struct {
		res  solver.Result
		want string
	}{
		{solver.Result{}, "sq — 4 cities"},
		{solver.Result{Length: 400}, "sq — 400 (25.00 % above 320)"},
		{solver.Result{Length: 1200, Account: solver.Account{Route: &solver.RouteAccount{Open: true}}}, "sq — 1,200 (open path)"},
		{solver.Result{Length: 300, Account: solver.Account{Route: &solver.RouteAccount{From: "2", To: "4"}}}, "sq — 300 (a path from 2 to 4)"},
	} {
		if got := New(in, c.res).Title(in); got != c.want {
			t.Errorf("Title = %q, want %q", got, c.want)
		}
	}
}
