// common.cuh: helpers shared by every TSP Lab kernel (random numbers,
// TSPLIB distances, ordered keys). Included once by the generated unity
// file that scripts/build-gpu.sh compiles into kernels.fatbin, so it has an
// include guard and holds only inline device functions.
#ifndef TSPLAB_COMMON_CUH
#define TSPLAB_COMMON_CUH

#include <stdint.h>

// Metric codes shared with gpu/host.go (metricCode): the TSPLIB95
// distance functions the GPU implements for integer-cost kernels.
#define METRIC_EUC_2D 1
#define METRIC_CEIL_2D 2
#define METRIC_ATT 3

// mix32 is the murmur3 finaliser: a bijective 32-bit mixer.
__device__ __forceinline__ uint32_t mix32(uint32_t x) {
    x ^= x >> 16;
    x *= 0x85ebca6bu;
    x ^= x >> 13;
    x *= 0xc2b2ae35u;
    x ^= x >> 16;
    return x;
}

// ctr_rand is a counter-based generator: the value depends only on the
// stream key and the counter, so a thread needs no stored state, runs
// replay exactly for a seed, and any launch split gives the same numbers.
// (A Weyl sequence through a bijective mixer, in the spirit of Widynski's
// "squares" counter RNG, with 32-bit arithmetic, which is fast on GPUs.)
__device__ __forceinline__ uint32_t ctr_rand(uint32_t key, uint32_t ctr) {
    return mix32(ctr * 0x9E3779B9u + key);
}

// stream_key derives a per-stream key from the 64-bit seed and a stream id.
__device__ __forceinline__ uint32_t stream_key(unsigned long long seed, uint32_t id) {
    uint32_t lo = (uint32_t)seed, hi = (uint32_t)(seed >> 32);
    return mix32(mix32(lo ^ 0x243F6A88u) + mix32(hi + id * 0x85ebca6bu + 0x13198A2Eu));
}

// bounded maps a 32-bit random value onto 0..n-1 (Lemire's multiply-shift;
// the bias, below n/2^32, is irrelevant for annealing).
__device__ __forceinline__ int bounded(uint32_t r, int n) {
    return (int)__umulhi(r, (uint32_t)n);
}

// int_dist is the TSPLIB95 integer distance for coordinate metrics,
// computed in float with the fast square root. It equals the CPU's
// solver.Instance.Dist except, rarely, when the real distance lies within
// float rounding of the rounding boundary (measured: about 2 in 10^4 random
// pairs, off by one; TestIntDistMatchesCPU). The search tolerates that;
// every length an engine reports is recomputed exactly on the CPU.
template <int METRIC>
__device__ __forceinline__ int int_dist(float x1, float y1, float x2, float y2) {
    float dx = x1 - x2, dy = y1 - y2;
    float s = dx * dx + dy * dy;
    if (METRIC == METRIC_EUC_2D) {
        return (int)(sqrtf(s) + 0.5f);
    } else if (METRIC == METRIC_CEIL_2D) {
        // In double: a perfect square (common with integer coordinates)
        // must not round up to the next integer, so the sum of squares and
        // the root must both be exact.
        double ddx = (double)dx, ddy = (double)dy;
        return (int)ceil(sqrt(ddx * ddx + ddy * ddy));
    } else {  // ATT pseudo-Euclidean
        float r = sqrtf(s * 0.1f);
        int t = (int)(r + 0.5f);
        return ((float)t < r) ? t + 1 : t;
    }
}

// or_dist is the TSPLIB distance of two coordinate pairs, bit-exact with
// the CPU (Go's math.Sqrt on float64, no FMA).
template <int METRIC>
__device__ __forceinline__ int or_dist(double2 a, double2 b) {
    double dx = __dsub_rn(a.x, b.x), dy = __dsub_rn(a.y, b.y);
    double s = __dadd_rn(__dmul_rn(dx, dx), __dmul_rn(dy, dy));
    if (METRIC == METRIC_EUC_2D) {
        return (int)floor(__dadd_rn(sqrt(s), 0.5));
    } else if (METRIC == METRIC_CEIL_2D) {
        return (int)ceil(sqrt(s));
    } else {
        double r = sqrt(__ddiv_rn(s, 10.0));
        int t = (int)floor(__dadd_rn(r, 0.5));
        return ((double)t < r) ? t + 1 : t;
    }
}

// float_key maps a float to an unsigned int with the same order.
__device__ __forceinline__ uint32_t float_key(float f) {
    uint32_t u = __float_as_uint(f);
    return (u & 0x80000000u) ? ~u : (u | 0x80000000u);
}

#endif
