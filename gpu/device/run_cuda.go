//go:build cuda

package device

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync"
	"unsafe"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
)

// Run is one engine run's share of the device: an OS thread with the context current (every call through do),
// a kernel stream and a snapshot stream, so two panes' kernels overlap.
type Run struct {
	Dev    *Device
	work   chan func()
	Stream cu.Stream // kernels
	copy   cu.Stream // snapshot copies, overlapping the kernels
	Bufs   Buffers
	closed bool
}

// ShareSeed is share i's seed, the first share's the run's, so one GPU gives the same run anywhere.
func ShareSeed(seed uint64, i int) uint64 { return seed + uint64(i)*0x9E3779B97F4A7C15 }

// At is the context r runs on.
func (r *Run) At() DevSlot { return DevSlot{r.Dev.Ordinal, r.Dev.Slot} }

// NewRunFor is newRun, refused when the kernels do not compute in's metric.
func NewRunFor(in *solver.Instance) (*Run, error) {
	r, err := NewRun()
	if err != nil {
		return nil, err
	}
	if _, err := MetricCode(in); err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}

// NewRun opens a run on device 0's primary context: newRunAt.
func NewRun() (*Run, error) { return newRunAt(DevSlot{}) }

// NewRunOf opens a run on the first context p's OptGPUs selects (device 0's primary when none).
func NewRunOf(p solver.Params) (*Run, error) {
	if !p.Given(OptGPUs) {
		return NewRun()
	}
	sel, err := selectDevices(p)
	if err != nil {
		return nil, err
	}
	return newRunAt(sel[0])
}

// newRunAt opens a run on context ds, resetting it first after a sticky fault once no run is open.
func newRunAt(ds DevSlot) (*Run, error) {
	var d *Device
	var err error
	if ds == (DevSlot{}) {
		d, err = GetDevice()
	} else {
		d, err = deviceAt(ds)
	}
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	if d.lost != nil {
		d.mu.Unlock()
		return nil, d.lost
	}
	if d.fault != nil {
		if d.active > 0 {
			d.mu.Unlock()
			return nil, fmt.Errorf("the GPU context is unusable after %v and is reset when the runs still using it end", d.fault)
		}
		if err := d.reset(); err != nil {
			d.mu.Unlock()
			return nil, err
		}
	}
	d.active++
	ctx := d.ctx
	d.mu.Unlock()
	r := &Run{Dev: d, work: make(chan func())}
	ready := make(chan error, 1)
	go r.loop(ctx, ready)
	if err := <-ready; err != nil {
		d.mu.Lock()
		d.active--
		d.mu.Unlock()
		return nil, err
	}
	return r, nil
}

// OpenRuns opens a run on every context of sel, each on its thread; failures are named in notes (none open: the first error).
func OpenRuns(sel []DevSlot) (runs []*Run, notes []string, err error) {
	if len(sel) == 0 {
		sel = []DevSlot{{}}
	}
	got := make([]*Run, len(sel))
	errs := make([]error, len(sel))
	var wg sync.WaitGroup
	for i, ds := range sel {
		wg.Add(1)
		go func() {
			defer wg.Done()
			got[i], errs[i] = newRunAt(ds)
		}()
	}
	wg.Wait()
	for i, r := range got {
		if r != nil {
			runs = append(runs, r)
			continue
		}
		notes = append(notes, fmt.Sprintf("GPU %d.%d left out: %v", sel[i].ordinal, sel[i].slot, errs[i]))
		if err == nil {
			err = errs[i]
		}
	}
	if len(runs) == 0 {
		return nil, nil, err
	}
	return runs, notes, nil
}

// DevicesLabel names the contexts of rs for Result.Device ("NVIDIA H100 (sm_90, 132 SMs) × 2, gpus 0,0").
func DevicesLabel(rs []*Run) string {
	if len(rs) == 1 {
		return rs[0].Dev.Label
	}
	var models []string
	count := map[string]int{}
	sel := make([]DevSlot, len(rs))
	for i, r := range rs {
		if count[r.Dev.model] == 0 {
			models = append(models, r.Dev.model)
		}
		count[r.Dev.model]++
		sel[i] = r.At()
	}
	parts := make([]string, len(models))
	for i, m := range models {
		parts[i] = fmt.Sprintf("%s × %d", m, count[m])
	}
	return strings.Join(parts, " + ") + ", gpus " + GpusText(sel)
}

