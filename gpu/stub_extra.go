//go:build !cuda

package gpu

import "github.com/tsplab/tsplab/solver"

func init() {
	for _, a := range extraAlgorithms {
		solver.Register(stubEngine{base{a.name, a.desc}})
	}
}
