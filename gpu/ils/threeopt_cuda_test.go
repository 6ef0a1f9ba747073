//go:build cuda

package ils

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/benchgpu"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
)

// threeOptMove is (x, y, z, type) as in threeopt.cu.
type threeOptMove struct{ x, y, z, typ int }

// cpuReconnect builds the tour that move mv makes of t, from the
// reconnections' definitions (A S2 S1, A S2 S1r, A S2r S1, A S1r S2r).
func cpuReconnect(t []int, mv threeOptMove) []int {
	s1 := append([]int(nil), t[mv.x+1:mv.y+1]...)
	s2 := append([]int(nil), t[mv.y+1:mv.z+1]...)
	rev := func(s []int) []int {
		r := make([]int, len(s))
		for i, v := range s {
			r[len(s)-1-i] = v
		}
		return r
	}
	var mid []int
	switch mv.typ {
	case 0:
		mid = append(s2, s1...)
	case 1:
		mid = append(s2, rev(s1)...)
	case 2:
		mid = append(rev(s2), s1...)
	default:
		mid = append(rev(s1), rev(s2)...)
	}
	out := append([]int(nil), t[:mv.x+1]...)
	out = append(out, mid...)
	return append(out, t[mv.z+1:]...)
}

// randomMoves draws moves, the corner cases first.
func randomMoves(n, count int, rng *rand.Rand) []threeOptMove {
	var out []threeOptMove
	for typ := 0; typ < 4; typ++ {
		out = append(out, threeOptMove{0, 1, 2, typ}, threeOptMove{0, n / 2, n - 1, typ}, threeOptMove{n - 3, n - 2, n - 1, typ})
	}
	for len(out) < count {
		p := rng.Perm(n)[:3]
		slices.Sort(p)
		out = append(out, threeOptMove{p[0], p[1], p[2], rng.IntN(4)})
	}
	return out
}

func TestThreeOptDeltasMatchCPU(t *testing.T) {
	r := gputest.NeedRun(t)
	cases := []struct {
		in     *solver.Instance
		matrix bool
	}{
		{gputest.RandomInstance(7, solver.Euc2D, 1000, 1), true},
		{gputest.RandomInstance(250, solver.Euc2D, 10000, 2), true},
		{gputest.RandomInstance(250, solver.Euc2D, 10000, 3), false},
		{gputest.RandomInstance(180, solver.Ceil2D, 10000, 4), false},
		{gputest.RandomInstance(180, solver.Att, 10000, 5), false},
		{gputest.MatrixInstance(40, 6), true},
	}
	for _, c := range cases {
		in := c.in
		rng := rand.New(rand.NewPCG(uint64(in.N), 8))
		tr := construct.Random(in.N, rng)
		moves := randomMoves(in.N, 3000, rng)
		flat := make([]int32, 0, 3*len(moves))
		for _, mv := range moves {
			flat = append(flat, int32(mv.x), int32(mv.y), int32(mv.z*4+mv.typ))
		}
		got := make([]int32, len(moves))
		for k := range got {
			got[k] = -12345
		}
		err := r.Do(func() error {
			var bufs device.Buffers
			defer bufs.FreeAll()
			dist, err := device.NewLSDist(&bufs, in, c.matrix)
			if err != nil {
				return err
			}
			tp, _ := bufs.Alloc(int64(4 * in.N))
			mp, _ := bufs.Alloc(int64(4 * len(flat)))
			op, err := bufs.Alloc(int64(4 * len(got)))
			if err != nil {
				return err
			}
			c32 := make([]int32, in.N)
			for i, v := range tr {
				c32[i] = int32(v)
			}
			device.HtoD(tp, c32)
			device.HtoD(mp, flat)
			device.HtoD(op, got)
			if err := r.Launch("threeopt_deltas_"+dist.Suffix, (len(moves)+127)/128, 1, 128, 0, r.Stream, dist.Xy, dist.Mat, in.N, tp, mp, len(moves), op); err != nil {
				return err
			}
			if err := r.Stream.Synchronize(); err != nil {
				return err
			}
			return device.DtoH(got, op)
		})
		if err != nil {
			t.Fatal(err)
		}
		base := solver.TourLength(in, tr)
		off := 0
		for k, mv := range moves {
			nt := cpuReconnect(tr, mv)
			if err := solver.ValidateTour(nt, in.N); err != nil {
				t.Fatalf("reconnection %+v: %v", mv, err)
			}
			want := solver.TourLength(in, nt) - base
			if diff := int64(got[k]) - want; diff != 0 {
				if c.matrix || diff > 6 || diff < -6 {
					t.Fatalf("%s (matrix %v) move %+v: GPU delta %d, CPU %d", in.Name, c.matrix, mv, got[k], want)
				}
				off++
			}
		}
		if off*100 > len(moves) {
			t.Errorf("%s: %d of %d GPU deltas differ from the CPU's", in.Name, off, len(moves))
		}
	}
}

