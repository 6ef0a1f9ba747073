package climb

import (
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/lab"
	"github.com/tsplab/tsplab/solver"
)

// Algorithm names of the GPU climbers and 2opt-ils, shared with the CPU engines.
const (
	AlgoTwoOptClimb = "2opt-climb"
	AlgoTwoOptILS   = "2opt-ils"
	AlgoSwapClimb   = "swap-climb"
)

// The names of 2opt-climb's and swap-climb's options (climb_options.go).
const (
	OptRestarts   = "restarts"
	OptClimbStart = "start"
	OptTabu       = "tabu"
	OptTenure     = "tenure"
	OptPer        = "per"
)

func init() {
	lab.Register(device.NewEngine(AlgoTwoOptClimb, "random-restart 2-opt hill climbing on the GPU (O'Neil & Burtscher): a resident block per climber, its tour in shared memory, the disjoint improving moves of each pass applied together, restarts on the device from randomized nearest-neighbour tours (start=random: as the paper)", false, twoOptClimbImpl), device.WithGPUs{Declarer: ClimbSpec})
	lab.Register(device.NewEngine(AlgoTwoOptILS, "whole-neighbourhood 2-opt on the GPU inside iterated local search, many moves per pass, double-bridge kicks (Rocki & Suda)", false, twoOptILSImpl), device.WithGPUs{Declarer: solver.OptionSet{}})
	lab.Register(device.NewEngine(AlgoSwapClimb, "random-restart best-improvement pair-exchange climbing on the GPU (Luong et al.): one thread per neighbour, index mapping, launch sizes tuned in waves", true, swapClimbImpl), device.WithGPUs{Declarer: SwapSpec})
}
