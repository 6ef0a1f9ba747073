package gpu

import (
	"github.com/tsplab/tsplab/gpu/ascent"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"

	// the engine families register themselves
	_ "github.com/tsplab/tsplab/gpu/ils"
	_ "github.com/tsplab/tsplab/lab/gpu/climb"
	_ "github.com/tsplab/tsplab/lab/gpu/pspm"
)

// AlgoAuto is GPU auto: the CPU auto engine with the GPU's aids.
const AlgoAuto = "auto"

func init() {
	solver.Register(device.NewKeeping(AlgoAuto, "CPU auto on every core with the GPU's parts by size: the Held–Karp ascent behind its alpha-nearness lists, from 200,000 cities or-ils's windows beside its partition search (from 50,000 if clustered), a greedy start built (and in short runs descended) on the GPU and or-ils's first tours", autoImpl))
	solver.Register(device.NewKeeping(AlgoPop, "experimental: CPU pop with the Held–Karp ascent on the GPU and the GPU's block search (an iterated 2-opt + Or-opt + 3-opt search a warp, a tour in shared memory, 10 to about 30,000 cities) on copies of the pool's members beside the workers, its gains offered to the pool", popImpl))
	device.Ascent = ascent.BoundDevice
}
