//go:build cuda

package device

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

	"github.com/tsplab/tsplab/solver"
)

// fatbin holds every kernel of the .cu files under gpu/, built by
// scripts/build-gpu.sh.
//
//go:embed kernels.fatbin
var fatbin string

// BuiltWithCUDA reports whether the CUDA kernels are compiled in.
func BuiltWithCUDA() bool { return true }

// kernelNames is the kernel registry the context loads; files add kernels with RegisterKernels.
var kernelNames []string

// RegisterKernels adds names to the kernels looked up in the fatbin.
func RegisterKernels(names ...string) { kernelNames = append(kernelNames, names...) }

// Device is one CUDA context with the kernels loaded and the device's limits; slot 0 is the primary context,
// a device named again (--opt gpus=0,0) opens further contexts.
type Device struct {
	Info    DeviceInfo
	Label   string // the model, after "GPU ordinal.slot" but for device 0's primary context
	model   string // name, compute capability and SMs
	Limits  limits
	Ordinal int
	Slot    int

	mu      sync.Mutex
	dev     cu.Device
	ctx     cu.CUContext
	Fns     map[string]cu.Function
	active  int   // runs open
	fault   error // a sticky error seen by a run: the context must be reset
	lost    error // the reset after a fault failed: the GPU is unusable
	retains int   // primary-context retains to release before a reset
}

// limits are the device limits the launch configurations read.
type limits struct {
	MaxThreads   int // threads per block
	SharedOptin  int // dynamic shared memory a kernel may opt in to, bytes
	SharedStatic int // shared memory per block without the opt-in, bytes
}

// devOpen is one context's opening, done once.
type devOpen struct {
	once sync.Once
	d    *Device
	err  error
}

var (
	devsMu sync.Mutex
	devs   = map[DevSlot]*devOpen{}
	// devOpened is set once device 0's primary context's open has ended
	devOpened atomic.Bool
	aheadOnce sync.Once
	aheadErr  error
)

// openAhead checks once that a device can run the kernels (sm_70 or newer) and opens its context in the background,
// so a run's CPU set-up does not wait for it (docs/DECISIONS.md#gpu-open-ahead).
func openAhead() error {
	aheadOnce.Do(func() {
		infos, err := Devices()
		if err == nil {
			if why := usability(infos[0]); why != nil {
				err = fmt.Errorf("%w: %v", ErrNoDevice, why)
			}
		}
		if aheadErr = err; err == nil {
			go GetDevice()
		}
	})
	return aheadErr
}

// GetDevice opens device 0's primary context on first use.
func GetDevice() (*Device, error) {
	d, err := deviceAt(DevSlot{})
	devOpened.Store(true)
	return d, err
}

// deviceAt opens context ds on first use.
func deviceAt(ds DevSlot) (*Device, error) {
	devsMu.Lock()
	o := devs[ds]
	if o == nil {
		o = &devOpen{}
		devs[ds] = o
	}
	devsMu.Unlock()
	o.once.Do(func() { o.d, o.err = openDevice(ds) })
	return o.d, o.err
}

