package strategy

import (
	"fmt"
	"strings"
)

// Text is the option text of l (the candidates option).
func (l Lists) Text() string { return [...]string{"nearest", "alpha", "mixed"}[l] }

// Text is the option text of m (the move option).
func (m Move) Text() string { return [...]string{"chain", "lk5", "adapt"}[m] }

// String names the kind of search.
func (s Search) String() string {
	return [...]string{"independent searches", "merged search", "partition search", "population search"}[s]
}

// String names the start tour.
func (s Start) String() string {
	return [...]string{"greedy", "space-filling curve", "GPU 2opt-or descent of the greedy tour", "given"}[s]
}

// String says the local search's settings.
func (l LocalSearch) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d %s candidates, move %s", l.Neighbors, l.Lists.Text(), l.Move.Text())
	if l.Move != FiveOpt {
		fmt.Fprintf(&b, " depth %d", l.Depth)
	}
	if l.Or3 {
		b.WriteString(" with pure 3-opt moves")
	}
	if l.Bridge {
		b.WriteString(" and the bridge move")
	}
	fmt.Fprintf(&b, ", kicks of up to %d cities a segment", l.Segment)
	if l.Stale > 0 {
		fmt.Fprintf(&b, ", escapes after %d·n stale kicks", l.Stale)
	}
	return b.String()
}

// String lists the GPU's roles ("none" without any).
func (g GPU) String() string {
	var r []string
	for _, x := range []struct {
		on   bool
		name string
	}{{g.Ascent, "ascent"}, {g.Early, "early or-ils"},
		{g.Windows, "windows"}, {g.Pool, "pool"}} {
		if x.on {
			r = append(r, x.name)
		}
	}
	if g.StartDescent > 0 {
		r = append(r, fmt.Sprintf("start descent (%v)", g.StartDescent))
	}
	if len(r) == 0 {
		return "none"
	}
	return strings.Join(r, ", ")
}

// String says the whole strategy on one line.
func (s Strategy) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s from the %s start; %s", s.Search, s.Start, s.LocalSearch)
	if s.CrowdSetUp {
		fmt.Fprintf(&b, "; crowded set-up (%d nearest, path pieces)", CrowdedNeighbors)
	} else if s.Crowded {
		b.WriteString("; crowded lists")
	}
	if s.ShortLists {
		b.WriteString("; mixed lists: too short for the ascent")
	}
	if s.Chain {
		b.WriteString("; the chain in every round")
	}
	if s.PartSlice > 0 {
		fmt.Fprintf(&b, "; rounds of %v", s.PartSlice)
	}
	if s.Windows {
		b.WriteString("; then the population search on windows of the tour")
	}
	if s.LKStart > 0 {
		fmt.Fprintf(&b, "; chained LK over the whole tour first (%v)", s.LKStart)
	}
	if s.Restart > 0 {
		fmt.Fprintf(&b, "; restarts after %v without a gain", s.Restart)
	}
	if s.Ascent > 0 && s.LocalSearch.Lists == Alpha && s.Search != Partition {
		fmt.Fprintf(&b, "; ascent up to %v", s.Ascent)
	}
	fmt.Fprintf(&b, "; GPU: %s", s.GPU)
	return b.String()
}
