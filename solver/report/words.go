package report

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver"
)

// The words front ends show for a run are made here, so the CLI and the app say the same.

// Status says in a few words what a run is doing from its phase and newest account (nil allowed), and what found its last
// shorter tour ("" for a main search with nothing more to say).
func Status(ph solver.Phase, acc *solver.Account) string {
	s := doing(ph, acc)
	if acc != nil {
		if g := gainWords(acc.LastGain); g != "" && (ph == solver.PhaseFill || ph == solver.PhaseRecombine || ph == solver.PhaseSearch || ph == "") {
			s = join(s, "the last improvement came from "+g)
		}
	}
	return s
}

// doing is Status's first part: what the phase does.
func doing(ph solver.Phase, acc *solver.Account) string {
	if acc == nil {
		acc = &solver.Account{}
	}
	switch ph {
	case solver.PhaseReading:
		return "reading the instance"
	case solver.PhaseNeighbours:
		return "building candidate lists"
	case solver.PhaseStart:
		return "building the start tour"
	case solver.PhaseSetup:
		return "setting up"
	case solver.PhaseDescent:
		return "descending from the start tour"
	case solver.PhasePolish:
		return "polishing the best tour"
	case solver.PhaseBound:
		return "computing a lower bound"
	case solver.PhaseEvolve:
		return evolving(acc.EAX)
	case solver.PhaseFill:
		if p := acc.Pool; p != nil {
			return fmt.Sprintf("filling the pool: %s of %s", count(p.Tours), Plural(p.Capacity, "tour"))
		}
		return "filling the pool"
	case solver.PhaseRecombine:
		if p := acc.Pool; p != nil {
			return "recombining " + Plural(p.Tours, "tour")
		}
		return "recombining the pool's tours"
	case solver.PhaseSearch, "":
		return searching(acc)
	}
	return string(ph)
}

// evolving says how far an EAX population is.
func evolving(e *solver.EAXAccount) string {
	if e == nil {
		return "evolving a population"
	}
	if e.Generations == 0 {
		// the first tours' descents take a while on a large instance
		s := fmt.Sprintf("building a population: the first descents (at most %s)", Plural(e.Descents, "tour"))
		if e.Built > 0 {
			s = fmt.Sprintf("building a population: %s so far (at most %s)", Plural(e.Built, "tour"), count(e.Descents))
		}
		if e.FromGPU > 0 {
			s += fmt.Sprintf(", %s on the GPU", count(e.FromGPU))
		}
		return s
	}
	s := fmt.Sprintf("evolving %s, generation %s", Plural(e.Tours, "tour"), count(e.Generations))
	if e.Populations > 1 {
		s += fmt.Sprintf(" (population %s, with the best so far)", count(e.Populations))
	}
	return s
}

// searching says what the main search does beyond searching ("" for nothing)
func searching(acc *solver.Account) string {
	if r := acc.Restarts; r != nil {
		return "restart " + count(r.Count) + " from the best"
	}
	return ""
}

// gainWords names a source of shorter tours ("" when unknown).
func gainWords(g solver.Source) string {
	switch g {
	case solver.SourceDescent:
		return "a descent of a new tour"
	case solver.SourceEAX:
		return "edge assembly crossover"
	case solver.SourceCrossover:
		// the crossover's child after its descent
		return "a descent of a recombined tour"
	case solver.SourceGPU:
		return "the GPU's searches"
	}
	return ""
}

// MaxTrivial is the most cities whose every tour is optimal.
const MaxTrivial = 3

// Trivial says that every tour of n cities is optimal, for n up to MaxTrivial ("" past it).
func Trivial(n int) string {
	switch {
	case n > MaxTrivial:
		return ""
	case n == 1:
		return "one city: its tour is that city alone, and optimal"
	}
	return fmt.Sprintf("every tour of %s is optimal", Plural(n, "city", "cities"))
}

// Summary is one short line on what a run's search did and what helped ("" when nothing beyond the length); Lines has all.
func Summary(acc solver.Account) string {
	var parts []string
	add := func(s string) {
		if s != "" {
			parts = append(parts, s)
		}
	}
	add(route(acc.Route))
	if acc.Unfinished {
		add("no climb reached a local minimum in the time given: the tour is the best an unfinished climb reached; more time lets climbs finish")
	}
	add(populationSummary(acc))
	if r := acc.Restarts; r != nil {
		add(fmt.Sprintf("%s from the best, %s", Plural(r.Count, "restart"), gave(r.Gained)))
	}
	if g := acc.GPU; g != nil && g.Rounds > 0 {
		add(fmt.Sprintf("the GPU's searches shortened %s, %s entered the pool", Plural(g.Improved, "tour"), count(g.Entered)))
	}
	if w := acc.Windows; w != nil && w.Improved > 0 {
		add(fmt.Sprintf("%s shortened %s", improver(w), Plural(w.Improved, "stretch")))
	}
	if w := acc.TourWindows; w != nil && w.Improved > 0 {
		add(fmt.Sprintf("windows of the tour searched at once shortened %s", Plural(w.Improved, "window")))
	}
	if g := gainWords(acc.LastGain); g != "" {
		add("the last improvement came from " + g)
	}
	for _, w := range acc.Warnings {
		add(w)
	}
	return strings.Join(parts, "; ")
}

