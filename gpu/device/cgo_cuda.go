//go:build cuda

package device

/*
#cgo LDFLAGS: -lcuda -ldl
#define _GNU_SOURCE
#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

// gorgonia.org/cu calls cuInit in its package init and exits the process
// when it fails (no device, a driver too old, the toolkit's stub library).
// This definition takes precedence over the driver's (the executable's
// symbols bind first): it reports success to cu and leaves the driver's
// cuInit to the first use of the GPU (tsplab_init_status, once, whose
// result Available() reports), so that a binary built with CUDA still
// runs, on the CPU, where no GPU is usable, a command that never uses the
// GPU does not wait for the driver to start every GPU of the host, and a
// command may set the driver's environment (CUDA_DEVICE_MAX_CONNECTIONS)
// before it starts.
static CUresult tsplab_init_result = CUDA_SUCCESS;
static unsigned int tsplab_init_flags = 0;
static pthread_once_t tsplab_init_once = PTHREAD_ONCE_INIT;

CUresult cuInit(unsigned int flags) {
	tsplab_init_flags = flags;
	return CUDA_SUCCESS;
}

static void tsplab_init_driver(void) {
	typedef CUresult (*initfn)(unsigned int);
	initfn real = (initfn)dlsym(RTLD_NEXT, "cuInit");
	if (real == NULL) {
		tsplab_init_result = CUDA_ERROR_NOT_INITIALIZED;
		return;
	}
	tsplab_init_result = real(tsplab_init_flags);
}

static int tsplab_init_status(void) {
	pthread_once(&tsplab_init_once, tsplab_init_driver);
	return (int)tsplab_init_result;
}

static int tsplab_host_alloc(void **p, size_t n) {
	return (int)cuMemHostAlloc(p, n, 0);
}

static int tsplab_func_max_dyn_smem(void *fn, int bytes) {
	return (int)cuFuncSetAttribute((CUfunction)fn, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, bytes);
}

static const char *tsplab_err_name(int r) {
	const char *s = NULL;
	cuGetErrorString((CUresult)r, &s);
	return s ? s : "unknown CUDA error";
}
*/
import "C"

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// initError returns why the driver could not be initialised, or nil.
func initError() error {
	r := int(C.tsplab_init_status())
	if r == 0 {
		return nil
	}
	switch r {
	case C.CUDA_ERROR_NO_DEVICE:
		return fmt.Errorf("%w: the CUDA driver found no GPU", ErrNoDevice)
	case C.CUDA_ERROR_STUB_LIBRARY:
		return fmt.Errorf("%w: libcuda is the toolkit's stub, not an NVIDIA driver", ErrNoDriver)
	case C.CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, C.CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE:
		return fmt.Errorf("%w: the NVIDIA driver does not match the CUDA library it was loaded with", ErrNoDriver)
	}
	return fmt.Errorf("%w: cuInit failed: %s (%d)", ErrNoDriver, C.GoString(C.tsplab_err_name(C.int(r))), r)
}

// attrSharedOptin is CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN, unnamed in gorgonia.org/cu v0.9.6.
const attrSharedOptin = C.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN

// Pinned is page-locked host memory, so device-to-host copies on the
// snapshot stream run asynchronously. gorgonia.org/cu v0.9.6 frees such
// memory (MemFreeHost) but has no call that allocates it, hence
// cuMemHostAlloc here.
type Pinned struct {
	P unsafe.Pointer // the memory
	n int
}

// AllocPinned allocates n bytes of pinned host memory.
func AllocPinned(n int) (Pinned, error) {
	var p unsafe.Pointer
	if r := C.tsplab_host_alloc(&p, C.size_t(n)); r != 0 {
		return Pinned{}, fmt.Errorf("cuMemHostAlloc(%d bytes): %s", n, C.GoString(C.tsplab_err_name(r)))
	}
	return Pinned{p, n}, nil
}

// Free frees the memory.
func (h *Pinned) Free() error {
	if h.P == nil {
		return nil
	}
	err := cu.MemFreeHost(h.P)
	h.P = nil
	return err
}

// Int32s is the memory's first k int32s.
func (h Pinned) Int32s(k int) []int32 { return unsafe.Slice((*int32)(h.P), k) }

// SetMaxDynamicShared raises a kernel's dynamic shared memory (above 48 KiB needs opt-in).
func SetMaxDynamicShared(fn cu.Function, bytes int) error {
	// cu.Function wraps a CUfunction; it exposes no setter for this attribute.
	h := *(*unsafe.Pointer)(unsafe.Pointer(&fn))
	if r := C.tsplab_func_max_dyn_smem(h, C.int(bytes)); r != 0 {
		return fmt.Errorf("cuFuncSetAttribute(max dynamic shared %d): %s", bytes, C.GoString(C.tsplab_err_name(r)))
	}
	return nil
}
