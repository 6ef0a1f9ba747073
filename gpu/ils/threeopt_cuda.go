//go:build cuda

package ils

import (
	"context"
	"fmt"
	"math"
	"slices"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/benchgpu"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/neighbor"
)

func init() {
	for _, s := range []string{"mat", "euc", "ceil", "att"} {
		device.RegisterKernels("threeopt_eval_"+s, "threeopt_deltas_"+s, "threeopt_ils_apply_"+s)
	}
}

// threeOptNeighbors is the candidate list size that guides 3-opt sampling.
const threeOptNeighbors = 10

// 3opt-ils's rounds without gain that end a descent, rounds per host round trip, kick window and samples per thread.
const (
	threeOptPatience     = 6
	threeOptDeviceRounds = 32
	threeOptWindow       = 100
	threeOptSamples      = 4
)

// The counters of state (threeopt.cu, THREE_*).
const (
	threeRounds = iota
	threeMoves
	threeLast
	threeKicks
	threeDone
	threeState
)

// threeOpt is P 3-opt searches side by side on the device, each with its own row of G blocks.
type threeOpt struct {
	r          *device.Run
	n, P       int
	dist       device.LSDist
	bufs       device.Buffers
	tour, pos  cu.DevicePtr // n int32 each
	nbr        cu.DevicePtr // n*K int32 (shared)
	K          int
	best       cu.DevicePtr // G lsBest
	scratch    cu.DevicePtr // n int32
	state      cu.DevicePtr // threeState int64: rounds, moves applied, last improving round, kicks, done
	length     cu.DevicePtr // 1 int64
	bestTour   cu.DevicePtr // n int32: the device-side search's best tour
	bestLen    cu.DevicePtr // 1 int64: its length in the kernels' distances
	G, T, S, k int
	seed       uint64
	iter       int64
}

// movesPerRound is the moves one evaluation launch makes for one solution.
func (o *threeOpt) movesPerRound() int64 { return int64(o.G) * int64(o.T) * int64(o.S) * 4 }

// newThreeOpt allocates P searches side by side (context thread).
func newThreeOpt(r *device.Run, in *solver.Instance, nb *neighbor.Lists, matrix bool, G, T, S, k int, seed uint64, P int) (*threeOpt, error) {
	o := &threeOpt{r: r, n: in.N, P: P, G: G, T: T, S: S, k: k, seed: seed, K: nb.K}
	sol := int64(P) * int64(in.N) * 4
	var err error
	if o.dist, err = device.NewLSDist(&o.bufs, in, matrix); err == nil {
		err = o.bufs.AllocAll(device.Buf(&o.tour, sol), device.Buf(&o.pos, sol), device.Buf(&o.scratch, sol), device.Buf(&o.bestTour, sol),
			device.Buf(&o.nbr, int64(len(nb.List))*4), device.Buf(&o.best, int64(P)*int64(G)*16),
			device.Buf(&o.state, int64(P)*threeState*8), device.Buf(&o.length, int64(P)*8), device.Buf(&o.bestLen, int64(P)*8))
	}
	if err == nil {
		err = device.InOrder(func() error { return device.HtoD(o.nbr, nb.List) }, func() error { return device.HtoD(o.state, make([]int64, P*threeState)) })
	}
	if err != nil {
		o.bufs.FreeAll()
		return nil, err
	}
	return o, nil
}

func (o *threeOpt) free() error { return o.bufs.FreeAll() }

// upload sets every solution's tour, inverse and length.
func (o *threeOpt) upload(t []int, length int64) error {
	c := make([]int32, o.P*o.n)
	pos := make([]int32, o.P*o.n)
	for i, v := range t {
		c[i] = int32(v)
		pos[v] = int32(i)
	}
	for s := 1; s < o.P; s++ {
		copy(c[s*o.n:], c[:o.n])
		copy(pos[s*o.n:], pos[:o.n])
	}
	if err := device.HtoD(o.tour, c); err != nil {
		return err
	}
	if err := device.HtoD(o.pos, pos); err != nil {
		return err
	}
	l := make([]int64, o.P)
	for s := range l {
		l[s] = length
	}
	return device.HtoD(o.length, l)
}

// ilsRound queues one evaluation and one replacement.
func (o *threeOpt) ilsRound(maxKicks int64) error {
	o.iter++
	if err := o.r.Launch("threeopt_eval_"+o.dist.Suffix, o.G, o.P, o.T, 0, o.r.Stream,
		o.dist.Xy, o.dist.Mat, o.n, o.tour, o.pos, o.nbr, o.K, o.seed, o.iter, o.S, o.state, o.best); err != nil {
		return err
	}
	return o.replace(maxKicks, threeOptPatience)
}

// replace queues the replacement kernel: descents end after patience rounds, then accept and kick.
func (o *threeOpt) replace(maxKicks, patience int64) error {
	name := "threeopt_ils_apply_" + o.dist.Suffix
	return o.r.Launch(name, o.P, 1, o.r.Block(name, 1024), 0, o.r.Stream,
		o.dist.Xy, o.dist.Mat, o.tour, o.pos, o.n, o.best, o.G, o.k, o.seed, o.iter, o.scratch, o.state, o.length,
		o.bestTour, o.bestLen, maxKicks, patience, int64(threeOptWindow))
}

