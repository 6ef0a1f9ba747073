// threeopt.cu: sampled 3-opt reconnections for iterated local search,
// Delévacq et al.'s ILS-RKBI_blocks (A. Delévacq, P. Delisle and M.
// Krajecki, "Parallel GPU implementation of iterated local search for the
// travelling salesman problem", LION 6, LNCS 7219, 2012): every thread of
// the evaluation kernel samples 3-opt moves and keeps its best, each block
// reduces to its best, and the replacement kernel applies one of the k
// best block results at random (random-k-best improvement), then runs the
// iterated local search's step (threeopt_ils_apply).
//
// Layout. tour[p] is the city at position p, pos[c] the position of city
// c, nbr[c*K + r] the r-th nearest neighbour of c. A move (x, y, z, type),
// 0 <= x < y < z < n, removes the tour edges leaving positions x, y and z:
// with a = t[x], b = t[x+1], c = t[y], d = t[y+1], e = t[z], f = t[z+1],
// S1 = b..c and S2 = d..e, it reconnects the path A = f..a as one of the
// four pure 3-opt reconnections
//   type 0: A S2 S1    adds (a,d) (e,b) (c,f)
//   type 1: A S2 S1r   adds (a,d) (e,c) (b,f)
//   type 2: A S2r S1   adds (a,e) (d,b) (c,f)
//   type 3: A S1r S2r  adds (a,c) (b,e) (d,f)
// and the LSBest record is (delta, x, y, z*4 + type).
//
// Sampling: a uniform triple almost never improves a good tour, so three
// samples in four choose y and z so that new edges join neighbours in the
// candidate lists; all four reconnections of a triple are evaluated.
#include "localsearch.cuh"

// three_delta returns the delta of reconnection type of the triple.
template <int METRIC>
__device__ __forceinline__ int three_delta(const float2 *xy, const int *mat, int n, int a, int b, int c, int d, int e,
                                           int f, int type) {
#define D(u, v) ls_dist<METRIC>(xy, mat, n, (u), (v))
    int removed = D(a, b) + D(c, d) + D(e, f);
    switch (type) {
        case 0:
            return D(a, d) + D(e, b) + D(c, f) - removed;
        case 1:
            return D(a, d) + D(e, c) + D(b, f) - removed;
        case 2:
            return D(a, e) + D(d, b) + D(c, f) - removed;
        default:
            return D(a, c) + D(b, e) + D(d, f) - removed;
    }
#undef D
}

__device__ __forceinline__ void sort3(int &x, int &y, int &z) {
    int t;
    if (x > y) {
        t = x;
        x = y;
        y = t;
    }
    if (y > z) {
        t = y;
        y = z;
        z = t;
    }
    if (x > y) {
        t = x;
        x = y;
        y = t;
    }
}

// The search's counters, state[THREE_*]: evaluation rounds, moves
// applied, the last round that found an improving move, kicks made (the
// device-side iterated local search) and whether that search has ended
// (then every kernel of a queued round returns at once).
#define THREE_ROUNDS 0
#define THREE_MOVES 1
#define THREE_LAST 2
#define THREE_KICKS 3
#define THREE_DONE 4
#define THREE_STATE 5

// three_seed is solution sol's seed in a population run with seed seed
// (solution 0 has seed itself, so a single search is solution 0 of a
// population of one).
__device__ __forceinline__ unsigned long long three_seed(unsigned long long seed, int sol) {
    return seed ^ ((unsigned long long)sol * 0x9E3779B97F4A7C15ull);
}

