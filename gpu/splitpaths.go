package gpu

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// splitPaths is a solver.PathImprover over several improvers, one a GPU: a path's consecutive pieces improved at once.
type splitPaths []solver.PathImprover

// ImprovePath improves the pieces of path until until, their ends kept, and returns the sum of their gains.
func (sp splitPaths) ImprovePath(ctx context.Context, in *solver.Instance, path []int32, until time.Time) (int64, error) {
	k := min(len(sp), max(1, (len(path)-1)/2))
	pieces := make([][]int32, k)
	gains, errs := make([]int64, k), make([]error, k)
	var wg sync.WaitGroup
	for i := range k {
		lo, hi := i*(len(path)-1)/k, (i+1)*(len(path)-1)/k
		pieces[i] = slices.Clone(path[lo : hi+1])
		wg.Add(1)
		go func() {
			defer wg.Done()
			gains[i], errs[i] = sp[i].ImprovePath(ctx, in, pieces[i], until)
		}()
	}
	wg.Wait()
	var gain int64
	for i := range k {
		if errs[i] != nil {
			return 0, errs[i]
		}
		lo := i * (len(path) - 1) / k
		copy(path[lo+1:], pieces[i][1:len(pieces[i])-1])
		gain += gains[i]
	}
	return gain, nil
}
