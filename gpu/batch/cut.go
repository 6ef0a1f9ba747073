package batch

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
// consecutive launches of one largest size are evened out. A launch
// holds instances of one class alone (plan's third value: the searches
// an instance gets), so that each instance gets its own size's class
// whatever the others.
func cutBatch[L any](idx []int, size func(int) int, plan func(n int) (L, int, int, error)) ([]batchPart[L], error) {
	idx = slices.Clone(idx)
	slices.SortStableFunc(idx, func(a, b int) int { return size(a) - size(b) })
	c := &batchCutter[L]{idx: idx, size: size, plan: plan, plans: map[int]batchPlanned[L]{}}
	var cuts []batchCut[L]
	for i := 0; i < len(idx); {
		e, err := c.end(i)
		if err != nil {
			return nil, err
		}
		p, _ := c.planFor(size(idx[e-1]))
		cuts = append(cuts, batchCut[L]{i, e, size(idx[e-1]), p.layout})
		i = e
	}
	return evenOut(idx, cuts), nil
}

// batchCut is one launch of cutBatch: the sorted instances from:to, the
// largest's cities and its layout.
type batchCut[L any] struct {
	from, to, maxN int
	layout         L
}

// batchPlanned is a layout, how many instances it holds and its class.
type batchPlanned[L any] struct {
	layout L
	slots  int
	class  int
}

// batchCutter cuts the sorted instances idx into launches, planning each
// size once.
type batchCutter[L any] struct {
	idx   []int
	size  func(int) int
	plan  func(n int) (L, int, int, error)
	plans map[int]batchPlanned[L]
}

// planFor is plan(n), planned once; its error comes with the first call.
func (c *batchCutter[L]) planFor(n int) (batchPlanned[L], error) {
	if p, ok := c.plans[n]; ok {
		return p, nil
	}
	l, slots, class, err := c.plan(n)
	c.plans[n] = batchPlanned[L]{l, slots, class}
	return c.plans[n], err
}

// fits reports whether the launch idx[i:e] fits its largest's layout,
// its first of the same class; true up to some e, false after (the sizes
// ascend, the slots do not, a class once left does not come back).
func (c *batchCutter[L]) fits(i, e int) (bool, error) {
	p, err := c.planFor(c.size(c.idx[e-1]))
	if err != nil {
		return false, err
	}
	first, err := c.planFor(c.size(c.idx[i]))
	return e-i <= p.slots && p.class == first.class, err
}

// end returns where the launch from i ends: the largest e that fits,
// found by bisection.
func (c *batchCutter[L]) end(i int) (int, error) {
	lo, hi := i+1, len(c.idx) // the launch ends at e in lo..hi; lo always fits
	if ok, err := c.fits(i, lo); err != nil {
		return 0, err
	} else if !ok {
		return 0, fmt.Errorf("gpu: no layout holds an instance of %d cities", c.size(c.idx[i]))
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		ok, err := c.fits(i, mid)
		if err != nil {
			return 0, err
		}
		if ok {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return lo, nil
}

// evenOut turns the cuts into launches, those of one largest size
// evened out.
func evenOut[L any](idx []int, cuts []batchCut[L]) []batchPart[L] {
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
	return out
}
