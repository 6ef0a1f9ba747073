package device

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sort"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// Metric codes shared with gpu/device/common.cuh.
const (
	MetricEuc2D  = 1
	MetricCeil2D = 2
	MetricAtt    = 3
)

// MetricSuffix names each metric code in the kernels' names.
var MetricSuffix = map[int]string{MetricEuc2D: "euc", MetricCeil2D: "ceil", MetricAtt: "att"}

// MetricCode returns the kernels' code for in's metric, or an error naming the instance and why.
func MetricCode(in *solver.Instance) (int, error) {
	if in == nil || in.N < 5 {
		return 0, fmt.Errorf("%w: the GPU engines need at least 5 cities", ErrUnsupported)
	}
	if !in.HasCoords() {
		return 0, fmt.Errorf("%w: %s is %s without coordinates (the kernels compute distances from coordinates)", ErrUnsupported, in.Name, in.Metric)
	}
	switch in.Metric {
	case solver.Euc2D:
		return MetricEuc2D, nil
	case solver.Ceil2D:
		return MetricCeil2D, nil
	case solver.Att:
		return MetricAtt, nil
	}
	return 0, fmt.Errorf("%w: %s uses %s; the GPU kernels implement EUC_2D, CEIL_2D and ATT", ErrUnsupported, in.Name, in.Metric)
}

// ShiftedCoords returns the coordinates shifted to a minimum of 0 as float32 pairs.
func ShiftedCoords(in *solver.Instance) []float32 {
	mx, my := math.Inf(1), math.Inf(1)
	for i := 0; i < in.N; i++ {
		mx = math.Min(mx, in.X[i])
		my = math.Min(my, in.Y[i])
	}
	xy := make([]float32, 2*in.N)
	for i := 0; i < in.N; i++ {
		xy[2*i] = float32(in.X[i] - mx)
		xy[2*i+1] = float32(in.Y[i] - my)
	}
	return xy
}

// CoordSpan is the largest coordinate range of in (x or y).
func CoordSpan(in *solver.Instance) float64 {
	if in.N == 0 {
		return 0
	}
	x0, x1, y0, y1 := in.X[0], in.X[0], in.Y[0], in.Y[0]
	for i := 1; i < in.N; i++ {
		x0, x1 = math.Min(x0, in.X[i]), math.Max(x1, in.X[i])
		y0, y1 = math.Min(y0, in.Y[i]), math.Max(y1, in.Y[i])
	}
	return math.Max(x1-x0, y1-y0)
}

// RawScale turns in's distance into a plain Euclidean one of scaled coordinates (ATT: sqrt(d²/10)).
func RawScale(in *solver.Instance) float64 {
	if in.Metric == solver.Att {
		return 1 / math.Sqrt(10)
	}
	return 1
}

// TourPoints fills dst with twoopt.cu's layout (x, y, e = d(k, k+1), 0).
func TourPoints(xy []float32, scale float64, t []int, dst []float32) {
	n := len(t)
	for k, c := range t {
		d := t[(k+1)%n]
		x, y := float64(xy[2*c])*scale, float64(xy[2*c+1])*scale
		x2, y2 := float64(xy[2*d])*scale, float64(xy[2*d+1])*scale
		dst[4*k] = float32(x)
		dst[4*k+1] = float32(y)
		dst[4*k+2] = float32(math.Hypot(x-x2, y-y2))
		dst[4*k+3] = 0
	}
}

// TwoOptMove is a 2-opt move on tour positions, reversing i+1..j.
type TwoOptMove struct {
	I, J  int
	Delta int64 // exact, from integer TSPLIB distances
}

// ExactDelta returns the exact change of length of the move (i, j) on t.
func ExactDelta(in *solver.Instance, t []int, i, j int) int64 {
	n := len(t)
	return tour.Delta2OptEdges(tour.LazyDist(in), int32(t[i]), int32(t[i+1]), int32(t[j]), int32(t[(j+1)%n]))
}

// ValidMove reports whether (i, j) is a 2-opt move of a tour of n cities.
func ValidMove(i, j, n int) bool {
	return i >= 0 && j <= n-1 && j >= i+2 && !(i == 0 && j == n-1)
}

// SelectMoves re-checks the GPU's candidates with exact distances and picks improving ones with disjoint ranges, best first,
// which apply in one pass; sorted by i.
func SelectMoves(in *solver.Instance, t []int, cands []TwoOptMove) []TwoOptMove {
	n := len(t)
	var ok []TwoOptMove
	for _, m := range cands {
		if !ValidMove(m.I, m.J, n) {
			continue
		}
		m.Delta = ExactDelta(in, t, m.I, m.J)
		if m.Delta < 0 {
			ok = append(ok, m)
		}
	}
	sort.Slice(ok, func(a, b int) bool {
		if ok[a].Delta != ok[b].Delta {
			return ok[a].Delta < ok[b].Delta
		}
		if ok[a].I != ok[b].I {
			return ok[a].I < ok[b].I
		}
		return ok[a].J < ok[b].J
	})
	var chosen []TwoOptMove // sorted by I, disjoint
	for _, m := range ok {
		k := sort.Search(len(chosen), func(x int) bool { return chosen[x].I > m.I })
		if k > 0 && chosen[k-1].J >= m.I {
			continue
		}
		if k < len(chosen) && chosen[k].I <= m.J {
			continue
		}
		chosen = append(chosen, TwoOptMove{})
		copy(chosen[k+1:], chosen[k:])
		chosen[k] = m
	}
	return chosen
}