func TestThreeOptApplyMatchesCPU(t *testing.T) {
	r := gputest.NeedRun(t)
	in := gputest.RandomInstance(3000, solver.Euc2D, 100000, 9)
	rng := rand.New(rand.NewPCG(2, 2))
	nb := neighbor.Nearest(in, 8)
	for trial, mv := range randomMoves(in.N, 40, rng) {
		tr := construct.Random(in.N, rng)
		want := cpuReconnect(tr, mv)
		got := make([]int, in.N)
		pos := make([]int32, in.N)
		length := []int64{0}
		err := r.Do(func() error {
			o, err := newThreeOpt(r, in, nb, true, 3, 32, 1, 1, 5, 1)
			if err != nil {
				return err
			}
			defer o.free()
			if err := o.upload(tr, 1000000); err != nil {
				return err
			}
			// three block results: the move, a non-move and a worse move
			bb := []device.LSBest{{Delta: -1, A: -1, B: -1, C: -1}, {Delta: -1 << 30, A: int32(mv.x), B: int32(mv.y), C: int32(mv.z*4 + mv.typ)}, {Delta: 5, A: 0, B: 1, C: 8}}
			if err := device.HtoD(o.best, bb); err != nil {
				return err
			}
			o.iter = 1
			if err := o.replace(0, math.MaxInt64); err != nil { // patience past reach: the move alone
				return err
			}
			if err := r.Stream.Synchronize(); err != nil {
				return err
			}
			if err := o.downloadSol(got, o.tour, 0); err != nil {
				return err
			}
			device.DtoH(length, o.length)
			return device.DtoH(pos, o.pos)
		})
		if err != nil {
			t.Fatal(err)
		}
		for p := range want {
			if got[p] != want[p] {
				t.Fatalf("move %d %+v: position %d holds %d, want %d", trial, mv, p, got[p], want[p])
			}
			if int(pos[got[p]]) != p {
				t.Fatalf("move %d %+v: pos[%d] = %d, want %d", trial, mv, got[p], pos[got[p]], p)
			}
		}
		if length[0] != 1000000-(1<<30) {
			t.Fatalf("device length %d: the applied move's delta was not added", length[0])
		}
	}
}

