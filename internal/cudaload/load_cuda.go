//go:build cuda && linux && amd64

package cudaload

/*
#cgo LDFLAGS: -ldl
#define _GNU_SOURCE
#include <dlfcn.h>
#include <link.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The table and the names live in zstubs_linux_amd64.S: entry i is where
// the stub of tsplab_cu_names[i] jumps.
extern void *tsplab_cu_table[];
extern const char *const tsplab_cu_names[];
extern const int tsplab_cu_count;

// What a call returns when the driver library is absent
// (CUDA_ERROR_NO_DEVICE) and when it lacks the symbol (CUDA_ERROR_NOT_FOUND).
int tsplab_cu_absent(void) { return 100; }
int tsplab_cu_missing(void) { return 500; }

static void *tsplab_cu_lib;
static char tsplab_cu_error[512];
static char tsplab_cu_path[1024];

// tsplab_cu_load opens the driver before the Go runtime starts, so that
// gorgonia.org/cu's package init already reaches it. Only a library opened
// successfully changes the table, which otherwise answers "no device".
__attribute__((constructor)) static void tsplab_cu_load(void) {
	const char *name = getenv("TSPLAB_LIBCUDA");
	if (name == NULL || name[0] == 0) name = "libcuda.so.1";
	if (strcmp(name, "none") == 0) {
		snprintf(tsplab_cu_error, sizeof tsplab_cu_error, "TSPLAB_LIBCUDA=none");
		return;
	}
	void *lib = dlopen(name, RTLD_NOW | RTLD_GLOBAL);
	if (lib == NULL) {
		const char *e = dlerror();
		snprintf(tsplab_cu_error, sizeof tsplab_cu_error, "%s", e ? e : name);
		return;
	}
	for (int i = 0; i < tsplab_cu_count; i++) {
		void *f = dlsym(lib, tsplab_cu_names[i]);
		tsplab_cu_table[i] = f ? f : (void *)tsplab_cu_missing;
	}
	struct link_map *lm = NULL;
	if (dlinfo(lib, RTLD_DI_LINKMAP, &lm) == 0 && lm != NULL && lm->l_name != NULL && lm->l_name[0] != 0)
		snprintf(tsplab_cu_path, sizeof tsplab_cu_path, "%s", lm->l_name);
	else
		snprintf(tsplab_cu_path, sizeof tsplab_cu_path, "%s", name);
	tsplab_cu_lib = lib;
}

// tsplab_cu_version asks the driver through the stub of
// cuDriverGetVersion: the path every call of the program takes.
extern int cuDriverGetVersion(int *version);
static int tsplab_cu_version(int *version) { *version = 0; return cuDriverGetVersion(version); }

static const char *tsplab_cu_load_error(void) { return tsplab_cu_error; }
static const char *tsplab_cu_library(void) { return tsplab_cu_lib ? tsplab_cu_path : ""; }

// tsplab_cu_start calls the driver's own cuInit (the program's cuInit is
// gpu's wrapper); it names cuInit's error in name.
static int tsplab_cu_start(const char **name) {
	typedef int (*initfn)(unsigned int);
	typedef int (*namefn)(int, const char **);
	*name = "";
	if (tsplab_cu_lib == NULL) return 100;
	initfn in = (initfn)dlsym(tsplab_cu_lib, "cuInit");
	if (in == NULL) return 500;
	int r = in(0);
	namefn nm = (namefn)dlsym(tsplab_cu_lib, "cuGetErrorName");
	if (r != 0 && nm != NULL) nm(r, name);
	if (*name == NULL) *name = "";
	return r;
}
*/
import "C"

import (
	"fmt"
	"os"
	"sync"
)

var (
	findOnce sync.Once
	found    Driver
)

// Find reports the driver opened at start-up and whether cuInit works; the first call does the work.
func Find() Driver {
	findOnce.Do(func() { found = find() })
	return found
}

func find() Driver {
	d := Driver{Built: true, Library: C.GoString(C.tsplab_cu_library())}
	if d.Library == "" {
		d.Err = fmt.Errorf("%s", C.GoString(C.tsplab_cu_load_error()))
		return d
	}
	if b, err := os.ReadFile("/proc/driver/nvidia/version"); err == nil {
		d.Kernel = kernelVersion(string(b))
	}
	var name *C.char
	if r := C.tsplab_cu_start(&name); r != 0 {
		d.Err = fmt.Errorf("cuInit: %s (%d)", C.GoString(name), int(r))
	}
	d.CUDAVersion, _ = driverVersion()
	return d
}

// driverVersion calls cuDriverGetVersion through its stub (result 100 without a driver).
func driverVersion() (version, result int) {
	var v C.int
	r := C.tsplab_cu_version(&v)
	return int(v), int(r)
}