// ApplyMoves applies disjoint moves in place and returns their total delta.
func ApplyMoves(t []int, moves []TwoOptMove) int64 {
	var sum int64
	for _, m := range moves {
		slices.Reverse(t[m.I+1 : m.J+1])
		sum += m.Delta
	}
	return sum
}

// NextToTour turns a successor array into a tour starting at city 0.
func NextToTour(next []int32) ([]int, error) {
	n := len(next)
	t := make([]int, 0, n)
	seen := make([]bool, n)
	c := 0
	for k := 0; k < n; k++ {
		if c < 0 || c >= n || seen[c] {
			return nil, fmt.Errorf("successor array is not one cycle (city %d repeats or is out of range after %d steps)", c, k)
		}
		seen[c] = true
		t = append(t, c)
		c = int(next[c])
	}
	if c != 0 {
		return nil, fmt.Errorf("successor array does not close its cycle")
	}
	return t, nil
}

// Convert copies s into a new slice of another integer type.
func Convert[D, S ~int | ~int32](s []S) []D {
	d := make([]D, len(s))
	for i, v := range s {
		d[i] = D(v)
	}
	return d
}

// TourToNext turns a tour into its successor array.
func TourToNext(t []int) []int32 {
	next := make([]int32, len(t))
	for k, c := range t {
		next[c] = int32(t[(k+1)%len(t)])
	}
	return next
}

// doubleBridge applies a random double-bridge kick to t, its cuts in a window of at most w positions.
func doubleBridge(t []int, rng *rand.Rand, w int) {
	n := len(t)
	if n < 8 {
		return
	}
	w = min(max(w, 8), n)
	s := rng.IntN(n - w + 1)
	cuts := []int{1 + rng.IntN(w-1), 1 + rng.IntN(w-1), 1 + rng.IntN(w-1)}
	slices.Sort(cuts)
	win := t[s : s+w]
	copy(win, tour.DoubleBridgeAt(win, cuts[0], cuts[1], cuts[2]))
}

// Polish2Opt makes t 2-opt optimal over nb with exact distances on the CPU: what the kernels missed.
func Polish2Opt(in *solver.Instance, t []int, nb *neighbor.Lists) {
	a := tour.NewArray(t)
	tour.TwoOpt(in, a, nb)
	copy(t, a.Tour)
}

// StartTour builds the candidate lists and start tour (Params.Start or greedy) on the
// CPU; ok is false when ctx or deadline came first.
func StartTour(ctx context.Context, deadline time.Time, in *solver.Instance, p solver.Params, k int, sink *solver.Sink) (nb *neighbor.Lists, t []int, ok bool) {
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	sink.SendPhase(solver.PhaseNeighbours, solver.UnknownProgress)
	// the lists' search stops with ctx too
	nb, err := neighbor.NearestContext(ctx, in, k)
	if err != nil {
		return nil, nil, false
	}
	if len(p.Start) == in.N {
		return nb, slices.Clone(p.Start), true
	}
	sink.SendPhase(solver.PhaseStart, solver.UnknownProgress)
	t, err = construct.GreedyContext(ctx, in, nb)
	if err != nil {
		return nil, nil, false
	}
	l := solver.TourLength(in, t)
	// the caller improves t in place: the snapshot gets a copy
	c := slices.Clone(t)
	sink.Send(solver.Snapshot{Tour: c, Best: c, Length: l, BestLength: l, Phase: solver.PhaseStart, PhaseProgress: 1})
	return nb, t, true
}

// FinishEarly ends a run stopped before its start tour with Params.Start or the space-filling curve.
func FinishEarly(in *solver.Instance, e solver.Engine, p solver.Params, start time.Time, sink *solver.Sink, device string) (solver.Result, error) {
	t := p.Start
	if len(t) != in.N {
		t = construct.SpaceFillingCurve(in)
	}
	l := solver.TourLength(in, t)
	sink.Send(solver.Snapshot{Best: t, BestLength: l, Length: l, Progress: 1})
	return solver.Finish(in, e, p, solver.Outcome{Tour: t, Start: start, Stopped: true, Device: device})
}

// UsableMemory is the free device memory a run may plan on: 7/8 less 256 MiB.
func UsableMemory(free int64) int64 { return max(0, free/8*7-256<<20) }
