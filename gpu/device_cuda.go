//go:build cuda

package gpu

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"runtime"
	"sync"
	"unsafe"

	"gorgonia.org/cu"
)

// fatbin holds every kernel of gpu/kernels/*.cu (SASS for sm_70, sm_80,
// sm_90 and PTX), built by scripts/build-gpu.sh.
//
//go:embed kernels/kernels.fatbin
var fatbin string

// BuiltWithCUDA reports whether the CUDA kernels are compiled in.
func BuiltWithCUDA() bool { return true }

// kernelNames is the kernel registry: every function the module must
// provide, looked up once when the context starts. A file that adds
// kernels calls registerKernels from its init (see twoopt_cuda.go).
var kernelNames []string

func registerKernels(names ...string) { kernelNames = append(kernelNames, names...) }

// device is the one CUDA context of the process and the goroutine that
// owns it. A CUDA context is current on one OS thread, so every CUDA call
// runs inside do, on that locked thread, in submission order.
type device struct {
	work   chan func()
	info   DeviceInfo
	fns    map[string]cu.Function
	stream cu.Stream // kernels
	copy   cu.Stream // snapshot copies, overlapping the kernels
	label  string
}

var (
	devOnce sync.Once
	theDev  *device
	devErr  error
)

// getDevice starts the context goroutine on first use.
func getDevice() (*device, error) {
	devOnce.Do(func() { theDev, devErr = openDevice() })
	return theDev, devErr
}

func openDevice() (*device, error) {
	if err := initError(); err != nil {
		return nil, err
	}
	d := &device{work: make(chan func())}
	ready := make(chan error, 1)
	go d.loop(ready)
	if err := <-ready; err != nil {
		return nil, err
	}
	return d, nil
}

func (d *device) loop(ready chan<- error) {
	runtime.LockOSThread() // never unlocked: this thread owns the context
	if err := d.setup(); err != nil {
		ready <- err
		return
	}
	ready <- nil
	for f := range d.work {
		f()
	}
}

func (d *device) setup() error {
	n, err := cu.NumDevices()
	if err != nil {
		return fmt.Errorf("%w: %v", ErrNoDriver, err)
	}
	if n == 0 {
		return fmt.Errorf("%w: the CUDA driver found no GPU", ErrNoDevice)
	}
	infos, err := Devices()
	if err != nil {
		return err
	}
	d.info = infos[0]
	d.label = fmt.Sprintf("%s (sm_%d%d, %d SMs)", d.info.Name, d.info.Major, d.info.Minor, d.info.Multiprocs)
	dev, err := cu.GetDevice(0)
	if err != nil {
		return fmt.Errorf("cuDeviceGet: %v", err)
	}
	ctx, err := dev.RetainPrimaryCtx()
	if err != nil {
		return fmt.Errorf("retaining the primary context of %s: %v", d.info.Name, err)
	}
	if err := cu.SetCurrentContext(ctx); err != nil {
		return fmt.Errorf("making the context current: %v", err)
	}
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
	if d.stream, err = cu.MakeStream(cu.NonBlocking); err != nil {
		return fmt.Errorf("creating a stream: %v", err)
	}
	if d.copy, err = cu.MakeStream(cu.NonBlocking); err != nil {
		return fmt.Errorf("creating a stream: %v", err)
	}
	return nil
}

// do runs f on the context's thread and returns its error; a panic in f
// becomes an error instead of killing the context goroutine.
func (d *device) do(f func() error) error {
	done := make(chan error, 1)
	d.work <- func() {
		defer func() {
			if r := recover(); r != nil {
				done <- fmt.Errorf("gpu: panic on the context thread: %v", r)
			}
		}()
		done <- f()
	}
	return <-done
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

// args packs kernel arguments: cu.Function.Launch copies 8 bytes per
// argument, so every kernel parameter is a pointer, a long long, an
// unsigned long long or a double.
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

// launch starts kernel name on stream s (context thread only).
func (d *device) launch(name string, gx, gy, block, shared int, s cu.Stream, a ...any) error {
	fn, ok := d.fns[name]
	if !ok {
		return fmt.Errorf("gpu: kernel %s is not registered", name)
	}
	if err := fn.Launch(gx, gy, 1, block, 1, 1, shared, s, args(a...)); err != nil {
		return fmt.Errorf("launching %s (grid %dx%d, block %d, shared %d B): %v", name, gx, gy, block, shared, err)
	}
	return nil
}

// buffers tracks device allocations so a run frees all of them (context
// thread only).
type buffers struct{ ptrs []cu.DevicePtr }

func (b *buffers) alloc(bytes int64) (cu.DevicePtr, error) {
	if bytes <= 0 {
		bytes = 8
	}
	p, err := cu.MemAlloc(bytes)
	if err != nil {
		free, total, _ := cu.MemInfo()
		return 0, fmt.Errorf("allocating %d MiB on the GPU (%d of %d MiB free): %v", bytes>>20, free>>20, total>>20, err)
	}
	b.ptrs = append(b.ptrs, p)
	return p, nil
}

func (b *buffers) freeAll() {
	for _, p := range b.ptrs {
		cu.MemFree(p)
	}
	b.ptrs = nil
}

func htod[T any](dst cu.DevicePtr, src []T) error {
	if len(src) == 0 {
		return nil
	}
	return cu.MemcpyHtoD(dst, unsafe.Pointer(&src[0]), int64(len(src))*int64(unsafe.Sizeof(src[0])))
}

func dtoh[T any](dst []T, src cu.DevicePtr) error {
	if len(dst) == 0 {
		return nil
	}
	return cu.MemcpyDtoH(unsafe.Pointer(&dst[0]), src, int64(len(dst))*int64(unsafe.Sizeof(dst[0])))
}
