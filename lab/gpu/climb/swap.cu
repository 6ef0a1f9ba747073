// swap.cu: the pair-exchange (swap) neighbourhood generated on the GPU,
// one thread per neighbour, for best-improvement climbing and tabu search.
// Reference: T. V. Luong, N. Melab and E.-G. Talbi, "GPU computing for
// parallel local search metaheuristic algorithms", IEEE Transactions on
// Computers 62(1):173-185, 2013: each thread finds its move from its id
// alone by a one-to-two index mapping onto the upper triangle of the move
// matrix (swap_pair, our derivation); their thread control lives on the
// host (gpu/swap_cuda.go).
//
// Layout. tours[b*n + p] is the city at position p of climber b. The move
// k, 0 <= k < n(n-1)/2, swaps the cities at positions i < j.
#include "localsearch.cuh"

// swap_pair maps a move index k onto (i, j), 0 <= i < j < n, row by row:
// row i holds the n-1-i moves (i, i+1) .. (i, n-1) and starts at
// S(i) = i*(2n-1-i)/2; i is the smaller root of i^2 - (2n-1)i + 2k = 0
// rounded down, then fixed up exactly. Up to 16384 cities the root is
// taken in float (4 % faster on the whole kernel at n = 3000), above in
// double.
__device__ __forceinline__ void swap_pair(long long k, int n, int &i, int &j) {
    long long r;
    if (n <= 16384) {
        float b = 2.0f * n - 1.0f;
        r = (long long)((b - sqrtf(fmaxf(b * b - 8.0f * (float)k, 0.0f))) * 0.5f);
    } else {
        double b = 2.0 * n - 1.0;
        r = (long long)((b - sqrt(b * b - 8.0 * (double)k)) * 0.5);
    }
    if (r < 0) r = 0;
    if (r > n - 2) r = n - 2;
    while (r > 0 && r * (2LL * n - 1 - r) / 2 > k) r--;
    while (r < n - 2 && (r + 1) * (2LL * n - 2 - r) / 2 <= k) r++;
    i = (int)r;
    j = (int)(k - r * (2LL * n - 1 - r) / 2 + r + 1);
}

// swap_delta is the exact change of length when the cities at positions
// i < j of tour t swap (the three cases of the CPU's swapDelta).
template <int METRIC>
__device__ __forceinline__ int swap_delta(const float2 *xy, const int *mat, int n, const int *t, int i, int j) {
    int a = t[i], b = t[j];
    int ap = t[i == 0 ? n - 1 : i - 1], an = t[i + 1];
    int bp = t[j - 1], bn = t[j == n - 1 ? 0 : j + 1];
#define D(u, v) ls_dist<METRIC>(xy, mat, n, (u), (v))
    if (j == i + 1) {  // ... ap a b bn ...
        return D(ap, b) + D(a, bn) - D(ap, a) - D(b, bn);
    }
    if (i == 0 && j == n - 1) {  // ... bp b | a an ...
        return D(bp, a) + D(b, an) - D(bp, b) - D(a, an);
    }
    return D(ap, b) + D(b, an) + D(bp, a) + D(a, bn) - D(ap, a) - D(a, an) - D(bp, b) - D(b, bn);
#undef D
}

// swap_eval: phase 1. Thread k of climber blockIdx.y evaluates move k; each
// block's best goes to out[climber*gridDim.x + blockIdx.x]. Climbers whose
// flag is 0 wait at a local minimum for a restart and are skipped.
template <int METRIC>
__device__ void swap_eval(const float2 *xy, const int *mat, long long n_, const int *tours, const int *flags,
                          LSBest *out) {
    int n = (int)n_, b = blockIdx.y;
    if (flags[b] == 0) return;  // uniform over the block
    const int *t = tours + (size_t)b * n;
    long long m = (long long)n * (n - 1) / 2;
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    LSBest v = {0x7fffffff, -1, -1, -1};
    if (k < m) {
        int i, j;
        swap_pair(k, n, i, j);
        v.delta = swap_delta<METRIC>(xy, mat, n, t, i, j);
        v.a = i;
        v.b = j;
    }
    v = ls_block_min(v);
    if (threadIdx.x == 0) out[(size_t)b * gridDim.x + blockIdx.x] = v;
}