// threeopt_eval: phase 1. Each thread draws `samples` triples from its
// counter-based stream and keeps its best improving reconnection; the
// block's best goes to out[blockIdx.x] (a = -1: none).
template <int METRIC>
__device__ void threeopt_eval(const float2 *xy, const int *mat, long long n_, const int *tour, const int *pos,
                              const int *nbr, long long K_, unsigned long long seed, long long iter, long long samples,
                              const long long *state, LSBest *out) {
    int n = (int)n_, K = (int)K_;
    // a population of searches: solution blockIdx.y, its own tour, counters
    // and stream (the first solution's are those of a single search)
    int sol = blockIdx.y;
    tour += (size_t)sol * n;
    pos += (size_t)sol * n;
    state += (size_t)sol * THREE_STATE;
    out += (size_t)sol * gridDim.x;
    seed = three_seed(seed, sol);
    if (state[THREE_DONE] != 0) return;  // this solution's search has ended (uniform over the block)
    uint32_t key = stream_key(seed, blockIdx.x * blockDim.x + threadIdx.x);
    uint32_t ctr = (uint32_t)iter * (uint32_t)(samples * 4);
    LSBest best = {0, -1, -1, -1};
    for (int s = 0; s < samples; s++) {
        uint32_t r0 = ctr_rand(key, ctr++), r1 = ctr_rand(key, ctr++), r2 = ctr_rand(key, ctr++),
                 r3 = ctr_rand(key, ctr++);
        int x = bounded(r0, n), y, z;
        if ((r3 & 3) == 0 || K == 0) {  // a uniform triple
            y = bounded(r1, n);
            z = bounded(r2, n);
        } else {
            int a = tour[x];
            int c1 = nbr[(size_t)a * K + bounded(r1, K)];
            y = pos[c1] - 1;  // then d = t[y+1] = c1: new edge (a, c1)
            if (y < 0) y = n - 1;
            int from = (r3 & 4) ? tour[x + 1 == n ? 0 : x + 1] : tour[y];
            int c2 = nbr[(size_t)from * K + bounded(r2, K)];
            z = pos[c2] - ((r3 & 8) ? 1 : 0);
            if (z < 0) z = n - 1;
        }
        sort3(x, y, z);
        if (x == y || y == z || z >= n) continue;
        int a = tour[x], b = tour[x + 1], c = tour[y], d = tour[y + 1], e = tour[z], f = tour[z + 1 == n ? 0 : z + 1];
#pragma unroll
        for (int type = 0; type < 4; type++) {
            int delta = three_delta<METRIC>(xy, mat, n, a, b, c, d, e, f, type);
            LSBest v = {delta, x, y, z * 4 + type};
            if (delta < 0 && ls_better(v, best)) best = v;
        }
    }
    best = ls_block_min(best);
    if (threadIdx.x == 0) out[blockIdx.x] = best;
}

// three_src returns the old position of the city that lands at offset o
// (0 <= o < z-x) of the rewritten range x+1..z for the reconnection type.
__device__ __forceinline__ int three_src(int x, int y, int z, int type, int o) {
    int l1 = y - x, l2 = z - y;
    switch (type) {
        case 0:
            return o < l2 ? y + 1 + o : x + 1 + (o - l2);
        case 1:
            return o < l2 ? y + 1 + o : y - (o - l2);
        case 2:
            return o < l2 ? z - o : x + 1 + (o - l2);
        default:
            return o < l1 ? y - o : z - (o - l1);
    }
}