// populationSummary says what a population search did ("" for another).
func populationSummary(acc solver.Account) string {
	var s []string
	if e := acc.EAX; e != nil && e.Populations > 0 {
		s = append(s, fmt.Sprintf("evolved %s by edge assembly crossover", Plural(e.Populations, "population")))
	}
	if p := acc.Pool; p != nil && p.Crossovers > 0 {
		s = append(s, fmt.Sprintf("recombined a pool of %s (%s, %s)", Plural(p.Tours, "tour"), Plural(p.Crossovers, "crossover"), shorterChild(p.Gained)))
	}
	return strings.Join(s, ", then ")
}

// gave says how many of some tries gave a shorter tour.
func gave(n int) string { return count(n) + " gave a shorter tour" }

// shorterChild says how many crossovers gave a child shorter than its parents.
func shorterChild(n int) string { return count(n) + " gave a child shorter than its parents" }

// route says what path a run's tour became ("" for a tour).
func route(r *solver.RouteAccount) string {
	switch {
	case r == nil:
		return ""
	case r.Open:
		return "an open path, ends free: the length has no closing edge"
	}
	return fmt.Sprintf("a path from %s to %s: the length has no closing edge", r.From, r.To)
}

// Lines is a run's whole account on in, a line a part (--verbose, the app's details).
func Lines(in *solver.Instance, acc solver.Account) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	if acc.Search != "" || acc.Workers > 0 {
		s := "search"
		if acc.Workers > 0 {
			s += " on " + Plural(acc.Workers, "worker")
		}
		out = append(out, s+": "+searchWords(acc.Search))
	}
	if l := acc.Lists; l != nil {
		out = append(out, "candidate lists: "+listsLine(l))
	}
	if e := acc.EAX; e != nil {
		s := fmt.Sprintf("edge assembly crossover: %s (the last of %s), %s", Plural(e.Populations, "population"), Plural(e.Tours, "tour"), Plural(e.Generations, "generation"))
		if e.FromGPU > 0 {
			s += fmt.Sprintf(", %s searched on the GPU", Plural(e.FromGPU, "member"))
		}
		out = append(out, s+fmt.Sprintf("; best %s to %s", Length(in, e.FirstBest), Length(in, e.Best)))
	}
	if p := acc.Pool; p != nil {
		add("pool: %s of %s%s; members differ from the best in %.1f %% of edges, the longest %.3f %% above it", count(p.Tours), Plural(p.Capacity, "tour"),
			fromGPU(p.FromGPU), p.SpreadEdges, p.SpreadLength)
		add("recombination: %s descended, %s (%s), the pool took %s, %s with members shortened a tour before it was offered",
			Plural(p.NewTours, "new tour"), Plural(p.Crossovers, "crossover"), shorterChild(p.Gained), Plural(p.Entered, "child", "children"), Plural(p.Merges, "crossover"))
	}
	if l := acc.LKStart; l != nil {
		add("chained Lin–Kernighan over the whole tour first, one search a worker: %.1f s, to %s", l.Seconds, Length(in, l.Length))
	}
	if r := acc.Restarts; r != nil {
		add("restarts: %s from the best, %s of the crossovers with it %s", count(r.Count), count(r.Gained), "gave a shorter best")
	}
	if w := acc.Windows; w != nil {
		add("%s: %s shortened by %s, %s refused, its share at the end %.2g workers", improver(w), Plural(w.Improved, "stretch"),
			Length(in, w.Gain), count(w.Refused), w.Share)
	}
	if w := acc.TourWindows; w != nil {
		add("windows of the tour from %.1f s: %s cities each, %s a window, %s; %s searched, %s shortened by %s, %s dropped because other windows had changed the tour meanwhile", w.From,
			count(w.Size), Plural(w.Cores, "core"), Plural(w.Rounds, "round"), Plural(w.Searched, "window"), count(w.Improved), Length(in, w.Gain), count(w.Rejected))
		if w.WholeLists > 0 {
			add("%s of them on alpha lists from the GPU's ascent of the whole instance rather than an ascent of their own", count(w.WholeLists))
		}
	}
	out = append(out, gpuLines(acc.GPU)...)
	if g := gainWords(acc.LastGain); g != "" {
		out = append(out, "last improvement: from "+g)
	}
	if s := route(acc.Route); s != "" {
		out = append(out, s)
	}
	if acc.Unfinished {
		out = append(out, "no climb reached a local minimum in the time given")
	}
	for _, w := range acc.Warnings {
		out = append(out, "warning: "+w)
	}
	return out
}

// improver names the path improver beside a partition search.
func improver(w *solver.WindowsAccount) string {
	if w.OnGPU {
		return "the GPU's windows beside the workers"
	}
	return "the path improver beside the workers"
}

