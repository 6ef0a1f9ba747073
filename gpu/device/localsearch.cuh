// localsearch.cuh: what the swap (swap.cu) and 3-opt (threeopt.cu) kernels
// share: a distance source that is either the exact integer matrix or the
// coordinates, and a lexicographic (delta, a, b, c) block reduction.
// Included by both files of the unity build, so it has an include guard.
#ifndef TSPLAB_LOCALSEARCH_CUH
#define TSPLAB_LOCALSEARCH_CUH

#include "common.cuh"

// METRIC_MATRIX: distances read from an n x n int32 matrix computed on the
// CPU (exact TSPLIB distances; Luong et al. keep the TSP's matrix in
// device memory the same way). The other codes are common.cuh's.
#define METRIC_MATRIX 0

// ls_dist returns the integer distance between cities a and b.
template <int METRIC>
__device__ __forceinline__ int ls_dist(const float2 *__restrict__ xy, const int *__restrict__ mat, int n, int a,
                                       int b) {
    if (METRIC == METRIC_MATRIX) {
        return __ldg(&mat[(size_t)a * (size_t)n + (size_t)b]);
    } else {
        float2 p = __ldg(&xy[a]), q = __ldg(&xy[b]);
        return int_dist<METRIC>(p.x, p.y, q.x, q.y);
    }
}

// LSBest is one candidate move (layout shared with gpu/swap_cuda.go and
// gpu/threeopt_cuda.go): its delta and up to three integers naming it.
// a == -1 means "no move".
struct LSBest {
    int delta;
    int a, b, c;
};

// ls_better orders candidates by delta, then by (a, b, c), so every
// reduction order picks the same winner.
__device__ __forceinline__ bool ls_better(const LSBest &x, const LSBest &y) {
    if (x.delta != y.delta) return x.delta < y.delta;
    if (x.a != y.a) return (unsigned)x.a < (unsigned)y.a;  // -1 (no move) loses ties
    if (x.b != y.b) return x.b < y.b;
    return x.c < y.c;
}

__device__ __forceinline__ LSBest ls_shfl_down(LSBest v, int off) {
    LSBest o;
    o.delta = __shfl_down_sync(0xffffffffu, v.delta, off);
    o.a = __shfl_down_sync(0xffffffffu, v.a, off);
    o.b = __shfl_down_sync(0xffffffffu, v.b, off);
    o.c = __shfl_down_sync(0xffffffffu, v.c, off);
    return o;
}

// ls_block_min reduces v over the block (any blockDim.x that is a multiple
// of 32, up to 1024): warp shuffles, then one warp over the warps' results.
// Thread 0 returns the block's best; every thread must call it.
__device__ __forceinline__ LSBest ls_block_min(LSBest v) {
    __shared__ LSBest warpBest[32];
    int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    for (int off = 16; off > 0; off >>= 1) {
        LSBest o = ls_shfl_down(v, off);
        if (ls_better(o, v)) v = o;
    }
    if (lane == 0) warpBest[warp] = v;
    __syncthreads();
    int nw = (blockDim.x + 31) >> 5;
    if (warp == 0) {
        v = lane < nw ? warpBest[lane] : LSBest{0x7fffffff, -1, -1, -1};
        for (int off = 16; off > 0; off >>= 1) {
            LSBest o = ls_shfl_down(v, off);
            if (ls_better(o, v)) v = o;
        }
    }
    __syncthreads();  // warpBest may be reused by a later call
    return v;
}

#endif
