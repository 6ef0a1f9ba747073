//go:build cuda

package climb

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/construct"
)

func init() {
	device.RegisterKernels("swap_apply")
	for _, s := range []string{"mat", "euc", "ceil", "att"} {
		device.RegisterKernels("swap_eval_"+s, "swap_deltas_"+s)
	}
}

// swapMoves is the size of the pair-exchange neighbourhood of n cities.
func swapMoves(n int) int64 { return int64(n) * int64(n-1) / 2 }

// SwapLaunchCandidates are the block sizes swap-climb's thread control tries.
var SwapLaunchCandidates = []int{32, 64, 128, 256, 512, 1024}

// LaunchTrial is one wave: a block size and its median launch time, or the error.
type LaunchTrial struct {
	Block int
	Ms    float64
	Err   error
}

// swapBatch is B swap climbers of n cities on the device.
type swapBatch struct {
	r      *device.Run
	n, B   int
	m      int64
	dist   device.LSDist
	bufs   device.Buffers
	tours  cu.DevicePtr // B*n int32
	flags  cu.DevicePtr // B int32: 1 climbing, 0 at a local minimum
	passes cu.DevicePtr // B int64: evaluations of the whole neighbourhood
	best   cu.DevicePtr // B*maxBlocks lsBest
	block  int          // threads per block (thread control)
	maxGX  int
	tb     *swapTabuState // the tabu search's state (one climber), or nil
}

// newSwapBatch allocates a batch (context thread).
func newSwapBatch(r *device.Run, in *solver.Instance, B int, matrix bool) (*swapBatch, error) {
	n := in.N
	b := &swapBatch{r: r, n: n, B: B, m: swapMoves(n), block: 256}
	b.maxGX = int((b.m + int64(SwapLaunchCandidates[0]) - 1) / int64(SwapLaunchCandidates[0]))
	if b.maxGX > 1<<31-1 {
		return nil, fmt.Errorf("%w: %d cities is too many for one-thread-per-neighbour swap", device.ErrUnsupported, n)
	}
	var err error
	if b.dist, err = device.NewLSDist(&b.bufs, in, matrix); err == nil {
		err = b.bufs.AllocAll(device.Buf(&b.tours, int64(B)*int64(n)*4), device.Buf(&b.flags, int64(B)*4),
			device.Buf(&b.passes, int64(B)*8), device.Buf(&b.best, int64(B)*int64(b.maxGX)*16))
	}
	if err == nil {
		err = device.HtoD(b.passes, make([]int64, B))
	}
	if err != nil {
		b.bufs.FreeAll()
		return nil, err
	}
	return b, nil
}

func (b *swapBatch) free() error { return b.bufs.FreeAll() }

// gx is the blocks per climber for the block size (and moves per thread).
func (b *swapBatch) gx() int {
	per := int64(1)
	if b.tb != nil {
		per = int64(max(b.tb.per, 1))
	}
	mb := int64(b.block) * per
	return int((b.m + mb - 1) / mb)
}

// upload sets climber k's tour and marks it climbing (context thread).
func (b *swapBatch) upload(k int, t []int) error {
	if err := device.HtoD(b.tours+cu.DevicePtr(4*k*b.n), device.Convert[int32](t)); err != nil {
		return err
	}
	return device.HtoD(b.flags+cu.DevicePtr(4*k), []int32{1})
}

// eval queues one evaluation of every climber's whole neighbourhood.
func (b *swapBatch) eval() error {
	if b.tb != nil {
		return b.tabuEval()
	}
	return b.r.Launch("swap_eval_"+b.dist.Suffix, b.gx(), b.B, b.block, 0, b.r.Stream,
		b.dist.Xy, b.dist.Mat, b.n, b.tours, b.flags, b.best)
}

// apply queues the reduce-and-apply step.
func (b *swapBatch) apply() error {
	return b.r.Launch("swap_apply", b.B, 1, b.r.Block("swap_apply", 256), 0, b.r.Stream, b.tours, b.n, b.best, b.gx(), b.flags, b.passes)
}

// tune is the thread control: the fastest of a wave per block size in cands (median of 3 launches); it returns every wave.
func (b *swapBatch) tune(cands []int) ([]LaunchTrial, error) {
	var trials []LaunchTrial
	bestBlock, bestMs := 0, 0.0
	for _, c := range cands {
		if c < SwapLaunchCandidates[0] && c > 0 {
			trials = append(trials, LaunchTrial{Block: c, Err: fmt.Errorf("block %d is below the smallest size the buffers allow (%d)", c, SwapLaunchCandidates[0])})
			break
		}
		b.block = c
		if err := b.eval(); err != nil { // warm-up; a bad configuration fails here
			trials = append(trials, LaunchTrial{Block: c, Err: err})
			break
		}
		var ms []float64
		var err error
		for r := 0; r < 3; r++ {
			var t float64
			if t, err = b.r.Timed("swap evaluation", b.eval); err != nil {
				break
			}
			ms = append(ms, t)
		}
		if err != nil {
			trials = append(trials, LaunchTrial{Block: c, Err: err})
			break
		}
		med := median3(ms)
		trials = append(trials, LaunchTrial{Block: c, Ms: med})
		if bestBlock == 0 || med < bestMs {
			bestBlock, bestMs = c, med
		}
	}
	if bestBlock == 0 {
		return trials, errors.New("swap thread control: no launch configuration worked")
	}
	b.block = bestBlock
	return trials, nil
}

