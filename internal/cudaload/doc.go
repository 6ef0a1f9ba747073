// Package cudaload lets one Linux build with the CUDA kernels start on
// every machine: it links in place of the NVIDIA driver library, opens
// libcuda.so.1 when the program starts, and forwards each driver call to it.
//
// The CUDA variant is linked against link/libcuda.so, an empty linker
// script, so the executable does not name libcuda.so.1 and starts where no
// NVIDIA driver is installed. Every cu* function the program calls is an
// assembly stub here (zstubs_linux_amd64.S, written by gen.go from
// symbols.txt) that jumps through a table; a constructor fills the table
// from dlopen("libcuda.so.1") and dlsym before any Go code runs. Where the
// library is absent the table's functions return CUDA_ERROR_NO_DEVICE, so
// gorgonia.org/cu's start-up cuInit and the GPU engines see no device and
// the CPU engines run; a symbol an old driver lacks returns
// CUDA_ERROR_NOT_FOUND. The library is opened RTLD_GLOBAL so that gpu's own
// cuInit, which finds the driver's with dlsym(RTLD_NEXT), reaches it too.
//
// TSPLAB_LIBCUDA names another library to open (a path), or "none" to run
// as if no driver were installed.
//
// Without -tags cuda the package only reports that no kernels are built in.
package cudaload

//go:generate go run gen.go