// startILS starts the searches from the uploaded tours, counters at zero.
func (o *threeOpt) startILS() error {
	l := make([]int64, o.P)
	for s := range l {
		l[s] = math.MaxInt64
	}
	if err := device.HtoD(o.bestLen, l); err != nil {
		return err
	}
	if err := cu.MemcpyDtoDAsync(o.bestTour, o.tour, int64(o.P)*int64(o.n)*4, o.r.Stream); err != nil {
		return err
	}
	if err := o.r.Stream.Synchronize(); err != nil {
		return err
	}
	return device.HtoD(o.state, make([]int64, o.P*threeState))
}

// downloadSol copies solution s's tour at src (context thread).
func (o *threeOpt) downloadSol(dst []int, src cu.DevicePtr, s int) error {
	c := make([]int32, o.n)
	err := device.DtoH(c, src+cu.DevicePtr(int64(s)*int64(o.n)*4))
	copy(dst, device.Convert[int](c))
	return err
}

// bestSolution returns the solution with the shortest best length and that length.
func (o *threeOpt) bestSolution() (int, int64, error) {
	l := make([]int64, o.P)
	if err := device.DtoH(l, o.bestLen); err != nil {
		return 0, 0, err
	}
	s := 0
	for i, v := range l {
		if v < l[s] {
			s = i
		}
	}
	return s, l[s], nil
}

// deviceILS runs every solution's ILS in l's loop until each made maxKicks kicks (0: until the loop ends).
func (o *threeOpt) deviceILS(l *device.RunLoop, maxKicks int64) error {
	if maxKicks <= 0 {
		maxKicks = math.MaxInt64
	}
	if err := o.r.Do(o.startILS); err != nil {
		return err
	}
	d := &threeOptDeviceILS{o: o, l: l, maxKicks: maxKicks, state: make([]int64, o.P*threeState), cur: make([]int, o.n)}
	err := l.Run(d.step, d.view)
	if err == nil {
		// the best solution's best tour and its tour in hand
		err = o.r.Do(func() error {
			if err := device.DtoH(d.state, o.state); err != nil {
				return err
			}
			sol, _, err := o.bestSolution()
			if err != nil {
				return err
			}
			return d.take(sol, true)
		})
	}
	d.count()
	return err
}

// threeOptDeviceILS is the host's side of deviceILS.
type threeOptDeviceILS struct {
	o        *threeOpt
	l        *device.RunLoop
	maxKicks int64
	state    []int64
	cur      []int
	looked   bool // the last step took the best solution's tour into cur
}

// sum adds state field i over the solutions; all: every solution is done.
func (d *threeOptDeviceILS) sum(i int) (v int64, all bool) {
	all = true
	for s := 0; s < d.o.P; s++ {
		v += d.state[s*threeState+i]
		all = all && d.state[s*threeState+threeDone] != 0
	}
	return v, all
}

// count sets the loop's counters: kicks, and the moves of the rounds.
func (d *threeOptDeviceILS) count() {
	k, _ := d.sum(threeKicks)
	r, _ := d.sum(threeRounds)
	d.l.Steps, d.l.Moves = k, r*d.o.movesPerRound()
}

// take offers solution sol's best tour and, with tour, its tour in hand.
func (d *threeOptDeviceILS) take(sol int, tour bool) error {
	if err := d.o.downloadSol(d.cur, d.o.bestTour, sol); err != nil {
		return err
	}
	d.l.Offer(d.cur)
	if !tour {
		return nil
	}
	if err := d.o.downloadSol(d.cur, d.o.tour, sol); err != nil {
		return err
	}
	d.l.Offer(d.cur)
	return nil
}

// step queues threeOptDeviceRounds rounds and reads the state, the best tour when needed.
func (d *threeOptDeviceILS) step() (done bool, err error) {
	o, l := d.o, d.l
	due := l.Due
	d.looked = false
	err = o.r.Do(func() error {
		for range threeOptDeviceRounds {
			if err := o.ilsRound(d.maxKicks); err != nil {
				return err
			}
		}
		if err := o.r.Stream.Synchronize(); err != nil {
			return fmt.Errorf("3-opt iterated local search failed: %w", err)
		}
		if err := device.DtoH(d.state, o.state); err != nil {
			return err
		}
		if !due && l.P.Target <= 0 {
			return nil
		}
		sol, bl, err := o.bestSolution()
		if err != nil {
			return err
		}
		// before its first local minimum a search has no best yet
		d.looked = bl != math.MaxInt64 && (due || bl <= l.P.Target)
		if d.looked {
			return d.take(sol, false)
		}
		return nil
	})
	d.count()
	_, all := d.sum(threeDone)
	return all, err
}

