package ils

import (
	"fmt"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/benchgpu"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

// FIModes are the first-improvement ILS population's mappings (Delévacq et al.'s Table 1).
var FIModes = []string{"thread", "block-global", "block-shared"}

// FINeighbors is the candidate list size (their 40).
const FINeighbors = 40

// fiSearch is fils.cu's sequential twin: one solution's first-improvement ILS, move for move.
type fiSearch struct {
	n, K   int
	d      func(a, b int32) int64
	nbr    []int32
	t, pos []int32
	dlb    []bool
}

func (f *fiSearch) succ(c int32) int32 { return f.t[(int(f.pos[c])+1)%f.n] }
func (f *fiSearch) pred(c int32) int32 { return f.t[(int(f.pos[c])+f.n-1)%f.n] }

func (f *fiSearch) reverse(i, j int) {
	n := f.n
	inner := (j-i+n)%n + 1
	if 2*inner > n {
		i, j = (j+1)%n, (i-1+n)%n
		inner = n - inner
	}
	for q := 0; q < inner/2; q++ {
		a, b := (i+q)%n, (j-q+n)%n
		ca, cb := f.t[a], f.t[b]
		f.t[a], f.t[b] = cb, ca
		f.pos[cb], f.pos[ca] = int32(a), int32(b)
	}
}

func (f *fiSearch) tryDir(a int32, fwd bool, cur *int64) bool {
	b := f.succ(a)
	if !fwd {
		b = f.pred(a)
	}
	dab := f.d(a, b)
	for k := 0; k < f.K; k++ {
		c := f.nbr[int(a)*f.K+k]
		g := f.d(a, c)
		if g >= dab {
			break
		}
		dd := f.succ(c)
		if !fwd {
			dd = f.pred(c)
		}
		if c == b || dd == a {
			continue
		}
		if delta := g + f.d(b, dd) - dab - f.d(c, dd); delta < 0 {
			if fwd {
				f.reverse(int(f.pos[b]), int(f.pos[c]))
			} else {
				f.reverse(int(f.pos[c]), int(f.pos[b]))
			}
			f.dlb[a], f.dlb[b], f.dlb[c], f.dlb[dd] = false, false, false, false
			*cur += delta
			return true
		}
	}
	return false
}

func (f *fiSearch) localSearch(cur *int64) {
	for improved := true; improved; {
		improved = false
		for c := int32(0); int(c) < f.n; c++ {
			if f.dlb[c] {
				continue
			}
			if f.tryDir(c, true, cur) || f.tryDir(c, false, cur) {
				improved = true
			} else {
				f.dlb[c] = true
			}
		}
	}
}

// fiNext is xorshift64*, fiSeed solution s's stream (as in fils.cu).
func fiNext(x *uint64) uint64 {
	*x ^= *x >> 12
	*x ^= *x << 25
	*x ^= *x >> 27
	return *x * 0x2545F4914F6CDD1D
}

func fiSeed(seed uint64, s int) uint64 {
	z := seed + uint64(s+1)*0x9E3779B97F4A7C15
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9
	z = (z ^ (z >> 27)) * 0x94D049BB133111EB
	z ^= z >> 31
	if z == 0 {
		return 1
	}
	return z
}

func (f *fiSearch) kick(rng *uint64) int64 {
	n := f.n
	var p1, p2, p3 int
	for {
		p1 = 1 + int((fiNext(rng)>>11)%uint64(n-1))
		p2 = 1 + int((fiNext(rng)>>11)%uint64(n-1))
		p3 = 1 + int((fiNext(rng)>>11)%uint64(n-1))
		lo, hi := min(p1, p2, p3), max(p1, p2, p3)
		p1, p2, p3 = lo, p1+p2+p3-lo-hi, hi
		if p1 != p2 && p2 != p3 {
			break
		}
	}
	t := f.t
	a1, b1, a2, b2, a3, b3 := t[p1-1], t[p1], t[p2-1], t[p2], t[p3-1], t[p3]
	delta := f.d(a1, b2) + f.d(a3, b1) + f.d(a2, b3) - f.d(a1, b1) - f.d(a2, b2) - f.d(a3, b3)
	rev := func(i, j int) {
		for ; i < j; i, j = i+1, j-1 {
			t[i], t[j] = t[j], t[i]
		}
	}
	rev(p1, p2-1)
	rev(p2, p3-1)
	rev(p1, p3-1)
	for q := p1; q < p3; q++ {
		f.pos[t[q]] = int32(q)
	}
	for _, c := range []int32{a1, b1, a2, b2, a3, b3} {
		f.dlb[c] = false
	}
	return delta
}

// fiRun runs solution s's ILS of itLim kicks and returns its best tour and length.
func fiRun(n int, d func(a, b int32) int64, nb *neighbor.Lists, start []int32, itLim int, seed uint64, s int) ([]int32, int64) {
	f := &fiSearch{n: n, K: nb.K, d: d, nbr: nb.List, t: append([]int32(nil), start...), pos: make([]int32, n), dlb: make([]bool, n)}
	var cur int64
	for p, c := range f.t {
		f.pos[c] = int32(p)
		cur += d(c, f.t[(p+1)%n])
	}
	f.localSearch(&cur)
	best, bestLen := append([]int32(nil), f.t...), cur
	rng := fiSeed(seed, s)
	for it := 0; it < itLim; it++ {
		cur += f.kick(&rng)
		f.localSearch(&cur)
		if cur < bestLen {
			copy(best, f.t)
			bestLen = cur
		} else {
			copy(f.t, best)
			for p, c := range f.t {
				f.pos[c] = int32(p)
			}
			cur = bestLen
		}
	}
	return best, bestLen
}

// fiStart returns the FINeighbors lists and the nearest-neighbour tour from city 0.
func fiStart(in *solver.Instance) (*neighbor.Lists, []int32) {
	nb := neighbor.Nearest(in, FINeighbors)
	return nb, device.Convert[int32](construct.NearestNeighbor(in, 0, nb))
}

// FISequential runs FIPopulation's solutions first..first+count-1 one after the other on one core with exact distances.
func FISequential(in *solver.Instance, first, count int, pop benchgpu.Population) (benchgpu.PopulationResult, error) {
	if in.N < 8 {
		return benchgpu.PopulationResult{}, fmt.Errorf("first-improvement ILS: %d cities, want at least 8", in.N)
	}
	itLim, seed := pop.Kicks, pop.Seed
	nb, start := fiStart(in)
	dist := tour.NewDist(in)
	d := dist.At
	st := time.Now()
	var best []int32
	length := int64(-1)
	for s := first; s < first+count; s++ {
		t, l := fiRun(in.N, d, nb, start, itLim, seed, s)
		if length < 0 || l < length {
			best, length = t, l
		}
	}
	res := benchgpu.PopulationResult{Elapsed: time.Since(st), Kicks: int64(count) * int64(itLim), Device: "cpu: 1 core", Tour: device.Convert[int](best)}
	res.Length = solver.TourLength(in, res.Tour)
	return res, nil
}