func TestThreeOptILSEngine(t *testing.T) {
	gputest.NeedDevice(t)
	e, err := solver.Lookup(AlgoThreeOptILS, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		in   *solver.Instance
		dist string
	}{{gputest.RandomInstance(400, solver.Euc2D, 10000, 31), "coords"}, {gputest.RandomInstance(400, solver.Euc2D, 10000, 31), "matrix"}, {gputest.MatrixInstance(80, 32), ""}} {
		in := c.in
		greedy := solver.TourLength(in, construct.Greedy(in, neighbor.Nearest(in, 10)))
		r, err := solver.RunAided(context.Background(), e, in, solver.Params{Seed: 1, TimeLimit: time.Second, Config: func(o *ThreeOptConfig) {
			if c.dist != "" {
				o.Dist = c.dist
			}
		}}, nil, solver.Aid{}, false)
		if err != nil {
			t.Fatal(err)
		}
		if err := solver.ValidateTour(r.Tour, in.N); err != nil {
			t.Fatal(err)
		}
		if r.Length != solver.TourLength(in, r.Tour) || r.Moves <= 0 {
			t.Fatalf("%s: length %d (exact %d), moves %d", in.Name, r.Length, solver.TourLength(in, r.Tour), r.Moves)
		}
		if r.Length >= greedy {
			t.Fatalf("%s (%s): 3opt-ils %d did not improve on the greedy start %d", in.Name, c.dist, r.Length, greedy)
		}
		t.Logf("%s (%s): greedy %d -> %d, %d kicks, %.3g moves/s", in.Name, c.dist, greedy, r.Length, r.Steps, r.MovesPerSecond())
	}
	// bad options are one-line errors
	in := gputest.RandomInstance(50, solver.Euc2D, 1000, 1)
	for _, ex := range []string{OptRKBI + "=0", OptRKBI + "=x", device.OptDist + "=disk"} {
		if _, err := solver.RunAided(context.Background(), e, in, gputest.WithOpts(solver.Params{TimeLimit: 100 * time.Millisecond}, ex), nil, solver.Aid{}, false); err == nil {
			t.Fatalf("options %v: no error", ex)
		}
	}
}