// view shows the tour the step took beside the best.
func (d *threeOptDeviceILS) view(s *solver.Snapshot) error {
	if d.looked {
		s.Tour, s.Length = slices.Clone(d.cur), solver.TourLength(d.l.In, d.cur)
	}
	return nil
}

// solveThreeOptILS is GPU 3opt-ils: Delévacq et al.'s ILS-RKBI_blocks on the device.
func solveThreeOptILS(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	r, err := device.NewRunIn(ctx)
	if err != nil {
		return solver.Result{}, err
	}
	defer r.Close()
	cfg, err := ThreeOptSpec.Parse(in, p)
	if err != nil {
		return solver.Result{}, err
	}
	matrix, err := device.LSDistMode(in, cfg.Dist)
	if err != nil {
		return solver.Result{}, err
	}
	p.Algorithm, p.Backend = AlgoThreeOptILS, solver.BackendGPU
	blocks, threads := cfg.Blocks, min(max(32, cfg.Threads/32*32), 1024)
	if blocks <= 0 {
		blocks = 4 * r.Dev.Info.Multiprocs
	}
	l := device.NewRunLoop(ctx, in, p, snaps, start, 0)
	l.Settings = solver.Settings{Blocks: blocks, Threads: threads}
	l.Plateau = true
	nb, cur, ok := device.StartTour(ctx, l.Deadline, in, p, threeOptNeighbors, l.Sink)
	if !ok {
		return device.FinishEarly(in, e, p, start, l.Sink, r.Dev.Label)
	}
	l.Sink.SendPhase(solver.PhaseSetup, solver.UnknownProgress)
	var o *threeOpt
	err = r.Do(func() (err error) {
		if o, err = newThreeOpt(r, in, nb, matrix, blocks, threads, threeOptSamples, cfg.K, p.Seed, 1); err != nil {
			return err
		}
		return o.upload(cur, solver.TourLength(in, cur))
	})
	if err != nil {
		return solver.Result{}, err
	}
	defer r.Do(o.free)
	if err = o.deviceILS(l, int64(cfg.Kicks)); err != nil {
		return solver.Result{}, err
	}
	return l.Finish(e, r.Dev.Label)
}

// ThreeOptPopulation runs pop.Solutions 3opt-ils searches from the greedy tour in the same launches (Delévacq et al.);
// solution 0 makes the engine's moves for pop.Seed. It returns the best tour, exactly measured.
func ThreeOptPopulation(ctx context.Context, in *solver.Instance, pop benchgpu.Population) (benchgpu.PopulationResult, error) {
	start := time.Now()
	if pop.Solutions < 1 || pop.Kicks < 1 || pop.Blocks < 1 || pop.Threads < 32 || in.N < 8 {
		return benchgpu.PopulationResult{}, fmt.Errorf("3opt-ils population: %d solutions of %d kicks, %d blocks of %d threads, %d cities", pop.Solutions, pop.Kicks, pop.Blocks, pop.Threads, in.N)
	}
	threads := min(pop.Threads/32*32, 1024)
	// the population's own blocks, threads and kicks; the engine's k
	p := solver.Params{Algorithm: AlgoThreeOptILS, Backend: solver.BackendGPU, Seed: pop.Seed}
	cfg, err := ThreeOptSpec.Parse(in, p)
	if err != nil {
		return benchgpu.PopulationResult{}, err
	}
	matrix, err := device.LSDistMode(in, "")
	if err != nil {
		return benchgpu.PopulationResult{}, err
	}
	r, err := device.NewRun()
	if err != nil {
		return benchgpu.PopulationResult{}, err
	}
	defer r.Close()
	nbl, cur, ok := device.StartTour(ctx, time.Time{}, in, p, threeOptNeighbors, nil)
	if !ok {
		return benchgpu.PopulationResult{}, fmt.Errorf("3opt-ils population: stopped during the set-up: %w", ctx.Err())
	}
	var o *threeOpt
	err = r.Do(func() (err error) {
		if o, err = newThreeOpt(r, in, nbl, matrix, pop.Blocks, threads, threeOptSamples, cfg.K, pop.Seed, pop.Solutions); err != nil {
			return err
		}
		return o.upload(cur, solver.TourLength(in, cur))
	})
	if err != nil {
		return benchgpu.PopulationResult{}, err
	}
	defer r.Do(o.free)
	l := device.NewRunLoop(ctx, in, p, nil, start, 0) // no snapshots, no deadline
	l.Plateau = true
	if err := o.deviceILS(l, int64(pop.Kicks)); err != nil {
		return benchgpu.PopulationResult{}, err
	}
	if ctx.Err() != nil {
		return benchgpu.PopulationResult{}, ctx.Err()
	}
	res, err := l.Finish(threeOptEngine, r.Dev.Label)
	if err != nil {
		return benchgpu.PopulationResult{}, err
	}
	return benchgpu.PopulationResult{Tour: res.Tour, Length: res.Length, Kicks: l.Steps, Elapsed: time.Since(start), Device: res.Device}, nil
}