func median3(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// swapTuned caches the thread control's choice per shape for the process.
var swapTuned sync.Map

type swapTuneKey struct {
	n, B   int
	suffix string
}

// solveSwapClimb is the swap-climb engine: Luong et al.'s pair-exchange local search as random-restart climbing,
// a thread per neighbour.
func solveSwapClimb(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	cfg, err := SwapSpec.Parse(in, p)
	if err != nil {
		return solver.Result{}, err
	}
	matrix, err := device.LSDistMode(in, cfg.Dist)
	if err != nil {
		return solver.Result{}, err
	}
	if cfg.Tabu > 0 {
		return solveSwapTabu(ctx, e, in, p, snaps, matrix, cfg)
	}
	r, err := device.NewRunIn(ctx)
	if err != nil {
		return solver.Result{}, err
	}
	defer r.Close()
	p.Algorithm, p.Backend = AlgoSwapClimb, solver.BackendGPU
	l := device.NewRunLoop(ctx, in, p, snaps, start, 0)
	c := &swapClimb{climbers: climbers{l: l, r: r, name: AlgoSwapClimb}, rng: rand.New(rand.NewPCG(p.Seed, 0x5a9)), blocks: cfg.Blocks, threads: cfg.Threads}
	defer r.Do(func() error {
		if c.b != nil {
			return c.b.free()
		}
		return nil
	})
	if err := c.setUp(matrix); err != nil {
		return solver.Result{}, err
	}
	if err := l.Run(c.climb, nil); err != nil {
		return solver.Result{}, err
	}
	// the climbers' tours as the run left them (all of them are valid)
	if err := r.Do(func() error { return device.DtoH(c.city, c.b.tours) }); err != nil {
		return solver.Result{}, err
	}
	c.offerUnfinished(c.city, c.blocks, func(int) bool { return true })
	return l.Finish(e, r.Dev.Label)
}

// swapClimb is one swap-climb run and the host's copies of its state.
type swapClimb struct {
	climbers  // its loop's Params get the batch size and block size chosen
	b         *swapBatch
	rng       *rand.Rand
	usedStart bool
	rounds    int // (evaluate, apply) pairs per host round trip
	// blocks and threads are the climbers and block size, given or chosen by setUp.
	blocks, threads int

	flags  []int32
	passes []int64
	city   []int32
}

// setUp sizes the batch, uploads the starts and runs the thread control.
func (c *swapClimb) setUp(matrix bool) error {
	n := c.l.In.N
	m := swapMoves(n)
	free, err := device.RunFreeMemory(c.r)
	if err != nil {
		return err
	}
	perClimber := int64(n)*4 + 12 + (m+int64(SwapLaunchCandidates[0])-1)/int64(SwapLaunchCandidates[0])*16
	maxB := device.UsableMemory(free) / perClimber
	B := c.blocks
	if B <= 0 {
		B = int(max(1, min(int64(1<<19)/m, 4096, maxB)))
	} else if int64(B) > maxB {
		return fmt.Errorf("swap-climb: %d climbers of %d cities need %d MiB of GPU memory; %d MiB are free, enough for %d", B, n, int64(B)*perClimber>>20, free>>20, maxB)
	}
	c.blocks = B
	c.l.Settings.Blocks = B
	var trials []LaunchTrial
	err = c.r.Do(func() (err error) {
		if c.b, err = newSwapBatch(c.r, c.l.In, B, matrix); err != nil {
			return err
		}
		for k := 0; k < B; k++ {
			if err := c.restart(k); err != nil {
				return err
			}
		}
		key := swapTuneKey{n, B, c.b.dist.Suffix}
		if c.threads > 0 {
			// a block size given: no thread control
			c.b.block = min(max(SwapLaunchCandidates[0], c.threads/32*32), 1024)
		} else if blk, ok := swapTuned.Load(key); ok {
			c.b.block = blk.(int)
		} else {
			if trials, err = c.b.tune(SwapLaunchCandidates); err != nil {
				return err
			}
			swapTuned.Store(key, c.b.block)
		}
		// the tuning waves evaluated without applying: reset the counters
		return device.HtoD(c.b.passes, make([]int64, B))
	})
	if err != nil {
		return err
	}
	c.l.Settings.Threads, c.l.Settings.LaunchWaves = c.b.block, len(trials)
	// iterations per host round trip: 16, fewer on large neighbourhoods
	c.rounds = int(min(max(int64(1e9)/(int64(B)*m), 1), 16))
	c.flags, c.passes, c.city = make([]int32, B), make([]int64, B), make([]int32, B*n)
	return nil
}

// restart starts climber k from Params.Start (once) or a random tour.
func (c *swapClimb) restart(k int) error {
	if k == 0 && len(c.l.P.Start) == c.l.In.N && !c.usedStart {
		c.usedStart = true
		return c.b.upload(k, c.l.P.Start)
	}
	return c.b.upload(k, construct.Random(c.l.In.N, c.rng))
}

// climb queues rounds of (evaluate, apply), copies the climbers back and restarts the minima.
func (c *swapClimb) climb() (done bool, err error) {
	b := c.b
	err = c.r.Do(func() error {
		for k := 0; k < c.rounds; k++ {
			if err := b.eval(); err != nil {
				return err
			}
			if err := b.apply(); err != nil {
				return err
			}
		}
		if err := c.r.Sync("swap climb"); err != nil {
			return err
		}
		if err := device.DtoH(c.flags, b.flags); err != nil {
			return err
		}
		if err := device.DtoH(c.passes, b.passes); err != nil {
			return err
		}
		return device.DtoH(c.city, b.tours)
	})
	if err == nil {
		err = c.harvest(c.flags, c.city, c.restart)
	}
	passes := int64(0)
	for _, x := range c.passes {
		passes += x
	}
	c.l.Steps, c.l.Moves = c.climbs, passes*swapMoves(c.l.In.N)
	return false, err
}