// threeopt_apply_impl: phase 2. One block picks one of the k best
// improving block results at random (k block reductions, each for the
// best move strictly after the previous pick in ls_better's total order,
// so duplicates count once), rewrites positions x+1..z through scratch,
// updates pos, the counters and *len (the kernels' distances).
__device__ void threeopt_apply_impl(int *tour, int *pos, long long n_, const LSBest *blockBest, long long blocks,
                                    long long k, unsigned long long seed, long long iter, int *scratch,
                                    long long *state, long long *len) {
    __shared__ LSBest pick;
    __shared__ LSBest top[8];
    __shared__ int have;
    if (state[THREE_DONE] != 0) return;
    int kk = (int)min(max(k, 1LL), 8LL);
    if (threadIdx.x == 0) have = 0;
    LSBest last = {-0x7fffffff - 1, -1, -1, -1};  // before every move in the order
    for (int q = 0; q < kk; q++) {
        LSBest v = {0x7fffffff, -1, -1, -1};
        for (long long x = threadIdx.x; x < blocks; x += blockDim.x) {
            LSBest o = blockBest[x];
            if (o.a < 0 || o.delta >= 0) continue;
            if (q > 0 && !ls_better(last, o)) continue;
            if (ls_better(o, v)) v = o;
        }
        v = ls_block_min(v);  // ends with a barrier
        if (threadIdx.x == 0) {
            top[q] = v;
            if (v.a >= 0) have = q + 1;
        }
        __syncthreads();
        if (top[q].a < 0) break;
        last = top[q];
    }
    if (threadIdx.x == 0) {
        state[0]++;
        if (have == 0) {
            pick.a = -1;
        } else {
            pick = top[bounded(ctr_rand(stream_key(seed, 0x7ffffff0u), (uint32_t)iter), have)];
            state[1]++;
            state[2] = state[0];
            *len += pick.delta;
        }
    }
    __syncthreads();
    if (pick.a < 0) return;
    int x = pick.a, y = pick.b, z = pick.c >> 2, type = pick.c & 3, L = z - x;
    for (int o = threadIdx.x; o < L; o += blockDim.x) scratch[o] = tour[three_src(x, y, z, type, o)];
    __syncthreads();
    for (int o = threadIdx.x; o < L; o += blockDim.x) {
        int c = scratch[o];
        tour[x + 1 + o] = c;
        pos[c] = x + 1 + o;
    }
}

// threeopt_ils_apply: the replacement (threeopt_apply_impl), then, once
// patience rounds in a row found no improving sample, the iterated local
// search's step: accept the local minimum when no longer than the best
// (copy it to best) or go back to the best, end after maxKicks kicks, else
// kick with a double bridge A B C D -> A C B D on three random cuts inside
// a window of w positions (its end cities stay). *len and *bestLen are in
// the kernels' distances. One block per solution of a population.
template <int METRIC>
__device__ void threeopt_ils_apply(const float2 *xy, const int *mat, int *tour, int *pos, long long n_,
                                   const LSBest *blockBest, long long blocks, long long k, unsigned long long seed,
                                   long long iter, int *scratch, long long *state, long long *len, int *best,
                                   long long *bestLen, long long maxKicks, long long patience, long long window) {
    __shared__ int act, accept, finish, s0, c0, c1, c2, w;
    __shared__ int dOld, dNew;
    int n = (int)n_;
    // solution blockIdx.x of a population (see threeopt_eval)
    int sol = blockIdx.x;
    tour += (size_t)sol * n;
    pos += (size_t)sol * n;
    blockBest += (size_t)sol * blocks;
    scratch += (size_t)sol * n;
    state += (size_t)sol * THREE_STATE;
    len += sol;
    best += (size_t)sol * n;
    bestLen += sol;
    seed = three_seed(seed, sol);
    threeopt_apply_impl(tour, pos, n_, blockBest, blocks, k, seed, iter, scratch, state, len);
    __syncthreads();
    if (threadIdx.x == 0) act = state[THREE_DONE] == 0 && state[THREE_ROUNDS] - state[THREE_LAST] >= patience;
    __syncthreads();
    if (!act) return;
    if (threadIdx.x == 0) {
        accept = *len <= *bestLen;
        if (accept) {
            *bestLen = *len;
        } else {
            *len = *bestLen;
        }
        finish = state[THREE_KICKS] >= maxKicks;
    }
    __syncthreads();
    if (accept) {
        for (int p = threadIdx.x; p < n; p += blockDim.x) best[p] = tour[p];
    } else {
        for (int p = threadIdx.x; p < n; p += blockDim.x) {
            int c = best[p];
            tour[p] = c;
            pos[c] = p;
        }
    }
    if (finish) {
        if (threadIdx.x == 0) state[THREE_DONE] = 1;
        return;
    }
    if (threadIdx.x == 0) {
        uint32_t key = stream_key(seed, 0x7ffffff1u), ctr = (uint32_t)state[THREE_KICKS] * 4u;
        w = (int)min(max(window, 8LL), (long long)n);
        s0 = bounded(ctr_rand(key, ctr), n - w + 1);
        int x = 1 + bounded(ctr_rand(key, ctr + 1), w - 1), y = 1 + bounded(ctr_rand(key, ctr + 2), w - 1),
            z = 1 + bounded(ctr_rand(key, ctr + 3), w - 1);
        sort3(x, y, z);
        c0 = x;
        c1 = y;
        c2 = z;
        dOld = 0;
        dNew = 0;
    }
    __syncthreads();
    // the window's new order through scratch: A = [0, c0), C = [c1, c2),
    // B = [c0, c1), D = [c2, w)
    int lc = c2 - c1;
    for (int q = threadIdx.x; q < w; q += blockDim.x) {
        int src = q;
        if (q >= c0 && q < c0 + lc) {
            src = c1 + (q - c0);
        } else if (q >= c0 + lc && q < c2) {
            src = c0 + (q - c0 - lc);
        }
        scratch[q] = tour[s0 + src];
    }
    __syncthreads();
    int old = 0, nw = 0;
    for (int q = threadIdx.x; q + 1 < w; q += blockDim.x) {
        old += ls_dist<METRIC>(xy, mat, n, tour[s0 + q], tour[s0 + q + 1]);
        nw += ls_dist<METRIC>(xy, mat, n, scratch[q], scratch[q + 1]);
    }
    atomicAdd(&dOld, old);
    atomicAdd(&dNew, nw);
    __syncthreads();
    for (int q = threadIdx.x; q < w; q += blockDim.x) {
        int c = scratch[q];
        tour[s0 + q] = c;
        pos[c] = s0 + q;
    }
    if (threadIdx.x == 0) {
        *len += dNew - dOld;
        state[THREE_KICKS]++;
        state[THREE_LAST] = state[THREE_ROUNDS];
    }
}

