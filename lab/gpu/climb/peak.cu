// peak.cu: microbenchmarks of the two pipes the 2-opt kernels load, so that
// a kernel's rate can be given as a share of the chip's: fast square roots
// on the special-function units (MUFU.SQRT under -use_fast_math) and
// fused multiply-adds on the FMA pipe. Each thread runs PEAK_CHAINS
// independent chains, enough to hide the pipes' latency, and writes their
// sum so the compiler keeps every step.

#define PEAK_CHAINS 8

// peak_sqrt: iters rounds of PEAK_CHAINS roots per thread (x <- sqrt(x) +
// 1 stays near the golden ratio, so the values never degenerate). The
// add runs on the FMA pipe beside the root and costs no SFU time.
extern "C" __global__ void peak_sqrt(float *out, long long iters) {
    float x[PEAK_CHAINS];
#pragma unroll
    for (int c = 0; c < PEAK_CHAINS; c++) x[c] = 1.0f + 0.01f * (float)(threadIdx.x + c);
    for (long long it = 0; it < iters; it++) {
#pragma unroll
        for (int c = 0; c < PEAK_CHAINS; c++) x[c] = sqrtf(x[c]) + 1.0f;
    }
    float s = 0;
#pragma unroll
    for (int c = 0; c < PEAK_CHAINS; c++) s += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// peak_fma: iters rounds of 4*PEAK_CHAINS fused multiply-adds per thread
// (x <- x*a + b with |a| < 1 converges to b/(1-a), so nothing overflows).
extern "C" __global__ void peak_fma(float *out, long long iters, double a, double b) {
    float x[PEAK_CHAINS];
    const float fa = (float)a, fb = (float)b;
#pragma unroll
    for (int c = 0; c < PEAK_CHAINS; c++) x[c] = 0.01f * (float)(threadIdx.x + c);
    for (long long it = 0; it < iters; it++) {
#pragma unroll
        for (int k = 0; k < 4; k++) {
#pragma unroll
            for (int c = 0; c < PEAK_CHAINS; c++) x[c] = fmaf(x[c], fa, fb);
        }
    }
    float s = 0;
#pragma unroll
    for (int c = 0; c < PEAK_CHAINS; c++) s += x[c];
    out[blockIdx.x * blockDim.x + threadIdx.x] = s;
}
