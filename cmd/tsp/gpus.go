package main

import (
	"cmp"
	"errors"
	"fmt"
	"strings"

	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver"
)

// gpusDoc is the help of --gpus, the gpus option as a flag of solve, batch and bench.
const gpusDoc = "GPUs of a GPU run: `all` (default: every usable GPU), a count N of 1 or more (the first N usable), " +
	"or device numbers such as 0 (device 0) or 0,2; count=N and device=LIST say which is meant (device=1: device 1 alone)"

// listGPUs lists the machine's GPUs (a test hands its own list).
var listGPUs = device.GPUs

// setGPUs is --gpus, refusing at once a value in none of device.ParseGPUs's forms.
func setGPUs(cmd string, p *solver.Params, s string) error {
	if err := device.CheckGPUs(s); err != nil {
		return gpusUsage(cmd, err)
	}
	return paramUsage(p.Set(device.OptGPUs + "=" + s))
}

// gpusUsage is a refused gpus value as a usage error naming --gpus.
func gpusUsage(cmd string, err error) error {
	var pe *solver.ParamError
	if !errors.As(err, &pe) {
		return usagef(cmd, "--gpus: %v", err)
	}
	q := *pe
	q.Flag = "--gpus"
	return usagef(cmd, "%s", q.Error())
}

// checkGPUs checks the GPUs p's gpus option names against this machine's when the run may go to a GPU and returns
// the devices selected; a missing or unusable device is a one-line usage error.
func checkGPUs(cmd string, p solver.Params) ([]int, error) {
	text, given := p.Extra[device.OptGPUs]
	if !given || p.Backend == solver.BackendCPU {
		return nil, nil
	}
	gpus, err := listGPUs()
	if err != nil {
		return nil, &usageError{cmd: cmd, machine: true, msg: fmt.Sprintf("--gpus %s: no GPU to run on: %s", strings.TrimSpace(text), oneLine(err.Error()))}
	}
	why := make([]error, len(gpus))
	for i, g := range gpus {
		why[i] = g.Unusable
	}
	sel, err := device.ParseGPUs(text, why)
	if err != nil {
		ue := gpusUsage(cmd, err).(*usageError)
		ue.machine = true
		return nil, ue
	}
	return sel, nil
}

// firstGPUOnly reports whether a GPU engine runs on device 0 alone (tests hand their own).
var firstGPUOnly = device.FirstGPUOnly

// onFirstGPU refuses a selection sel not starting with device 0 for a GPU engine that runs on device 0 alone.
func onFirstGPU(cmd string, p solver.Params, sel []int) error {
	if len(sel) == 0 || sel[0] == 0 {
		return nil
	}
	algo := cmp.Or(p.Algorithm, "auto")
	e, err := solver.Lookup(algo, solver.BackendGPU)
	if err != nil || !firstGPUOnly(e) {
		return nil
	}
	return &usageError{cmd: cmd, machine: true, msg: fmt.Sprintf("--gpus %s: %s runs on GPU 0 alone; name device 0 first (0 or 0,%d)", strings.TrimSpace(p.Extra[device.OptGPUs]), e.Name(), sel[0])}
}