func openDevice(ds DevSlot) (*Device, error) {
	if err := initError(); err != nil {
		return nil, err
	}
	d := &Device{Ordinal: ds.ordinal, Slot: ds.slot}
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

// GPUs lists every CUDA device with why the engines cannot use it, or why there is none.
func GPUs() ([]GPU, error) {
	infos, err := Devices()
	if err != nil {
		return nil, err
	}
	out := make([]GPU, len(infos))
	for i, info := range infos {
		out[i] = GPU{Index: i, Info: info, Unusable: usability(info)}
	}
	return out, nil
}

// selectDevices returns the contexts p's OptGPUs names (default: every usable GPU).
func selectDevices(p solver.Params) ([]DevSlot, error) {
	gpus, err := GPUs()
	if err != nil {
		return nil, err
	}
	why := make([]error, len(gpus))
	for i, g := range gpus {
		why[i] = g.Unusable
	}
	list, err := ParseGPUs(p.Text(OptGPUs), why)
	if err != nil {
		return nil, err
	}
	return slotsOf(list), nil
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
func (d *Device) describe() error {
	infos, err := Devices()
	if err != nil {
		return err
	}
	if d.Ordinal >= len(infos) {
		return fmt.Errorf("%w: device %d does not exist (the driver lists %d)", ErrNoDevice, d.Ordinal, len(infos))
	}
	d.Info = infos[d.Ordinal]
	d.Label = fmt.Sprintf("%s (sm_%d%d, %d SMs)", d.Info.Name, d.Info.Major, d.Info.Minor, d.Info.Multiprocs)
	d.model = d.Label
	if d.Ordinal > 0 || d.Slot > 0 {
		d.Label = fmt.Sprintf("GPU %d.%d %s", d.Ordinal, d.Slot, d.Label)
	}
	if d.dev, err = cu.GetDevice(d.Ordinal); err != nil {
		return fmt.Errorf("cuDeviceGet: %v", err)
	}
	if d.Limits.MaxThreads, err = d.dev.Attribute(cu.MaxThreadsPerBlock); err != nil {
		return err
	}
	if d.Limits.SharedStatic, err = d.dev.Attribute(cu.MaxSharedMemoryPerBlock); err != nil {
		return err
	}
	if d.Limits.SharedOptin, err = d.dev.Attribute(cu.DeviceAttribute(attrSharedOptin)); err != nil {
		return err
	}
	return nil
}

// load makes the context current here (slot 0: the primary) and loads the kernels.
func (d *Device) load() error {
	if d.Slot == 0 {
		ctx, err := d.dev.RetainPrimaryCtx()
		if err != nil {
			return fmt.Errorf("retaining the primary context of %s: %v", d.Info.Name, err)
		}
		if err := cu.SetCurrentContext(ctx); err != nil {
			return fmt.Errorf("making the context current: %v", err)
		}
		d.ctx = ctx
		d.retains++
	} else {
		ctx, err := d.dev.MakeContext(cu.SchedAuto)
		if err != nil {
			return fmt.Errorf("creating context %d on %s: %v", d.Slot, d.Info.Name, err)
		}
		if err := cu.SetCurrentContext(ctx); err != nil {
			return fmt.Errorf("making the context current: %v", err)
		}
		d.ctx = ctx
	}
	if len(fatbin) == 0 {
		return errors.New("the kernel fatbin is empty: rebuild with scripts/build-gpu.sh")
	}
	mod, err := cu.LoadData(fatbin)
	if err != nil {
		return fmt.Errorf("loading the kernels on %s (sm_%d%d): %v", d.Info.Name, d.Info.Major, d.Info.Minor, err)
	}
	d.Fns = map[string]cu.Function{}
	for _, name := range kernelNames {
		fn, err := mod.Function(name)
		if err != nil {
			return fmt.Errorf("kernel %s missing from the fatbin: %v", name, err)
		}
		d.Fns[name] = fn
	}
	return nil
}

// reset replaces a context a sticky error made unusable when the last run closes (d.mu held); else it stays lost.
func (d *Device) reset() error {
	if d.lost != nil {
		return d.lost
	}
	err := onLockedThread(func() error {
		cu.SetCurrentContext(cu.CUContext{})
		if d.Slot > 0 {
			if err := d.ctx.Destroy(); err != nil {
				return err
			}
			return d.load()
		}
		for ; d.retains > 0; d.retains-- {
			d.dev.ReleasePrimaryCtx()
		}
		if err := d.dev.ResetPrimaryCtx(); err != nil {
			return err
		}
		return d.load()
	})
	if err != nil {
		d.lost = fmt.Errorf("%w: %s after %v (%v); restart the program to use the GPU again", ErrContextLost, d.Info.Name, d.fault, err)
		return d.lost
	}
	d.fault = nil
	return nil
}

// Fn returns the kernel name of the current context.
func (d *Device) Fn(name string) (cu.Function, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	f, ok := d.Fns[name]
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

// args packs kernel arguments: Launch copies 8 bytes each, so every parameter is a pointer, a 64-bit integer or a double.
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

// Available reports whether a CUDA device can run the kernels: nil, or an error wrapping ErrNoDriver or ErrNoDevice
// (or, once the context is open, its opening error or loss).
func Available() error {
	if err := openAhead(); err != nil || !devOpened.Load() {
		return err
	}
	d, err := GetDevice()
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.lost
}
