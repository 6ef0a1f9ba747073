//go:build cuda

package climb

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/gputest"
	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// climbKernels are the fused climber's variants.
var climbKernels = []string{"twoopt_climb_r4", "twoopt_climb_r8", "twoopt_climb_r4_t128", "twoopt_climb_r6_t128"}

// climbEvalKeys runs one evaluation of the fused climber (mode 1) on tour t
// and returns each thread's best move as (delta, i, j), i = -1 for none.
func climbEvalKeys(t *testing.T, r *device.Run, in *solver.Instance, tr []int, kernel string) (deltas []float32, is, js []int) {
	t.Helper()
	err := r.Do(func() error {
		pl, err := planClimb(r, in.N, kernel)
		if err != nil {
			return err
		}
		s, err := newClimbState(r, in, 1, tr, pl.threads)
		if err != nil {
			return err
		}
		defer s.free()
		if err := s.launch(pl, in, 1, time.Second, 0, 1); err != nil {
			return err
		}
		if err := r.Sync("climb debug"); err != nil {
			return err
		}
		keys := make([]uint64, pl.threads)
		if err := device.DtoH(keys, s.dbgP); err != nil {
			return err
		}
		for _, k := range keys {
			if k == math.MaxUint64 {
				deltas, is, js = append(deltas, float32(math.Inf(1))), append(is, -1), append(js, -1)
				continue
			}
			u := uint32(k >> 32)
			if u&0x80000000 != 0 {
				u &= 0x7fffffff
			} else {
				u = ^u
			}
			deltas = append(deltas, math.Float32frombits(u))
			is, js = append(is, int(k>>16&0xffff)), append(js, int(k&0xffff))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return deltas, is, js
}

// TestClimbEvalMatchesCPU checks the fused climber's evaluation: every move
// a thread reports is a move, its delta is the CPU's (float64 on the same
// coordinates), and the best over the threads is the best move of the
// whole neighbourhood, for every variant, on sizes that exercise the
// partial units, the diagonal and the closing edge.
func TestClimbEvalMatchesCPU(t *testing.T) {
	r := gputest.NeedRun(t)
	for _, m := range []solver.Metric{solver.Euc2D, solver.Att} {
		for _, n := range []int{5, 6, 7, 33, 64, 65, 130, 300, 777, 2100} {
			in := gputest.RandomInstance(n, m, 10000, uint64(n))
			tr := construct.Random(n, rand.New(rand.NewPCG(uint64(n), 9)))
			pts := make([]float32, 4*n)
			device.TourPoints(device.ShiftedCoords(in), 1, tr, pts)
			want := math.Inf(1)
			for i := 0; i < n; i++ {
				for j := i + 2; j < n; j++ {
					if device.ValidMove(i, j, n) {
						want = math.Min(want, cpuFloatDelta(pts, i, j, n))
					}
				}
			}
			for _, k := range climbKernels {
				deltas, is, js := climbEvalKeys(t, r, in, tr, k)
				got := math.Inf(1)
				for th := range deltas {
					if is[th] < 0 {
						continue
					}
					i, j := is[th], js[th]
					if !device.ValidMove(i, j, n) {
						t.Fatalf("%s %s n=%d: thread %d reported (%d,%d), no move", k, m, n, th, i, j)
					}
					f := cpuFloatDelta(pts, i, j, n)
					if math.Abs(float64(deltas[th])-f) > 0.05 {
						t.Fatalf("%s %s n=%d: move (%d,%d) GPU delta %v, CPU %v", k, m, n, i, j, deltas[th], f)
					}
					got = math.Min(got, f)
				}
				if math.Abs(got-want) > 0.05 {
					t.Fatalf("%s %s n=%d: best move delta %v over the threads, CPU best %v", k, m, n, got, want)
				}
			}
		}
	}
}

// TestClimbSlotsHoldLocalMinima runs the fused climber for two slices (the
// first cuts climbs short, which the second resumes), from random and from
// nearest-neighbour starts, and checks every
// slot's best tour: a permutation, its length as the kernel measured it
// equal to the CPU's up to float rounding of a few edges, and a 2-opt local
// minimum (no move improves by more than float noise).
func TestClimbSlotsHoldLocalMinima(t *testing.T) {
	r := gputest.NeedRun(t)
	for _, k := range climbKernels {
		for ci, m := range []solver.Metric{solver.Euc2D, solver.Ceil2D, solver.Att} {
			in := gputest.RandomInstance(150, m, 5000, 3)
			start := []int{climbStartRandom, climbStartNN}[ci%2]
			if k == "twoopt_climb_r4_t128" {
				start = climbStartNN
			}
			n, B := in.N, 6
			lens := make([]int64, B)
			tours := make([]int32, B*n)
			ctr := make([]uint64, climbCounters)
			err := r.Do(func() error {
				pl, err := planClimb(r, n, k)
				if err != nil {
					return err
				}
				s, err := newClimbState(r, in, B, nil, 0)
				if err != nil {
					return err
				}
				defer s.free()
				s.start = start
				for _, slice := range []time.Duration{100 * time.Microsecond, 50 * time.Millisecond} {
					if err := s.launch(pl, in, 7, slice, 0, 0); err != nil {
						return err
					}
					if err := r.Sync("climb"); err != nil {
						return err
					}
				}
				if err := device.DtoH(lens, s.bestLen); err != nil {
					return err
				}
				if err := device.DtoH(ctr, s.ctr); err != nil {
					return err
				}
				return device.DtoH(tours, s.best)
			})
			if err != nil {
				t.Fatal(err)
			}
			if ctr[ctrClimbs] == 0 || ctr[ctrSweeps] == 0 || ctr[ctrApplied] == 0 {
				t.Fatalf("%s %s: counters %v after 50 ms", k, m, ctr)
			}
			pts := make([]float32, 4*n)
			for slot := 0; slot < B; slot++ {
				if lens[slot] == math.MaxInt64 {
					t.Fatalf("%s %s: slot %d finished no climb", k, m, slot)
				}
				tr := make([]int, n)
				for i := range tr {
					tr[i] = int(tours[slot*n+i])
				}
				if err := solver.ValidateTour(tr, n); err != nil {
					t.Fatalf("%s %s slot %d: %v", k, m, slot, err)
				}
				if l := solver.TourLength(in, tr); math.Abs(float64(l-lens[slot])) > 3 {
					t.Fatalf("%s %s slot %d: kernel length %d, CPU %d", k, m, slot, lens[slot], l)
				}
				device.TourPoints(device.ShiftedCoords(in), 1, tr, pts)
				for i := 0; i < n; i++ {
					for j := i + 2; j < n; j++ {
						if device.ValidMove(i, j, n) {
							if f := cpuFloatDelta(pts, i, j, n); f < -0.05 {
								t.Fatalf("%s %s slot %d: move (%d,%d) still improves by %v", k, m, slot, i, j, -f)
							}
						}
					}
				}
			}
			t.Logf("%s %s start %d: %d climbs, %d sweeps, %d moves applied (%.1f per sweep)", k, m, start, ctr[ctrClimbs], ctr[ctrSweeps], ctr[ctrApplied], float64(ctr[ctrApplied])/float64(ctr[ctrSweeps]))
		}
	}
}

// BenchmarkClimbVariants measures each fused climber variant on d493 and
// the first 1000, 2000 and 4000 cities of d18512 (the instances O'Neil &
// Burtscher's TSP_GPU was timed on for this project): climbs completed per
// second of kernel time over a window after a warm-up slice (so that the
// slots' first climbs, which all start together, do not skew the count),
// with sweeps per climb and moves applied per sweep. Run it with
// -test.bench ClimbVariants -test.benchtime 1x.
func BenchmarkClimbVariants(b *testing.B) {
	r := gputest.NeedRun(b)
	cases := []struct {
		name   string
		prefix int
	}{{"d493", 0}, {"d18512", 1000}, {"d18512", 2000}, {"d18512", 4000}}
	for _, c := range cases {
		p := tsplibdir.Instance(b, c.name)
		in, err := tsplib.Load(p, filepath.Dir(p))
		if err != nil {
			b.Fatal(err)
		}
		if c.prefix > 0 {
			in = solver.NewCoordInstance(fmt.Sprintf("%s[:%d]", in.Name, c.prefix), in.Metric, in.X[:c.prefix], in.Y[:c.prefix], nil)
		}
		warm, window := 300*time.Millisecond, time.Second
		if in.N >= 2000 {
			warm, window = time.Second, 2*time.Second
		}
		for _, k := range climbKernels {
			b.Run(in.Name+"/"+k, func(b *testing.B) {
				for b.Loop() {
					var c0, c1 []uint64
					var pl climbPlan
					var ms float64
					err := r.Do(func() error {
						var err error
						if pl, err = planClimb(r, in.N, k); err != nil {
							return err
						}
						s, err := newClimbState(r, in, pl.slots, nil, 0)
						if err != nil {
							return err
						}
						defer s.free()
						if err := s.launch(pl, in, 1, warm, 0, 0); err != nil {
							return err
						}
						if err := r.Sync("climb"); err != nil {
							return err
						}
						c0 = make([]uint64, climbCounters)
						if err := device.DtoH(c0, s.ctr); err != nil {
							return err
						}
						if ms, err = r.Timed("climb", func() error { return s.launch(pl, in, 2, window, 0, 0) }); err != nil {
							return err
						}
						c1 = make([]uint64, climbCounters)
						return device.DtoH(c1, s.ctr)
					})
					if err != nil {
						b.Fatal(err)
					}
					sec := ms / 1000
					climbs := float64(c1[ctrClimbs] - c0[ctrClimbs])
					sweeps := float64(c1[ctrSweeps] - c0[ctrSweeps])
					applied := float64(c1[ctrApplied] - c0[ctrApplied])
					b.ReportMetric(climbs/sec, "climbs/s")
					b.ReportMetric(sweeps*float64(movesPerPass(in.N))/sec, "moves/s")
					b.ReportMetric(sweeps/max(climbs, 1), "sweeps/climb")
					b.ReportMetric(applied/max(sweeps, 1), "applied/sweep")
					b.ReportMetric(float64(pl.slots), "slots")
				}
			})
		}
	}
}

// TestClimbRestartsBound: with the restarts option and no time limit the
// engine runs exactly that many climbs and returns a checked tour.
func TestClimbRestartsBound(t *testing.T) {
	gputest.NeedDevice(t)
	in := gputest.RandomInstance(120, solver.Euc2D, 1000, 8)
	e, err := solver.Lookup(AlgoTwoOptClimb, solver.BackendGPU)
	if err != nil {
		t.Fatal(err)
	}
	res, err := e.Solve(context.Background(), in, solver.Params{Seed: 1, Config: func(c *ClimbConfig) { c.Restarts = 3000 }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	gputest.CheckResult(t, AlgoTwoOptClimb, in, res)
	if res.Steps != 3000 {
		t.Fatalf("%d climbs, want 3000", res.Steps)
	}
}

// climbFrom climbs once from each tour of starts with the fused climber
// (mode 2) and returns the local minima.
func climbFrom(t testing.TB, r *device.Run, in *solver.Instance, starts [][]int) [][]int {
	t.Helper()
	n, B := in.N, len(starts)
	flat := make([]int32, 0, B*n)
	for _, st := range starts {
		for _, c := range st {
			flat = append(flat, int32(c))
		}
	}
	out := make([]int32, B*n)
	err := r.Do(func() error {
		pl, err := planClimb(r, n, climbKernelFor(n))
		if err != nil {
			return err
		}
		s, err := newClimbState(r, in, B, nil, 0)
		if err != nil {
			return err
		}
		defer s.free()
		if err := device.HtoD(s.cur, flat); err != nil {
			return err
		}
		if err := s.launch(pl, in, 1, time.Minute, 0, 2); err != nil {
			return err
		}
		if err := r.Sync("climb from tours"); err != nil {
			return err
		}
		return device.DtoH(out, s.best)
	})
	if err != nil {
		t.Fatal(err)
	}
	res := make([][]int, B)
	for k := range res {
		res[k] = make([]int, n)
		for i := range res[k] {
			res[k][i] = int(out[k*n+i])
		}
		if err := solver.ValidateTour(res[k], n); err != nil {
			t.Fatalf("climb %d: %v", k, err)
		}
	}
	return res
}

// cpuBestClimb takes t to a 2-opt local minimum by best improvement over
// the whole neighbourhood (one move per pass, as O'Neil & Burtscher's
// climbers), with the float64 Euclidean distances d (n×n); it returns the
// passes.
func cpuBestClimb(d []float64, t []int, eps float64) int {
	n := len(t)
	for passes := 1; ; passes++ {
		best, bi, bj := -eps, -1, -1
		for i := 0; i < n-2; i++ {
			a, b := t[i], t[i+1]
			jmax := n - 1
			if i == 0 {
				jmax = n - 2
			}
			for j := i + 2; j <= jmax; j++ {
				c, e := t[j], t[(j+1)%n]
				if v := d[a*n+c] + d[b*n+e] - d[a*n+b] - d[c*n+e]; v < best {
					best, bi, bj = v, i, j
				}
			}
		}
		if bi < 0 {
			return passes
		}
		slices.Reverse(t[bi+1 : bj+1])
	}
}

// TestClimbQualityMatchesBestImprovement compares the fused climber's local
// minima with best-improvement climbs on the CPU from the same random
// starts (d493 and the first 1000 cities of d18512): applying every
// disjoint improving move of a pass must not leave the climbs in poorer
// minima on average (within 1 %). It logs the means of both and of the
// climbs from nearest-neighbour starts.
func TestClimbQualityMatchesBestImprovement(t *testing.T) {
	r := gputest.NeedRun(t)
	for _, c := range []struct {
		name          string
		prefix, count int
	}{{"d493", 0, 128}, {"d18512", 1000, 48}} {
		p := tsplibdir.Instance(t, c.name)
		in, err := tsplib.Load(p, filepath.Dir(p))
		if err != nil {
			t.Fatal(err)
		}
		if c.prefix > 0 {
			in = solver.NewCoordInstance(fmt.Sprintf("%s[:%d]", in.Name, c.prefix), in.Metric, in.X[:c.prefix], in.Y[:c.prefix], nil)
		}
		n := in.N
		starts := make([][]int, c.count)
		for k := range starts {
			starts[k] = construct.Random(n, rand.New(rand.NewPCG(uint64(k), 77)))
		}
		mean := func(ts [][]int) float64 {
			s := 0.0
			for _, x := range ts {
				s += float64(solver.TourLength(in, x))
			}
			return s / float64(len(ts))
		}
		gpuDisjoint := climbFrom(t, r, in, starts)
		cpu := make([][]int, len(starts))
		passes := make([]int, len(starts))
		d := make([]float64, n*n)
		for a := range n {
			for b := range n {
				d[a*n+b] = math.Hypot(in.X[a]-in.X[b], in.Y[a]-in.Y[b])
			}
		}
		var wg sync.WaitGroup
		sem := make(chan struct{}, runtime.NumCPU())
		for k := range starts {
			wg.Go(func() {
				sem <- struct{}{}
				defer func() { <-sem }()
				cpu[k] = append([]int(nil), starts[k]...)
				passes[k] = cpuBestClimb(d, cpu[k], climbEps(in))
			})
		}
		wg.Wait()
		mp := 0.0
		for _, x := range passes {
			mp += float64(x) / float64(len(passes))
		}
		md, mc := mean(gpuDisjoint), mean(cpu)
		// Climbs from nearest-neighbour starts: the kernel's own draws,
		// count climbs in all.
		var nnMean, nnPasses float64
		err = r.Do(func() error {
			pl, err := planClimb(r, n, climbKernelFor(n))
			if err != nil {
				return err
			}
			s, err := newClimbState(r, in, c.count, nil, 0)
			if err != nil {
				return err
			}
			defer s.free()
			s.start = climbStartNN
			if err := s.launch(pl, in, 1, time.Minute, c.count, 0); err != nil {
				return err
			}
			if err := r.Sync("climb"); err != nil {
				return err
			}
			ctr := make([]uint64, climbCounters)
			if err := device.DtoH(ctr, s.ctr); err != nil {
				return err
			}
			nnMean = float64(ctr[ctrLenSum]) / float64(max(ctr[ctrClimbs], 1))
			nnPasses = float64(ctr[ctrSweeps]) / float64(max(ctr[ctrClimbs], 1))
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("%s, %d random starts: mean local minimum CPU best improvement %.0f (%.0f passes), GPU disjoint %.0f (%+.2f %%); %d GPU climbs from nearest-neighbour starts: mean %.0f (%+.2f %%), %.0f passes",
			in.Name, len(starts), mc, mp, md, 100*(md/mc-1), c.count, nnMean, 100*(nnMean/mc-1), nnPasses)
		if md > 1.01*mc {
			t.Errorf("%s: the disjoint climbs' mean local minimum %.0f is more than 1 %% above best improvement's %.0f", in.Name, md, mc)
		}
		if nnMean >= md {
			t.Errorf("%s: climbs from nearest-neighbour starts average %.0f, no better than from random starts (%.0f)", in.Name, nnMean, md)
		}
	}
}

// TestClimbBatchStartsNearestNeighbour: tours too large for the fused
// climber run the batch climber, whose climbs start by default from
// randomized nearest-neighbour tours built on the host: a climb from one
// needs far fewer passes than from a uniformly random tour (start=random),
// so the first climb ends after far fewer moves evaluated, and both runs
// return checked tours.
func TestClimbBatchStartsNearestNeighbour(t *testing.T) {
	r := gputest.NeedRun(t)
	in := gputest.RandomInstance(16000, solver.Euc2D, 1e6, 9)
	if err := r.Do(func() error { _, err := planClimb(r, in.N, climbKernelFor(in.N)); return err }); err == nil {
		t.Skipf("%d cities fit the fused climber on this device: no batch climber to test", in.N)
	}
	e, _ := solver.Lookup(AlgoTwoOptClimb, solver.BackendGPU)
	moves := map[string]int64{}
	for _, start := range []string{"nn", "random"} {
		res, err := solver.RunAided(context.Background(), e, in, solver.Params{Seed: 1, TimeLimit: time.Minute, Config: func(c *ClimbConfig) { c.Restarts, c.NearStarts = 1, start == "nn" }}, nil, solver.Aid{}, false)
		if err != nil {
			t.Fatal(err)
		}
		gputest.CheckResult(t, AlgoTwoOptClimb+" start="+start, in, res)
		if res.Steps < 1 || res.Stopped {
			t.Fatalf("start=%s: %d climbs, stopped %v", start, res.Steps, res.Stopped)
		}
		moves[start] = res.Moves
		t.Logf("start=%s: first climb in %v, %d moves evaluated, best %d", start, res.Elapsed, res.Moves, res.Length)
	}
	if 2*moves["nn"] > moves["random"] {
		t.Fatalf("moves to the first local minimum: %d from nearest-neighbour starts, %d from random ones: want at most half", moves["nn"], moves["random"])
	}
}
