// fault.cu: a kernel that faults on purpose, so the device tests can check
// that a run which meets a sticky CUDA error (here an illegal address) ends
// with an error and the next run gets a working context.
#include "common.cuh"

// test_fault stores through p; the tests pass an address no allocation
// holds.
extern "C" __global__ void test_fault(int *p) { *p = 1; }