// swap_apply: phase 2. One block per climber applies the best of the
// blocks' moves when it improves, else marks the climber at a local
// minimum (flag 0); passes counts the evaluations.
extern "C" __global__ void swap_apply(int *tours, long long n_, const LSBest *blockBest, long long blocks, int *flags,
                                      long long *passes) {
    int n = (int)n_, b = blockIdx.x;
    if (flags[b] == 0) return;
    LSBest v = {0x7fffffff, -1, -1, -1};
    for (long long x = threadIdx.x; x < blocks; x += blockDim.x) {
        LSBest o = blockBest[(size_t)b * blocks + x];
        if (ls_better(o, v)) v = o;
    }
    v = ls_block_min(v);
    if (threadIdx.x == 0) {
        passes[b]++;
        if (v.a >= 0 && v.delta < 0) {
            int *t = tours + (size_t)b * n;
            int c = t[v.a];
            t[v.a] = t[v.b];
            t[v.b] = c;
        } else {
            flags[b] = 0;
        }
    }
}

// swap_deltas_*: every move's delta and pair for one tour (tests only: they
// check the mapping and the deltas against the CPU).
template <int METRIC>
__device__ void swap_deltas(const float2 *xy, const int *mat, long long n_, const int *t, int *delta, int *pi,
                            int *pj) {
    int n = (int)n_;
    long long m = (long long)n * (n - 1) / 2;
    long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= m) return;
    int i, j;
    swap_pair(k, n, i, j);
    pi[k] = i;
    pj[k] = j;
    delta[k] = swap_delta<METRIC>(xy, mat, n, t, i, j);
}

// Tabu search (Luong et al.'s protocol, the rules of solver/cpu/tabu.go):
// state[0] is the iteration, state[1] the current length, state[2] the
// best, state[3] stuck; tabu[k] is the first iteration at which move k may
// be made again, unless it gives a new best (aspiration). The evaluation
// reads a byte per move, flag[k] = (tabu[k] > it), a quarter of the
// traffic; the apply kernel keeps the flags exact with a ring of the last
// tenure moves.

// swap_move_index is the row-order index of the swap (i, j), i < j.
__device__ __forceinline__ long long swap_move_index(int n, int i, int j) {
    return (long long)i * (2LL * n - 1 - i) / 2 + (j - i - 1);
}

// swap_tabu_eval: every thread evaluates per consecutive moves in row
// order (per = 1: Luong et al.'s thread per neighbour), the block's best
// admissible move to out[blockIdx.x]. Along a row the distances shared
// with the move before are reused: four a move instead of eight.
template <int METRIC>
__device__ void swap_tabu_eval(const float2 *xy, const int *mat, long long n_, const int *t,
                               const unsigned char *flag, const long long *state, long long per, LSBest *out) {
    int n = (int)n_;
    long long m = (long long)n * (n - 1) / 2;
    long long k = ((long long)blockIdx.x * blockDim.x + threadIdx.x) * per;
    LSBest v = {0x7fffffff, -1, -1, -1};
    if (k < m) {
        long long kEnd = min(k + per, m);
        long long cur = state[1], bestLen = state[2];
#define D(u, w) ls_dist<METRIC>(xy, mat, n, (u), (w))
        int i, j;
        swap_pair(k, n, i, j);
        int a = 0, ap = 0, an = 0, dApA = 0, dAAn = 0;     // the row's city and its two edges
        int b = 0, bn = 0;                                  // t[j], t[j+1] (wrapping)
        int P = 0, N = 0, Am = 0, A0 = 0, Ap = 0, Em = 0, E = 0;
        bool fresh = true;
        for (;;) {
            if (fresh) {  // a new row, or the thread's first move
                a = t[i];
                ap = t[i == 0 ? n - 1 : i - 1];
                an = t[i + 1];
                dApA = D(ap, a);
                dAAn = D(a, an);
                int bp = t[j - 1];
                b = t[j];
                bn = t[j == n - 1 ? 0 : j + 1];
                P = D(ap, b);
                N = D(b, an);
                Am = D(bp, a);
                A0 = D(b, a);
                Ap = D(a, bn);
                Em = D(bp, b);
                E = D(b, bn);
                fresh = false;
            }
            int delta;
            if (j == i + 1) {  // ... ap a b bn ...
                delta = P + Ap - dApA - E;
            } else if (i == 0 && j == n - 1) {  // ... bp b | a an ...
                delta = Am + N - Em - dAAn;
            } else {
                delta = P + N + Am + Ap - dApA - dAAn - Em - E;
            }
            if (flag[k] == 0 || cur + delta < bestLen) {
                LSBest c = {delta, i, j, -1};
                if (ls_better(c, v)) v = c;
            }
            if (++k >= kEnd) break;
            if (++j == n) {
                i++;
                j = i + 1;
                fresh = true;
                continue;
            }
            // slide to j: the old b is the new bp, the old bn the new b
            b = bn;
            bn = t[j == n - 1 ? 0 : j + 1];
            Em = E;
            Am = A0;
            A0 = Ap;
            Ap = D(a, bn);
            P = D(ap, b);
            N = D(b, an);
            E = D(b, bn);
        }
#undef D
    }
    v = ls_block_min(v);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
}