// threeopt_deltas_*: the delta of each listed move (x, y, z*4+type) on one
// tour (tests only: checked against the CPU's exact deltas).
template <int METRIC>
__device__ void threeopt_deltas(const float2 *xy, const int *mat, long long n_, const int *tour, const int *moves,
                                long long m, int *delta) {
    int n = (int)n_;
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= m) return;
    int x = moves[3 * k], y = moves[3 * k + 1], zt = moves[3 * k + 2], z = zt >> 2;
    delta[k] = three_delta<METRIC>(xy, mat, n, tour[x], tour[x + 1], tour[y], tour[y + 1], tour[z],
                                   tour[z + 1 == n ? 0 : z + 1], zt & 3);
}

#define THREEOPT_KERNELS(SUFFIX, METRIC)                                                                              \
    extern "C" __global__ void threeopt_eval_##SUFFIX(                                                                \
        const float2 *xy, const int *mat, long long n, const int *tour, const int *pos, const int *nbr, long long K,  \
        unsigned long long seed, long long iter, long long samples, const long long *state, LSBest *out) {            \
        threeopt_eval<METRIC>(xy, mat, n, tour, pos, nbr, K, seed, iter, samples, state, out);                        \
    }                                                                                                                 \
    extern "C" __global__ void threeopt_ils_apply_##SUFFIX(                                                           \
        const float2 *xy, const int *mat, int *tour, int *pos, long long n, const LSBest *blockBest, long long blocks, \
        long long k, unsigned long long seed, long long iter, int *scratch, long long *state, long long *len,         \
        int *best, long long *bestLen, long long maxKicks, long long patience, long long window) {                    \
        threeopt_ils_apply<METRIC>(xy, mat, tour, pos, n, blockBest, blocks, k, seed, iter, scratch, state, len,      \
                                   best, bestLen, maxKicks, patience, window);                                        \
    }                                                                                                                 \
    extern "C" __global__ void threeopt_deltas_##SUFFIX(const float2 *xy, const int *mat, long long n,                \
                                                        const int *tour, const int *moves, long long m, int *delta) { \
        threeopt_deltas<METRIC>(xy, mat, n, tour, moves, m, delta);                                                   \
    }

THREEOPT_KERNELS(mat, METRIC_MATRIX)
THREEOPT_KERNELS(euc, METRIC_EUC_2D)
THREEOPT_KERNELS(ceil, METRIC_CEIL_2D)
THREEOPT_KERNELS(att, METRIC_ATT)
