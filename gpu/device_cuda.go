//go:build cuda

package gpu

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"sync/atomic"
	"unsafe"

	"gorgonia.org/cu"
)

// fatbin holds every kernel of gpu/kernels/*.cu, built by
// scripts/build-gpu.sh.
//
//go:embed kernels/kernels.fatbin
var fatbin string

// BuiltWithCUDA reports whether the CUDA kernels are compiled in.
func BuiltWithCUDA() bool { return true }

// kernelNames is the kernel registry, looked up when the context loads; a
// file that adds kernels calls registerKernels from its init.
var kernelNames []string

func registerKernels(names ...string) { kernelNames = append(kernelNames, names...) }

// device is the process's CUDA context (the device's primary context) with
// the kernels loaded and the device's limits; work on it runs in runs.
type device struct {
	info   DeviceInfo
	label  string
	limits limits

	mu      sync.Mutex
	dev     cu.Device
	ctx     cu.CUContext
	fns     map[string]cu.Function
	active  int   // runs open
	fault   error // a sticky error seen by a run: the context must be reset
	lost    error // the reset after a fault failed: the GPU is unusable
	retains int   // primary-context retains to release before a reset
}

// limits are the device limits the launch configurations read.
type limits struct {
	maxThreads   int // threads per block
	sharedOptin  int // dynamic shared memory a kernel may opt in to, bytes
	sharedStatic int // shared memory per block without the opt-in, bytes
}

var (
	devOnce sync.Once
	theDev  *device
	devErr  error
	// devOpened is set once getDevice's open has ended
	devOpened atomic.Bool
	aheadOnce sync.Once
	aheadErr  error
)

// openAhead checks once that the driver has a device the kernels can run
// on (sm_70 or newer: the fatbin's oldest SASS) and starts opening its
// context in the background, so that the set-up on the cores of a run
// (GPU auto's, which needs the GPU only for its ascent) does not wait for
// it (docs/DECISIONS.md#gpu-open-ahead).
func openAhead() error {
	aheadOnce.Do(func() {
		infos, err := Devices()
		if err == nil && infos[0].Major < 7 {
			err = fmt.Errorf("%w: %s is sm_%d%d; the kernels need sm_70 or newer", ErrNoDevice, infos[0].Name, infos[0].Major, infos[0].Minor)
		}
		if aheadErr = err; err == nil {
			go getDevice()
		}
	})
	return aheadErr
}

// getDevice opens the context on first use.
func getDevice() (*device, error) {
	devOnce.Do(func() { theDev, devErr = openDevice(); devOpened.Store(true) })
	return theDev, devErr
}

func openDevice() (*device, error) {
	if err := initError(); err != nil {
		return nil, err
	}
	d := &device{}
	err := onLockedThread(func() error {
		if err := d.describe(); err != nil {
			return err
		}
		return d.load()
	})
	if err != nil {
		return nil, err
	}
	return d, nil
}

// onLockedThread runs f on an OS thread of its own and returns its error.
func onLockedThread(f func() error) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		done <- f()
	}()
	return <-done
}

// describe fills the device's identity and limits.
func (d *device) describe() error {
	infos, err := Devices()
	if err != nil {
		return err
	}
	d.info = infos[0]
	d.label = fmt.Sprintf("%s (sm_%d%d, %d SMs)", d.info.Name, d.info.Major, d.info.Minor, d.info.Multiprocs)
	if d.dev, err = cu.GetDevice(0); err != nil {
		return fmt.Errorf("cuDeviceGet: %v", err)
	}
	if d.limits.maxThreads, err = d.dev.Attribute(cu.MaxThreadsPerBlock); err != nil {
		return err
	}
	if d.limits.sharedStatic, err = d.dev.Attribute(cu.MaxSharedMemoryPerBlock); err != nil {
		return err
	}
	if d.limits.sharedOptin, err = d.dev.Attribute(cu.DeviceAttribute(attrSharedOptin)); err != nil {
		return err
	}
	return nil
}