// CloseRuns closes every run of rs.
func CloseRuns(rs []*Run) {
	for _, r := range rs {
		r.Close()
	}
}

// OnEach runs f(i) for every i < n side by side and returns the errors by index.
func OnEach(n int, f func(i int) error) []error {
	errs := make([]error, n)
	if n == 1 {
		errs[0] = f(0)
		return errs
	}
	var wg sync.WaitGroup
	for i := 0; i < n; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = f(i)
		}()
	}
	wg.Wait()
	return errs
}

func (r *Run) loop(ctx cu.CUContext, ready chan<- error) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	err := cu.SetCurrentContext(ctx)
	if err == nil {
		r.Stream, err = cu.MakeStream(cu.NonBlocking)
	}
	if err == nil {
		r.copy, err = cu.MakeStream(cu.NonBlocking)
	}
	if err != nil {
		r.destroyStreams()
		ready <- fmt.Errorf("starting a GPU run: %w", err)
		return
	}
	ready <- nil
	for f := range r.work {
		f()
	}
}

func (r *Run) destroyStreams() {
	for _, s := range []*cu.Stream{&r.Stream, &r.copy} {
		if *s != (cu.Stream{}) {
			s.Destroy()
		}
	}
}

// Do runs f on the run's thread (a panic becomes an error); a sticky error marks a reset.
func (r *Run) Do(f func() error) error {
	done := make(chan error, 1)
	r.work <- func() {
		defer func() {
			if p := recover(); p != nil {
				done <- fmt.Errorf("gpu: panic on the context thread: %v", p)
			}
		}()
		err := f()
		if err != nil {
			r.checkFault(err)
		}
		done <- err
	}
	return <-done
}

// checkFault marks the device for a reset when err or the context's state is sticky.
func (r *Run) checkFault(err error) {
	s := stickyFault(err)
	if s == nil {
		s = stickyFault(cu.Synchronize())
	}
	if s == nil {
		return
	}
	r.Dev.mu.Lock()
	if r.Dev.fault == nil {
		r.Dev.fault = s
	}
	r.Dev.mu.Unlock()
}

// Close frees the run and ends its thread, resetting after a sticky fault; safe twice.
func (r *Run) Close() {
	if r.closed {
		return
	}
	r.closed = true
	r.Do(func() error {
		err := r.Bufs.FreeAll()
		r.destroyStreams()
		return err
	})
	close(r.work)
	d := r.Dev
	d.mu.Lock()
	d.active--
	if d.fault != nil && d.active == 0 {
		d.reset() // an error here is reported by the next newRun
	}
	d.mu.Unlock()
}

// sticky lists the CUDA errors that leave the context unusable.
var sticky = []error{cu.IllegalAddress, cu.LaunchFailed, cu.MisalignedAddress, cu.HardwareStackError,
	cu.IllegalInstruction, cu.InvalidAddressSpace, cu.InvalidPc, cu.Assert, cu.LaunchTimeout, cu.EccUncorrectable}

// stickyFault returns the sticky CUDA error err wraps, or nil.
func stickyFault(err error) error {
	for _, s := range sticky {
		if errors.Is(err, s) {
			return s
		}
	}
	return nil
}

// Launch starts kernel name on stream s (the run's thread only).
func (r *Run) Launch(name string, gx, gy, block, shared int, s cu.Stream, a ...any) error {
	fn, ok := r.Dev.Fn(name)
	if !ok {
		return fmt.Errorf("gpu: kernel %s is not registered or not in the fatbin (rebuild it: scripts/build-gpu.sh fatbin)", name)
	}
	if err := fn.Launch(gx, gy, 1, block, 1, 1, shared, s, args(a...)); err != nil {
		return fmt.Errorf("launching %s (grid %dx%d, block %d, shared %d B): %w", name, gx, gy, block, shared, err)
	}
	return nil
}

