package window

import (
	"context"
	"slices"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// cellLists answers a window's request for alpha lists from the whole instance's (docs/DECISIONS.md#window-lists): each
// city keeps its alpha candidates that lie inside the window, in their rank, and is filled up with its nearest window
// cities after them.
type cellLists struct {
	whole  *solver.AlphaLists
	cities []int  // the window's cities in the whole instance
	took   func() // called when the lists are made (nil: none)
}

var _ solver.Ascents = cellLists{}

// Underway is false: the lists are there at once.
func (cellLists) Underway(*solver.Instance, solver.AscentOptions) bool { return false }

// Alpha returns k candidates per city of sub, the window of l.cities, ranked as an ascent's are.
func (l cellLists) Alpha(ctx context.Context, sub *solver.Instance, k int, _ solver.AscentOptions) (solver.AlphaLists, error) {
	local := make(map[int32]int32, len(l.cities))
	for a, c := range l.cities {
		local[int32(c)] = int32(a)
	}
	k = min(k, sub.N-1)
	near, err := neighbor.NearestContext(ctx, sub, k)
	if err != nil {
		return solver.AlphaLists{}, err
	}
	wk, list := l.whole.K, make([]int32, sub.N*k)
	for a, c := range l.cities {
		row := list[a*k : a*k : (a+1)*k]
		for _, g := range l.whole.List[c*wk : (c+1)*wk] {
			if b, ok := local[g]; ok && len(row) < k {
				row = append(row, b)
			}
		}
		for _, b := range near.Of(a) {
			if len(row) < k && !slices.Contains(row, b) {
				row = append(row, b)
			}
		}
	}
	if l.took != nil {
		l.took()
	}
	return solver.AlphaLists{K: k, List: list}, nil
}
