package gpu

import (
	"time"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/solver"
	cpuils "github.com/tsplab/tsplab/solver/cpu/ils"
	"github.com/tsplab/tsplab/solver/strategy"
)

// autoLSGreedy starts GPU auto's 2opt-or descent from the GPU's greedy tour (docs/DECISIONS.md#gls-greedy-start).
const autoLSGreedy = true

// autoOwn are GPU auto's own options (autoSpec), parsed once.
type autoOwn struct {
	window, segment int
	beside          float64
}

// autoSpec declares GPU auto's own options, or-ils's window, wsegment and beside.
var autoSpec = solver.NewSpec(
	solver.Int(ils.OptWindow, func(c *autoOwn) *int { return &c.window }, 1024, 32, 2048,
		"GPU auto from 50,000 cities: most cities of one of or-ils's tour windows (a warp's iterated local search, endpoints fixed)").Experimental(),
	solver.Int(ils.OptWindowSegment, func(c *autoOwn) *int { return &c.segment }, 30, 1, 512,
		"GPU auto from 50,000 cities: most cities of a segment of the double-bridge kicks of or-ils's windows, before the CPU engine's first tour (from 200,000 cities) and beside its partition search").Experimental(),
	solver.Float(ils.OptBeside, func(c *autoOwn) *float64 { return &c.beside }, 0, 0, 64,
		"GPU auto from 50,000 cities: the workers' worth of the tour the GPU's windows improve at first beside the CPU engine's partition search, the share then following their gains (0: none)").
		Auto("0 below 200,000 cities unless clustered, else 4").Experimental(),
)

// autoConfig is a GPU auto run's config, read once: CPU auto's, and its windows' and early or-ils's settings.
type autoConfig struct {
	cpu     cpuils.Config
	windows ils.OrConfig
	// early is windows without global passes (docs/DECISIONS.md#gpu-early-no-global)
	early ils.OrConfig
	// beside is OptBeside (0: the partition search's own); noWindows: given as 0
	beside    float64
	noWindows bool
}

// ownOptions are the names of GPU auto's own options.
var ownOptions = autoSpec.Options(nil).Names()

// splitParams returns p with GPU auto's own options alone (own) and the rest for the CPU auto engine (cpu).
func splitParams(p solver.Params) (own, cpu solver.Params) {
	own, cpu = p.Split(ownOptions)
	cpu.Backend = solver.BackendCPU
	return own, cpu
}

// prepareAuto reads a GPU auto run's config from p on in once (a *solver.ParamError for a bad value).
func prepareAuto(in *solver.Instance, p solver.Params) (autoConfig, error) {
	var c autoConfig
	ownP, cpuP := splitParams(p)
	own, err := autoSpec.Parse(in, ownP)
	if err != nil {
		return c, err
	}
	if c.cpu, err = cpuils.Auto().Prepare(in, cpuP); err != nil {
		return c, err
	}
	if c.windows, err = ils.OrSpec.Parse(&solver.Instance{N: in.N}, solver.Params{}); err != nil {
		return c, err
	}
	c.windows.Window, c.windows.Segment = own.window, own.segment
	c.early = c.windows
	c.early.Global = 0
	c.beside = own.beside
	c.noWindows = p.Given(ils.OptBeside) && own.beside <= 0
	return c, nil
}

// planAuto is a GPU auto run of p on in read and decided once: config, strategy and CPU auto's Params.
func planAuto(in *solver.Instance, p solver.Params, limit time.Duration) (autoConfig, strategy.Strategy, solver.Params, error) {
	cfg, err := prepareAuto(in, p)
	if err != nil {
		return cfg, strategy.Strategy{}, p, err
	}
	_, cpu := splitParams(p)
	return cfg, decideAuto(in, p, limit, cfg), cpu, nil
}

// decideAuto is GPU auto's strategy for a run on in: CPU auto's facts with the time left and the GPU's devices.
func decideAuto(in *solver.Instance, p solver.Params, limit time.Duration, c autoConfig) strategy.Strategy {
	a := cpuils.Auto()
	f := a.Facts(c.cpu, in, limit)
	f.Engine, f.StartGiven = strategy.GPUAuto, p.Start != nil
	f.Options.NoWindows = c.noWindows
	// an instance the kernels cannot take is CPU auto's alone
	_, kerr := device.MetricCode(in)
	f.Devices = strategy.Devices{GPU: kerr == nil, OrSpan: kerr == nil && ils.OrSpanOK(in)}
	return a.Decide(f)
}

// cpuAlone is whether the strategy gave the GPU no windows and the population no GPU pool.
func cpuAlone(st strategy.Strategy, pooled bool) bool {
	return !st.GPU.Windows && !pooled
}