// TestThreeOptApplyRKBI checks the replacement kernel's random-k-best
// pivoting: over many rounds it applies only the k best distinct improving
// moves of the block results (duplicates and non-improving ones ignored),
// and each of them at least once.
func TestThreeOptApplyRKBI(t *testing.T) {
	r := gputest.NeedRun(t)
	in := gputest.RandomInstance(500, solver.Euc2D, 10000, 13)
	nb := neighbor.Nearest(in, 8)
	tr := construct.Random(in.N, rand.New(rand.NewPCG(6, 6)))
	mv := func(delta int32, x, y, z, typ int32) device.LSBest {
		return device.LSBest{Delta: delta, A: x, B: y, C: z*4 + typ}
	}
	// ranks: -90 (twice, from two blocks), -80, -70 are the 3 best; -60 and
	// +5 must never be applied; a = -1 is a block without a move.
	bb := []device.LSBest{mv(-60, 1, 2, 3, 0), mv(-90, 10, 20, 30, 1), {Delta: -1000, A: -1, B: -1, C: -1}, mv(-80, 40, 50, 60, 2),
		mv(-90, 10, 20, 30, 1), mv(5, 70, 80, 90, 3), mv(-70, 100, 200, 300, 3)}
	want := map[int]threeOptMove{-90: {10, 20, 30, 1}, -80: {40, 50, 60, 2}, -70: {100, 200, 300, 3}}
	seen := map[int]int{}
	err := r.Do(func() error {
		o, err := newThreeOpt(r, in, nb, true, len(bb), 32, 1, 3, 77, 1)
		if err != nil {
			return err
		}
		defer o.free()
		if err := device.HtoD(o.best, bb); err != nil {
			return err
		}
		got := make([]int, in.N)
		length := []int64{0}
		for it := 1; it <= 60; it++ {
			if err := o.upload(tr, 0); err != nil {
				return err
			}
			o.iter = int64(it)
			if err := o.replace(0, math.MaxInt64); err != nil {
				return err
			}
			if err := r.Stream.Synchronize(); err != nil {
				return err
			}
			if err := o.downloadSol(got, o.tour, 0); err != nil {
				return err
			}
			if err := device.DtoH(length, o.length); err != nil {
				return err
			}
			m, ok := want[int(length[0])]
			if !ok {
				t.Errorf("round %d applied a move of delta %d, not one of the 3 best", it, length[0])
				continue
			}
			exp := cpuReconnect(tr, m)
			for p := range exp {
				if got[p] != exp[p] {
					t.Errorf("round %d: the tour is not the CPU's reconnection %+v", it, m)
					break
				}
			}
			seen[int(length[0])]++
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) != 3 {
		t.Fatalf("picked %v over 60 rounds: want each of the 3 best at least once", seen)
	}
}

// BenchmarkThreeOptRound times one (evaluate, replace) round of the 3-opt
// local search on 3,000 cities and reports moves evaluated per second.
func BenchmarkThreeOptRound(b *testing.B) {
	r := gputest.NeedRun(b)
	in := gputest.RandomInstance(3000, solver.Euc2D, 100000, 1)
	nb := neighbor.Nearest(in, threeOptNeighbors)
	var o *threeOpt
	err := r.Do(func() (err error) {
		if o, err = newThreeOpt(r, in, nb, false, 4*r.Dev.Info.Multiprocs, 256, threeOptSamples, 3, 1, 1); err != nil {
			return err
		}
		return o.upload(construct.Random(in.N, rand.New(rand.NewPCG(1, 1))), 0)
	})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Do(o.free)
	b.ResetTimer()
	err = r.Do(func() error {
		for i := 0; i < b.N; i++ {
			if err := o.ilsRound(math.MaxInt64); err != nil {
				return err
			}
		}
		return r.Stream.Synchronize()
	})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(o.movesPerRound())*float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}

// TestThreeOptDeviceILSKeepsExactBest runs the device-side iterated local
// search with the exact integer matrix: it makes exactly the kicks asked,
// its best length (tracked from the moves' and kicks' deltas) is the exact
// length of its best tour, both tours are permutations with their inverse
// in step, and the tour in hand is the best at the end (accepted or gone
// back to).
func TestThreeOptDeviceILSKeepsExactBest(t *testing.T) {
	r := gputest.NeedRun(t)
	in := gputest.RandomInstance(300, solver.Euc2D, 10000, 41)
	nb := neighbor.Nearest(in, threeOptNeighbors)
	start := construct.Random(in.N, rand.New(rand.NewPCG(3, 3)))
	var o *threeOpt
	err := r.Do(func() (err error) {
		if o, err = newThreeOpt(r, in, nb, true, 16, 64, threeOptSamples, 3, 5, 1); err != nil {
			return err
		}
		return o.upload(start, solver.TourLength(in, start))
	})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Do(o.free)
	best := device.NewRunLoop(context.Background(), in, solver.Params{TimeLimit: time.Minute}, nil, time.Now(), 0)
	best.Plateau = true
	if err := o.deviceILS(best, 50); err != nil {
		t.Fatal(err)
	}
	kicks, rounds, stopped := best.Steps, best.Moves/o.movesPerRound(), best.Stopped
	if kicks != 50 || stopped || rounds <= 50*threeOptPatience {
		t.Fatalf("kicks %d (want 50), rounds %d, stopped %v", kicks, rounds, stopped)
	}
	tour, bt, pos := make([]int32, in.N), make([]int32, in.N), make([]int32, in.N)
	bl := []int64{0}
	err = r.Do(func() error {
		for _, c := range []struct {
			dst []int32
			src cu.DevicePtr
		}{{tour, o.tour}, {bt, o.bestTour}, {pos, o.pos}} {
			if err := device.DtoH(c.dst, c.src); err != nil {
				return err
			}
		}
		return device.DtoH(bl, o.bestLen)
	})
	if err != nil {
		t.Fatal(err)
	}
	ti, bi := make([]int, in.N), make([]int, in.N)
	for i := range tour {
		ti[i], bi[i] = int(tour[i]), int(bt[i])
		if pos[tour[i]] != int32(i) {
			t.Fatalf("pos[%d] = %d, want %d", tour[i], pos[tour[i]], i)
		}
	}
	if err := solver.ValidateTour(bi, in.N); err != nil {
		t.Fatal(err)
	}
	if exact := solver.TourLength(in, bi); exact != bl[0] {
		t.Fatalf("device best length %d, exact length of the device's best tour %d", bl[0], exact)
	}
	if !slices.Equal(ti, bi) {
		t.Fatalf("the tour in hand is not the best at the end")
	}
	if best.BestLen != bl[0] || bl[0] >= solver.TourLength(in, start) {
		t.Fatalf("host best %d, device best %d, start %d", best.BestLen, bl[0], solver.TourLength(in, start))
	}
	t.Logf("300 cities, 50 kicks, %d rounds: random start %d -> %d", rounds, solver.TourLength(in, start), bl[0])
}

// TestThreeOptILSKicks: the engine makes exactly the kicks asked and
// returns a valid tour measured exactly; it is deterministic for a seed
// and, the kicks being a prefix of a longer run's, more kicks never end
// worse.
func TestThreeOptILSKicks(t *testing.T) {
	gputest.NeedDevice(t)
	e, _ := solver.Lookup(AlgoThreeOptILS, solver.BackendGPU)
	in := gputest.RandomInstance(500, solver.Euc2D, 10000, 43)
	solve := func(kicks int) solver.Result {
		t.Helper()
		r, err := e.Solve(context.Background(), in, gputest.WithOpts(solver.Params{Seed: 4, Config: func(c *ThreeOptConfig) { c.Kicks = kicks }}, "blocks=20", "threads=64"), nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := solver.ValidateTour(r.Tour, in.N); err != nil {
			t.Fatal(err)
		}
		if r.Steps != int64(kicks) || r.Stopped || r.Length != solver.TourLength(in, r.Tour) {
			t.Fatalf("kicks %d: %d kicks, stopped %v, length %d (exact %d)", kicks, r.Steps, r.Stopped, r.Length, solver.TourLength(in, r.Tour))
		}
		return r
	}
	prev := int64(-1)
	for _, k := range []int{1, 30, 300} {
		d := solve(k)
		if again := solve(k); again.Length != d.Length || !slices.Equal(again.Tour, d.Tour) {
			t.Fatalf("kicks %d: %d then %d for the same seed", k, d.Length, again.Length)
		}
		if prev >= 0 && d.Length > prev {
			t.Fatalf("kicks %d: %d, longer than with fewer kicks (%d)", k, d.Length, prev)
		}
		prev = d.Length
	}
}

// TestThreeOptPopulationMatchesSingleSearches: a population of searches in
// shared launches ends at the best of the same searches run one by one by
// the engine (solution s with seed seed ^ s·0x9E3779B97F4A7C15), with the
// kicks of all of them; exact integer distances, so the lengths compare
// exactly.
func TestThreeOptPopulationMatchesSingleSearches(t *testing.T) {
	gputest.NeedDevice(t)
	e, _ := solver.Lookup(AlgoThreeOptILS, solver.BackendGPU)
	in := gputest.MatrixInstance(200, 5)
	const nb, kicks, blocks, threads, seed = 5, 20, 10, 64, 7
	want := int64(-1)
	for s := 0; s < nb; s++ {
		r, err := e.Solve(context.Background(), in, gputest.WithOpts(solver.Params{Seed: seed ^ uint64(s)*0x9E3779B97F4A7C15, Config: func(c *ThreeOptConfig) { c.Kicks = kicks }},
			fmt.Sprint("blocks=", blocks), fmt.Sprint("threads=", threads)), nil)
		if err != nil {
			t.Fatal(err)
		}
		if want < 0 || r.Length < want {
			want = r.Length
		}
	}
	res, err := ThreeOptPopulation(context.Background(), in, benchgpu.Population{Solutions: nb, Kicks: kicks, Blocks: blocks, Threads: threads, Seed: seed})
	tour, l, k, el := res.Tour, res.Length, res.Kicks, res.Elapsed
	if err != nil {
		t.Fatal(err)
	}
	if err := solver.ValidateTour(tour, in.N); err != nil {
		t.Fatal(err)
	}
	if l != solver.TourLength(in, tour) || l != want || k != nb*kicks {
		t.Fatalf("population: length %d (exact %d), kicks %d; single searches' best %d, kicks %d", l, solver.TourLength(in, tour), k, want, nb*kicks)
	}
	t.Logf("%d solutions of %d kicks: best %d in %v", nb, kicks, l, el)
}