// Block is want (a multiple of 32), or less where the kernel's registers allow fewer threads.
func (r *Run) Block(name string, want int) int {
	fn, ok := r.Dev.Fn(name)
	if !ok {
		return want
	}
	most, err := fn.Attribute(cu.FnMaxThreadsPerBlock)
	if err != nil || most >= want {
		return want
	}
	return max(32, most/32*32)
}

// Sync waits for the run's kernel stream; what names the work in errors.
func (r *Run) Sync(what string) error {
	if err := r.Stream.Synchronize(); err != nil {
		return fmt.Errorf("%s on %s failed: %w", what, r.Dev.Label, err)
	}
	return nil
}

// Buffers tracks a run's device allocations (the run's thread only).
type Buffers struct{ ptrs []cu.DevicePtr }

// Alloc allocates bytes of device memory, freed by FreeAll.
func (b *Buffers) Alloc(bytes int64) (cu.DevicePtr, error) {
	if bytes <= 0 {
		bytes = 8
	}
	p, err := cu.MemAlloc(bytes)
	if err != nil {
		free, total, _ := cu.MemInfo()
		return 0, fmt.Errorf("allocating %d MiB on the GPU (%d of %d MiB free): %w", bytes>>20, free>>20, total>>20, err)
	}
	b.ptrs = append(b.ptrs, p)
	return p, nil
}

// DevBuf is one allocation of allocAll: bytes for *p.
type DevBuf struct {
	p     *cu.DevicePtr
	bytes int64
}

// Buf is the allocation of bytes into *p.
func Buf(p *cu.DevicePtr, bytes int64) DevBuf { return DevBuf{p, bytes} }

// AllocAll makes the allocations in order; on a failure it frees all of b.
func (b *Buffers) AllocAll(bufs ...DevBuf) error {
	for _, x := range bufs {
		var err error
		if *x.p, err = b.Alloc(x.bytes); err != nil {
			b.FreeAll()
			return err
		}
	}
	return nil
}

// InOrder runs fs until one fails and returns its error.
func InOrder(fs ...func() error) error {
	for _, f := range fs {
		if err := f(); err != nil {
			return err
		}
	}
	return nil
}

// FreeAll frees every allocation and returns the first error.
func (b *Buffers) FreeAll() error {
	var first error
	for _, p := range b.ptrs {
		if err := cu.MemFree(p); err != nil && first == nil {
			first = fmt.Errorf("freeing GPU memory: %w", err)
		}
	}
	b.ptrs = nil
	return first
}

// HtoD copies src to the device memory at dst.
func HtoD[T any](dst cu.DevicePtr, src []T) error {
	if len(src) == 0 {
		return nil
	}
	return cu.MemcpyHtoD(dst, unsafe.Pointer(&src[0]), int64(len(src))*int64(unsafe.Sizeof(src[0])))
}

// DtoH copies the device memory at src to dst.
func DtoH[T any](dst []T, src cu.DevicePtr) error {
	if len(dst) == 0 {
		return nil
	}
	return cu.MemcpyDtoH(unsafe.Pointer(&dst[0]), src, int64(len(dst))*int64(unsafe.Sizeof(dst[0])))
}

// RunFreeMemory is the device memory free now, in bytes.
func RunFreeMemory(r *Run) (free int64, err error) {
	err = r.Do(func() (err error) { free, _, err = cu.MemInfo(); return err })
	return free, err
}

// Timed returns the device's milliseconds on launch, timed by kernel stream events.
func (r *Run) Timed(what string, launch func() error) (float64, error) {
	start, err := cu.MakeEvent(cu.DefaultEvent)
	if err != nil {
		return 0, err
	}
	defer cu.DestroyEvent(&start)
	stop, err := cu.MakeEvent(cu.DefaultEvent)
	if err != nil {
		return 0, err
	}
	defer cu.DestroyEvent(&stop)
	if err := start.Record(r.Stream); err != nil {
		return 0, err
	}
	if err := launch(); err != nil {
		return 0, err
	}
	if err := stop.Record(r.Stream); err != nil {
		return 0, err
	}
	if err := stop.Synchronize(); err != nil {
		return 0, fmt.Errorf("%s failed: %w", what, err)
	}
	ms, err := start.Elapsed(stop)
	return float64(ms), err
}