// searchWords names a kind of search.
func searchWords(k solver.SearchKind) string {
	switch k {
	case solver.SearchIndependent:
		return "independent searches of the whole tour, the best kept"
	case solver.SearchMerged:
		return "each worker kicking in its stretch of one tour, the changes merged"
	case solver.SearchPartition:
		return "all workers on pieces of one tour"
	case solver.SearchPopulation:
		return "a population evolved by edge assembly crossover, then a pool recombined by partition crossover"
	}
	return "the engine's own"
}

// listsLine describes candidate lists.
func listsLine(l *solver.ListsAccount) string {
	s := string(l.Kind)
	if l.Kind == solver.ListsAlpha {
		s = "alpha-nearness"
		if l.AscentOnGPU {
			s += ", the ascent on the GPU"
		}
		if l.DuringSearch {
			s += ", taken during the search"
		}
	}
	if l.AscentSeconds > 0 {
		s += fmt.Sprintf(": the ascent for alpha-nearness lists did not end within %s (a longer time limit gives it time)", seconds(l.AscentSeconds))
	}
	return s
}

// gpuLines are the lines of the GPU's share.
func gpuLines(g *solver.GPUAccount) []string {
	if g == nil {
		return nil
	}
	var out []string
	add := func(format string, args ...any) { out = append(out, "GPU: "+fmt.Sprintf(format, args...)) }
	if g.Alone {
		add("no searches: the CPU search ran alone")
	}
	switch g.NoPool {
	case solver.NoPoolKicks:
		add("no pool: a run by a kicks budget stays on the cores")
	case solver.NoPoolInstance:
		add("no pool: the GPU takes no pool for this instance")
	}
	if s := g.Start; s != nil {
		if s.Passes == 0 {
			add("the %s start tour (%s)", s.Construction, seconds(s.Seconds))
		} else {
			add("a 2-opt + Or-opt descent of the %s start tour, %s (%s)", s.Construction, Plural(s.Passes, "pass", "passes"), seconds(s.Seconds))
		}
	}
	if g.EarlyTours {
		add("or-ils gave the tours before the CPU search had one")
	}
	if g.Rounds > 0 {
		add("%s of %s, %s shortened, %s; %s of its tours entered the pool (%s), %s from it at the end", Plural(g.Rounds, "round"),
			Plural(g.TourSlots, "tour"), count(g.Improved), plural64(g.Kicks, "kick"), count(g.Entered), Plural(g.Bests, "new best"), Plural(g.Members, "member"))
	}
	switch {
	case g.Selected > 1 && g.Contexts <= 1:
		add("ran on GPU 0 alone: the engine does not split its searches over the %s selected", Plural(g.Selected, "GPU context"))
	case g.Contexts > 1 && g.PerContext == 0:
		add("the windows beside the CPU search ran on each of %s, a piece of the stretch on each", Plural(g.Contexts, "GPU context"))
	case g.Contexts > 1:
		add("%s on each of %s", Plural(g.PerContext, "search", "searches"), Plural(g.Contexts, "GPU context"))
	}
	return out
}

func fromGPU(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%s from the GPU)", count(n))
}

// Length writes v, in in's file units, for people: grouped, with its unit.
func Length(in *solver.Instance, v float64) string {
	s := solver.GroupDigits(strconv.FormatFloat(v, 'f', -1, 64))
	if u := in.LengthUnit(); u != "" {
		s += " " + u
	}
	return s
}

// count writes n with its digits grouped.
func count(n int) string { return solver.GroupDigits(strconv.Itoa(n)) }

// Plural writes n, its digits grouped, and the noun (solver.Plural).
func Plural(n int, noun string, pl ...string) string {
	return solver.Plural(int64(n), noun, pl...)
}

func plural64(n int64, noun string, pl ...string) string { return solver.Plural(n, noun, pl...) }

// seconds writes a time in seconds for people: "2 s", "0.15 s".
func seconds(v float64) string {
	return strconv.FormatFloat(v, 'g', 3, 64) + " s"
}

// join joins two parts of a status with "; ", either may be empty.
func join(a, b string) string {
	switch {
	case a == "":
		return b
	case b == "":
		return a
	}
	return a + "; " + b
}

// Title is the record's title for a picture and the canvas: "name — length (gap % above the optimum)", a path's route
// instead of a gap, or "name — N cities" without a tour; in gives the units.
func (rep Report) Title(in *solver.Instance) string {
	if rep.LengthScaled <= 0 {
		return fmt.Sprintf("%s — %s cities", rep.Instance, solver.GroupDigits(strconv.Itoa(rep.Dimension)))
	}
	s := rep.Instance + " — " + in.HumanLength(rep.LengthScaled)
	switch r := rep.Account.Route; {
	case r != nil && r.Open:
		s += " (open path)"
	case r != nil:
		s += fmt.Sprintf(" (a path from %s to %s)", r.From, r.To)
	case rep.GapAbove == "optimum" && rep.OptimumScaled != nil:
		s += fmt.Sprintf(" (%.2f %% above %s)", *rep.GapPercent, in.HumanLength(*rep.OptimumScaled))
	}
	return s
}