// swap_tabu_apply: one block makes the best admissible move, improving or
// not, marks it tabu for tenure iterations and keeps the best tour; with
// no admissible move it sets state[3].
extern "C" __global__ void swap_tabu_apply(int *t, int *best, long long n_, const LSBest *blockBest, long long blocks,
                                           int *tabu, unsigned char *flag, int *ring, long long *state,
                                           long long tenure) {
    __shared__ int improved;
    int n = (int)n_;
    LSBest v = {0x7fffffff, -1, -1, -1};
    for (long long x = threadIdx.x; x < blocks; x += blockDim.x) {
        LSBest o = blockBest[x];
        if (ls_better(o, v)) v = o;
    }
    v = ls_block_min(v);
    if (threadIdx.x == 0) {
        improved = 0;
        if (v.a >= 0) {
            long long it = state[0];
            int c = t[v.a];
            t[v.a] = t[v.b];
            t[v.b] = c;
            // the move made tenure iterations ago becomes admissible at
            // it + 1 unless it was made again since (its tabu[] is later)
            int slot = (int)(it % tenure);
            int old = ring[slot];
            if (old >= 0 && (long long)tabu[old] <= it + 1) flag[old] = 0;
            int k = (int)swap_move_index(n, v.a, v.b);
            tabu[k] = (int)(it + 1 + tenure);
            flag[k] = 1;
            ring[slot] = k;
            state[1] += v.delta;
            state[0] = it + 1;
            if (state[1] < state[2]) {
                state[2] = state[1];
                improved = 1;
            }
        } else {
            state[3] = 1;
        }
    }
    __syncthreads();
    if (improved) {
        for (int p = threadIdx.x; p < n; p += blockDim.x) best[p] = t[p];
    }
}

#define SWAP_KERNELS(SUFFIX, METRIC)                                                                               \
    extern "C" __global__ void swap_eval_##SUFFIX(const float2 *xy, const int *mat, long long n, const int *tours, \
                                                  const int *flags, LSBest *out) {                                 \
        swap_eval<METRIC>(xy, mat, n, tours, flags, out);                                                          \
    }                                                                                                              \
    extern "C" __global__ void swap_deltas_##SUFFIX(const float2 *xy, const int *mat, long long n, const int *t,   \
                                                    int *delta, int *pi, int *pj) {                                \
        swap_deltas<METRIC>(xy, mat, n, t, delta, pi, pj);                                                         \
    }                                                                                                              \
    extern "C" __global__ void swap_tabu_eval_##SUFFIX(const float2 *xy, const int *mat, long long n, const int *t, \
                                                       const unsigned char *flag, const long long *state,            \
                                                       long long per, LSBest *out) {                                 \
        swap_tabu_eval<METRIC>(xy, mat, n, t, flag, state, per, out);                                              \
    }

SWAP_KERNELS(mat, METRIC_MATRIX)
SWAP_KERNELS(euc, METRIC_EUC_2D)
SWAP_KERNELS(ceil, METRIC_CEIL_2D)
SWAP_KERNELS(att, METRIC_ATT)
