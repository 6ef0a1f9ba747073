package gpu

import (
	"github.com/tsplab/tsplab/gpu/ascent"
	"github.com/tsplab/tsplab/gpu/device"

	// the engine families register themselves
	_ "github.com/tsplab/tsplab/gpu/climb"
	_ "github.com/tsplab/tsplab/gpu/ils"
	_ "github.com/tsplab/tsplab/gpu/pspm"
)

// AlgoAuto is GPU auto: the CPU auto engine with the GPU's aids.
const AlgoAuto = "auto"

func init() {
	device.Register(AlgoAuto, "the CPU auto engine on every core, with the Held–Karp ascent behind its alpha-nearness lists (1,000 to 50,000 cities) on the GPU; from 50,000 cities or-ils's windows (windowed 2-opt + Or-opt + 3-opt iterated local search on the GPU) improve a stretch of the tour, a share adapting to their gains, beside that engine's partition search; from 200,000 cities it starts from the greedy-edge tour built on the GPU, in runs under 25 µs a city descended to a 2-opt + Or-opt local optimum there (2opt-or), and or-ils gives the first tours until that engine's search begins, the better tour kept", false, autoImpl)
	device.Register(AlgoPop, "experimental: the CPU pop engine (a pool of tours kept diverse by edge distance, recombined by partition crossover, each child descended with auto's moves on one core) with the Held–Karp ascent on the GPU, and the GPU's block search (an iterated 2-opt + Or-opt + 3-opt search a warp, a tour each in shared memory, 10 to about 30,000 cities) on copies of the pool's members beside the workers, its gains offered to the pool every few hundred milliseconds", false, popImpl)
	device.Ascent = ascent.BoundDevice
}