// load makes the primary context current here and loads the kernels.
func (d *device) load() error {
	ctx, err := d.dev.RetainPrimaryCtx()
	if err != nil {
		return fmt.Errorf("retaining the primary context of %s: %v", d.info.Name, err)
	}
	if err := cu.SetCurrentContext(ctx); err != nil {
		return fmt.Errorf("making the context current: %v", err)
	}
	d.ctx = ctx
	d.retains++
	if len(fatbin) == 0 {
		return errors.New("the kernel fatbin is empty: rebuild with scripts/build-gpu.sh")
	}
	mod, err := cu.LoadData(fatbin)
	if err != nil {
		return fmt.Errorf("loading the kernels on %s (sm_%d%d): %v", d.info.Name, d.info.Major, d.info.Minor, err)
	}
	d.fns = map[string]cu.Function{}
	for _, name := range kernelNames {
		fn, err := mod.Function(name)
		if err != nil {
			return fmt.Errorf("kernel %s missing from the fatbin: %v", name, err)
		}
		d.fns[name] = fn
	}
	return nil
}

// reset replaces a context a sticky error made unusable, when the last run
// closes (d.mu held). Where the driver does not allow it, the device stays
// lost (ErrContextLost) and the app and CLI still run on the CPU.
func (d *device) reset() error {
	if d.lost != nil {
		return d.lost
	}
	err := onLockedThread(func() error {
		cu.SetCurrentContext(cu.CUContext{})
		for ; d.retains > 0; d.retains-- {
			d.dev.ReleasePrimaryCtx()
		}
		if err := d.dev.ResetPrimaryCtx(); err != nil {
			return err
		}
		return d.load()
	})
	if err != nil {
		d.lost = fmt.Errorf("%w: %s after %v (%v); restart the program to use the GPU again", ErrContextLost, d.info.Name, d.fault, err)
		return d.lost
	}
	d.fault = nil
	return nil
}

// fn returns the kernel name of the current context.
func (d *device) fn(name string) (cu.Function, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, ok := d.fns[name]
	return f, ok
}

// Devices lists the CUDA devices, or says why there are none.
func Devices() ([]DeviceInfo, error) {
	if err := initError(); err != nil {
		return nil, err
	}
	n, err := cu.NumDevices()
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrNoDriver, err)
	}
	if n == 0 {
		return nil, fmt.Errorf("%w: the CUDA driver found no GPU", ErrNoDevice)
	}
	var out []DeviceInfo
	for i := 0; i < n; i++ {
		dev, err := cu.GetDevice(i)
		if err != nil {
			return nil, err
		}
		var di DeviceInfo
		if di.Name, err = dev.Name(); err != nil {
			return nil, err
		}
		if di.Major, di.Minor, err = dev.ComputeCapability(); err != nil {
			return nil, err
		}
		if di.Multiprocs, err = dev.Attribute(cu.MultiprocessorCount); err != nil {
			return nil, err
		}
		if di.GlobalMemory, err = dev.TotalMem(); err != nil {
			return nil, err
		}
		di.DriverVersion = cu.Version()
		out = append(out, di)
	}
	return out, nil
}

// args packs kernel arguments: Launch copies 8 bytes per argument, so every
// kernel parameter is a pointer, a long long, an unsigned long long or a
// double.
func args(vals ...any) []unsafe.Pointer {
	slots := make([]uint64, len(vals))
	ptrs := make([]unsafe.Pointer, len(vals))
	for i, v := range vals {
		switch x := v.(type) {
		case cu.DevicePtr:
			slots[i] = uint64(x)
		case int:
			slots[i] = uint64(int64(x))
		case int64:
			slots[i] = uint64(x)
		case uint64:
			slots[i] = x
		case float64:
			slots[i] = math.Float64bits(x)
		case bool:
			if x {
				slots[i] = 1
			}
		default:
			panic(fmt.Sprintf("gpu: kernel argument of type %T", v))
		}
		ptrs[i] = unsafe.Pointer(&slots[i])
	}
	return ptrs
}
