package gpu

import (
	"github.com/tsplab/tsplab/gpu/ils"
	"github.com/tsplab/tsplab/lab/gpu/climb"
	"github.com/tsplab/tsplab/lab/gpu/pspm"
)

// allAlgorithms are the GPU engines the packages under gpu register.
var allAlgorithms = []string{pspm.AlgoPSPM, pspm.AlgoSSPM, pspm.AlgoPSSM, climb.AlgoTwoOptClimb, climb.AlgoTwoOptILS, AlgoAuto, AlgoPop, ils.AlgoOrILS, ils.AlgoTourLS, ils.AlgoThreeOptILS, climb.AlgoSwapClimb}
