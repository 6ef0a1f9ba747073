package bound

import (
	"context"
	"errors"
	"runtime"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// Precision scales distances into the integer 1-tree weights: an edge
// (i, j) weighs Precision·d(i,j) + π_i + π_j, so penalties move in steps
// of 1/Precision of a distance unit and every sum is exact (as in LKH).
const Precision = 100

// Options tune Compute. The zero value is the default.
type Options struct {
	// Time bounds the whole computation (ascent and exact evaluation);
	// the ascent stops early enough to leave time for the evaluation. 0
	// runs the ascent's schedule to its end.
	Time time.Duration
	// MaxPeriod caps the first period of the ascent, which is N/2 (at
	// least 100) otherwise; the ascent runs two to three times that many
	// iterations. 0 means a cap that falls with the size, from 1000 below
	// 5000 cities to 100 from 50 000 (see defaultMaxPeriod); a negative
	// value removes the cap (LKH's schedule).
	MaxPeriod int
	// Neighbors is the number of quadrant neighbours per city in the
	// candidate graph; 0 means DefaultNeighbors.
	Neighbors int
	// Progress, when not nil, is called from the computing goroutine at
	// most every ProgressInterval while the ascent improves.
	Progress func(Progress)

	// parallel forces Borůvka on all cores (1) or Prim (-1) for the
	// ascent's 1-trees; 0 chooses by the number of cores.
	parallel int
}

// defaultMaxPeriod is the first period's cap for n cities: 5·10⁶/n within
// [100, 1000]. Measured on this project's 2-core machine: usa13509 comes
// within 0.74 % of its optimum with 100 and 0.70 % with 300, pla85900
// within 0.60 % with 100 (255 iterations), while pr2392 and fnl4461
// reach 1.22 % and 0.55 % with 1000.
func defaultMaxPeriod(n int) int { return min(max(5_000_000/n, 100), 1000) }

// sparseMST returns the 1-tree function the ascent calls on g and the
// degrees it leaves: Borůvka on all cores when there are at least four
// and the weights fit its packed keys, Prim otherwise.
func sparseMST(g *graph, pi []int64, parallel int) (func([]int64) int64, []int32) {
	prim := newSparseTree(g)
	if parallel < 0 || (parallel == 0 && runtime.GOMAXPROCS(0) < 4) {
		return prim.run, prim.deg
	}
	bor := newSparseBoruvka(g)
	deg := make([]int32, len(pi))
	return func(pi []int64) int64 {
		if w, ok := bor.run(pi); ok {
			copy(deg, bor.deg)
			return w
		}
		w := prim.run(pi)
		copy(deg, prim.deg)
		return w
	}, deg
}

// The defaults of Options.
const (
	DefaultNeighbors = 10
	ProgressInterval = 100 * time.Millisecond
)

// Progress reports the ascent as it runs.
type Progress struct {
	Iteration int
	// Estimate is the best 1-tree bound found so far on the candidate
	// graph: not proven until evaluated on the complete graph.
	Estimate float64
	Elapsed  time.Duration
}

// Result is a proven lower bound and how it was found.
type Result struct {
	// Bound is a lower bound of every tour's length: the minimum 1-tree
	// of the complete graph under the best penalties found, rounded up.
	Bound int64
	// Estimate is the ascent's best bound on the candidate graph.
	Estimate float64
	// Iterations counts the minimum 1-trees computed by the ascent.
	Iterations int
	// Elapsed is the whole time; Evaluation the part spent on the
	// complete graph.
	Elapsed, Evaluation time.Duration
	// Optimal reports that the final 1-tree is a tour: Bound is then the
	// optimum.
	Optimal bool
	// Stopped reports that the time limit or the context ended the ascent
	// before its schedule.
	Stopped bool
	// Pi holds the final penalties, in units of 1/Precision.
	Pi []int64

	in   *solver.Instance
	kd   *kdTree
	g    *graph
	tree *oneTree
}

// GapPercent returns how far length lies above the bound, in percent of
// the bound: a proven upper limit of its distance from the optimum.
func (r Result) GapPercent(length int64) float64 {
	if r.Bound <= 0 {
		return 0
	}
	return 100 * float64(length-r.Bound) / float64(r.Bound)
}

// Compute returns the Held–Karp lower bound of in. Cancelling ctx
// abandons the computation and returns ctx's error; use StopAscent to end
// the ascent early and still get the bound of the penalties found so far.
func Compute(ctx context.Context, in *solver.Instance, opts Options) (Result, error) {
	return compute(ctx, nil, in, opts)
}

// StopAscent is like Compute, but closing stop ends only the ascent:
// the bound of the penalties found so far is still evaluated and
// returned, while cancelling ctx abandons the whole computation.
func StopAscent(ctx context.Context, stop <-chan struct{}, in *solver.Instance, opts Options) (Result, error) {
	return compute(ctx, stop, in, opts)
}

func compute(ctx context.Context, stop <-chan struct{}, in *solver.Instance, opts Options) (Result, error) {
	start := time.Now()
	if in == nil || in.N <= 0 {
		return Result{}, errors.New("bound: empty instance")
	}
	n := in.N
	res := Result{in: in, Pi: make([]int64, n)}
	if n <= 3 { // one tour only
		res.Bound = solver.TourLength(in, solver.IdentityTour(n))
		res.Estimate = float64(res.Bound)
		res.Optimal = true
		res.Elapsed = time.Since(start)
		return res, nil
	}
	if opts.Neighbors <= 0 {
		opts.Neighbors = DefaultNeighbors
	}
	if euclidLike(in) {
		res.kd = newKDTree(in)
	}
	// The penalty-free minimum 1-tree: a bound already, and its spanning
	// tree keeps the candidate graph connected.
	t0 := time.Now()
	tree0, err := evaluate(ctx, in, res.kd, nil, res.Pi)
	if err != nil {
		return Result{}, err
	}
	evalCost := time.Since(t0)
	res.g, err = buildGraph(in, opts.Neighbors, tree0.parent)
	if err != nil {
		return Result{}, err
	}
	var deadline time.Time
	if opts.Time > 0 {
		// Keep about twice the first evaluation for the last one.
		deadline = start.Add(opts.Time - 2*evalCost)
	}
	halt := func() bool {
		if ctx.Err() != nil {
			return true
		}
		select {
		case <-stop:
			return true
		default:
		}
		return !deadline.IsZero() && time.Now().After(deadline)
	}
	var best int64
	best, res.Iterations, res.Stopped = ascent(res.g, res.Pi, opts, start, halt)
	res.Estimate = float64(best) / Precision
	t1 := time.Now()
	tree, err := evaluate(ctx, in, res.kd, res.g, res.Pi)
	if err != nil {
		return Result{}, err
	}
	if tree0.weight > tree.weight {
		tree = tree0
		clear(res.Pi)
	}
	res.tree = tree
	res.Bound = ceilDiv(tree.weight, Precision)
	res.Optimal = true
	for _, d := range tree.degree {
		if d != 2 {
			res.Optimal = false
			break
		}
	}
	res.Evaluation = time.Since(t1) + evalCost
	res.Elapsed = time.Since(start)
	return res, nil
}

// ceilDiv returns ⌈a/b⌉ for b > 0.
func ceilDiv(a, b int64) int64 {
	q := a / b
	if a%b != 0 && a > 0 {
		q++
	}
	return q
}

// ascent raises the penalties pi by subgradient ascent on the candidate
// graph g with LKH's rules (see the package comment), leaving in pi the
// penalties of the best 1-tree found. It returns that 1-tree's weight
// minus 2·Σπ, the number of 1-trees computed, and whether halt ended it.
func ascent(g *graph, pi []int64, opts Options, start time.Time, halt func() bool) (best int64, iters int, stopped bool) {
	n := len(pi)
	run, deg := sparseMST(g, pi, opts.parallel)
	w := run(pi)
	iters = 1
	best = w
	bestPi := append([]int64(nil), pi...)
	lastV := make([]int64, n)
	norm := int64(0)
	for i, d := range deg {
		lastV[i] = int64(d) - 2
		norm += lastV[i] * lastV[i]
	}
	initialPeriod := max(n/2, 100)
	switch {
	case opts.MaxPeriod > 0:
		initialPeriod = min(initialPeriod, opts.MaxPeriod)
	case opts.MaxPeriod == 0:
		initialPeriod = min(initialPeriod, defaultMaxPeriod(n))
	}
	period := initialPeriod
	t := int64(Precision) // LKH's INITIAL_STEP_SIZE of 1
	initialPhase := true
	lastReport := time.Now()
	for ; period > 0 && t > 0 && norm != 0; period, t = period/2, t/2 {
		for p := 1; t > 0 && p <= period && norm != 0; p++ {
			if halt() {
				stopped = true
				copy(pi, bestPi)
				return best, iters, stopped
			}
			for i, d := range deg {
				v := int64(d) - 2
				if v != 0 {
					pi[i] += t * (7*v + 3*lastV[i]) / 10
				}
				lastV[i] = v
			}
			w = run(pi)
			iters++
			norm = 0
			for _, d := range deg {
				v := int64(d) - 2
				norm += v * v
			}
			if w > best {
				best = w
				copy(bestPi, pi)
				if initialPhase {
					t *= 2
				}
				if p == period {
					period = min(2*period, initialPeriod)
				}
				if opts.Progress != nil && time.Since(lastReport) >= ProgressInterval {
					lastReport = time.Now()
					opts.Progress(Progress{Iteration: iters, Estimate: float64(best) / Precision, Elapsed: time.Since(start)})
				}
			} else if initialPhase && p > period/2 {
				initialPhase = false
				p = 0
				t = 3 * t / 4
			}
		}
	}
	copy(pi, bestPi)
	return best, iters, false
}
