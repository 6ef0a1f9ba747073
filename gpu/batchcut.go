package gpu

import (
	"fmt"
	"slices"
)

// batchPart is one launch's instances of a batch and its layout L.
type batchPart[L any] struct {
	idx    []int
	layout L
}

// cutBatch sorts the instances idx by size (size(i) cities) and cuts them
// into launches of as many as the device holds at once with the launch's
// largest (plan(n): the layout for instances of at most n cities and how
// many it holds), because a warp's shared state is sized by the largest;
// consecutive launches of one largest size are evened out.
func cutBatch[L any](idx []int, size func(int) int, plan func(n int) (L, int, error)) ([]batchPart[L], error) {
	idx = slices.Clone(idx)
	slices.SortStableFunc(idx, func(a, b int) int { return size(a) - size(b) })
	type cut struct {
		from, to, maxN int
		layout         L
	}
	type planned struct {
		layout L
		slots  int
	}
	plans := map[int]planned{}
	planFor := func(n int) (planned, error) {
		if p, ok := plans[n]; ok {
			return p, nil
		}
		l, slots, err := plan(n)
		plans[n] = planned{l, slots}
		return plans[n], err
	}
	// fits: the launch idx[i:e] fits its largest's layout; true up to some
	// e, false after (the sizes ascend, the slots do not)
	fits := func(i, e int) (bool, error) {
		p, err := planFor(size(idx[e-1]))
		return e-i <= p.slots, err
	}
	var cuts []cut
	for i := 0; i < len(idx); {
		lo, hi := i+1, len(idx) // the launch ends at e in lo..hi; lo always fits
		if ok, err := fits(i, lo); err != nil {
			return nil, err
		} else if !ok {
			return nil, fmt.Errorf("gpu: no layout holds an instance of %d cities", size(idx[i]))
		}
		for lo < hi {
			mid := (lo + hi + 1) / 2
			ok, err := fits(i, mid)
			if err != nil {
				return nil, err
			}
			if ok {
				lo = mid
			} else {
				hi = mid - 1
			}
		}
		p, _ := planFor(size(idx[lo-1]))
		cuts = append(cuts, cut{i, lo, size(idx[lo-1]), p.layout})
		i = lo
	}
	var out []batchPart[L]
	for a := 0; a < len(cuts); {
		b := a + 1
		for b < len(cuts) && cuts[b].maxN == cuts[a].maxN {
			b++
		}
		all, k := idx[cuts[a].from:cuts[b-1].to], b-a
		for c := 0; c < k; c++ {
			out = append(out, batchPart[L]{all[c*len(all)/k : (c+1)*len(all)/k], cuts[a].layout})
		}
		a = b
	}
	return out, nil
}
