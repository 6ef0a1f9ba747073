// fils.cu: first-improvement iterated local search, a population of
// independent searches on the GPU, in the three mappings of Delévacq et
// al.'s Table 1.
//
// Reference: A. Delévacq, P. Delisle and M. Krajecki, "Parallelization
// Strategies for Local Search Algorithms on Graphics Processing Units":
// ILS with a first-improvement local search (don't-look bits, fixed-radius
// search of candidate lists), double-bridge kicks and acceptance when
// shorter, for nb_sol solutions at once, mapped as
//   FI_thread        one thread per solution (fils_thread_*)
//   FI_block global  one block per solution, its threads evaluating the
//                    candidates of a city together, tour in global memory
//                    (fils_block_global_*)
//   FI_block shared  the same with the tour, its inverse and the don't-look
//                    bits in shared memory (fils_block_shared_*).
// The local search here is 2-opt over the candidate lists (both tour
// neighbours of a city, fixed radius); the search is the same in every
// mapping and in the host's sequential twin (gpu/fils.go): the same moves
// in the same order, so with exact distances every mapping ends with the
// same tours.
//
// Layout. Solution s has tour t[p] (city at position p), pos[c] and the
// don't-look bits dlb[c]; best[s*n ..] is its best tour and lens[s] that
// tour's length (from the kernels' distances).
#include "localsearch.cuh"

// fi_next is xorshift64*: the kicks' random stream (every thread of a
// block draws the same numbers).
__device__ __forceinline__ unsigned long long fi_next(unsigned long long &x) {
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    return x * 0x2545F4914F6CDD1DULL;
}

// fi_seed is solution s's stream (splitmix64 of the seed and s).
__device__ __forceinline__ unsigned long long fi_seed(unsigned long long seed, long long s) {
    unsigned long long z = seed + (unsigned long long)(s + 1) * 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    z ^= z >> 31;
    return z ? z : 1;
}

template <int METRIC, bool BLOCK>
struct FiSearch {
    const float2 *xy;
    const int *mat;
    int n, K;
    const int *nbr;
    int *t, *pos;
    unsigned char *dlb;
    int tid, T;
    int *sh;  // block mode: 8 shared ints for the choices

    __device__ int d(int a, int b) const { return ls_dist<METRIC>(xy, mat, n, a, b); }
    __device__ void sync() const {
        if (BLOCK) __syncthreads();
    }
    __device__ int succ(int c) const { return t[pos[c] + 1 == n ? 0 : pos[c] + 1]; }
    __device__ int pred(int c) const { return t[pos[c] == 0 ? n - 1 : pos[c] - 1]; }

    // reverse reverses the cyclic run of positions i..j, or the rest of the
    // tour when that is shorter (the same cycle).
    __device__ void reverse(int i, int j) {
        int inner = (j - i + n) % n + 1;
        if (2 * inner > n) {
            int ni = j + 1 == n ? 0 : j + 1, nj = i == 0 ? n - 1 : i - 1;
            i = ni;
            j = nj;
            inner = n - inner;
        }
        for (int q = tid; q < inner / 2; q += T) {
            int a = (i + q) % n, b = (j - q + n) % n;
            int ca = t[a], cb = t[b];
            t[a] = cb;
            t[b] = ca;
            pos[cb] = a;
            pos[ca] = b;
        }
        sync();
    }

    // array_reverse reverses positions i..j (i <= j) without wrapping.
    __device__ void array_reverse(int i, int j) {
        for (int q = tid; q < (j - i + 1) / 2; q += T) {
            int c = t[i + q];
            t[i + q] = t[j - q];
            t[j - q] = c;
        }
        sync();
    }

    // try_dir looks for the first improving 2-opt move that joins a to one
    // of its candidates c closer than a's successor (succ) or predecessor
    // b, and makes it; it returns whether it did.
    __device__ bool try_dir(int a, bool fwd, long long &cur) {
        int b = fwd ? succ(a) : pred(a);
        int dab = d(a, b);
        if (!BLOCK) {
            for (int k = 0; k < K; k++) {
                int c = nbr[(size_t)a * K + k];
                int g = d(a, c);
                if (g >= dab) break;
                int dd = fwd ? succ(c) : pred(c);
                if (c == b || dd == a) continue;
                int delta = g + d(b, dd) - dab - d(c, dd);
                if (delta < 0) {
                    apply(a, b, c, dd, fwd);
                    cur += delta;
                    return true;
                }
            }
            return false;
        }
        if (tid == 0) {
            sh[0] = K;
            sh[1] = K;
        }
        sync();
        int c = -1, dd = -1, delta = 0;
        if (tid < K) {
            c = nbr[(size_t)a * K + tid];
            int g = d(a, c);
            if (g >= dab) {
                atomicMin(&sh[0], tid);
            } else {
                dd = fwd ? succ(c) : pred(c);
                if (c != b && dd != a) delta = g + d(b, dd) - dab - d(c, dd);
            }
        }
        sync();
        if (tid < K && tid < sh[0] && delta < 0) atomicMin(&sh[1], tid);
        sync();
        int k = sh[1];
        if (k >= K) return false;  // uniform
        if (tid == k) {
            sh[2] = c;
            sh[3] = dd;
            sh[4] = delta;
        }
        sync();
        c = sh[2];
        dd = sh[3];
        delta = sh[4];
        sync();
        apply(a, b, c, dd, fwd);
        cur += delta;
        return true;
    }

    // apply replaces (a,b) and (c,dd) with (a,c) and (b,dd), and clears
    // the four cities' don't-look bits.
    __device__ void apply(int a, int b, int c, int dd, bool fwd) {
        int i = fwd ? pos[b] : pos[c], j = fwd ? pos[c] : pos[b];
        sync();
        reverse(i, j);
        if (tid == 0) {
            dlb[a] = 0;
            dlb[b] = 0;
            dlb[c] = 0;
            dlb[dd] = 0;
        }
        sync();
    }

    // local_search sweeps the cities in index order until a sweep finds
    // every don't-look bit set.
    __device__ void local_search(long long &cur) {
        bool improved = true;
        while (improved) {
            improved = false;
            for (int c = 0; c < n; c++) {
                if (dlb[c]) continue;
                if (try_dir(c, true, cur) || try_dir(c, false, cur)) {
                    improved = true;
                } else {
                    sync();
                    if (tid == 0) dlb[c] = 1;
                    sync();
                }
            }
        }
    }

    // kick makes a double bridge (A B C D -> A C B D, cut points drawn from
    // rng) and returns its delta.
    __device__ long long kick(unsigned long long &rng) {
        int p1, p2, p3;
        do {
            p1 = 1 + (int)((fi_next(rng) >> 11) % (unsigned long long)(n - 1));
            p2 = 1 + (int)((fi_next(rng) >> 11) % (unsigned long long)(n - 1));
            p3 = 1 + (int)((fi_next(rng) >> 11) % (unsigned long long)(n - 1));
            int lo = min(p1, min(p2, p3)), hi = max(p1, max(p2, p3));
            p2 = p1 + p2 + p3 - lo - hi;
            p1 = lo;
            p3 = hi;
        } while (p1 == p2 || p2 == p3);
        int a1 = t[p1 - 1], b1 = t[p1], a2 = t[p2 - 1], b2 = t[p2], a3 = t[p3 - 1], b3 = t[p3];
        long long delta = (long long)d(a1, b2) + d(a3, b1) + d(a2, b3) - d(a1, b1) - d(a2, b2) - d(a3, b3);
        sync();
        array_reverse(p1, p2 - 1);
        array_reverse(p2, p3 - 1);
        array_reverse(p1, p3 - 1);
        for (int q = p1 + tid; q < p3; q += T) pos[t[q]] = q;
        if (tid == 0) {
            dlb[a1] = 0;
            dlb[b1] = 0;
            dlb[a2] = 0;
            dlb[b2] = 0;
            dlb[a3] = 0;
            dlb[b3] = 0;
        }
        sync();
        return delta;
    }
};

template <int METRIC, bool BLOCK, bool SHARED>
__device__ void fils(const float2 *xy, const int *mat, long long n_, const int *nbr, long long K_, long long nb,
                     long long itLim, unsigned long long seed, const int *start, int *tours, int *poss,
                     unsigned char *dlbs, int *bests, long long *lens) {
    extern __shared__ int fi_smem[];
    __shared__ int sh[8];
    __shared__ long long shLen;
    int n = (int)n_;
    long long s = BLOCK ? (long long)blockIdx.x : (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nb) return;  // uniform over a block in block mode
    FiSearch<METRIC, BLOCK> f;
    f.xy = xy;
    f.mat = mat;
    f.n = n;
    f.K = (int)K_;
    f.nbr = nbr;
    f.tid = BLOCK ? threadIdx.x : 0;
    f.T = BLOCK ? blockDim.x : 1;
    f.sh = sh;
    if (SHARED) {
        f.t = fi_smem;
        f.pos = fi_smem + n;
        f.dlb = (unsigned char *)(fi_smem + 2 * n);
    } else {
        f.t = tours + s * n;
        f.pos = poss + s * n;
        f.dlb = dlbs + s * n;
    }
    int *best = bests + s * n;
    for (int p = f.tid; p < n; p += f.T) {
        int c = start[p];
        f.t[p] = c;
        f.pos[c] = p;
        f.dlb[p] = 0;
    }
    f.sync();
    long long cur = 0;
    if (f.tid == 0) {
        for (int p = 0; p < n; p++) cur += f.d(f.t[p], f.t[p + 1 == n ? 0 : p + 1]);
        if (BLOCK) shLen = cur;
    }
    f.sync();
    if (BLOCK) cur = shLen;
    f.local_search(cur);
    for (int p = f.tid; p < n; p += f.T) best[p] = f.t[p];
    long long bestLen = cur;
    unsigned long long rng = fi_seed(seed, s);
    f.sync();
    for (long long it = 0; it < itLim; it++) {
        cur += f.kick(rng);
        f.local_search(cur);
        if (cur < bestLen) {
            for (int p = f.tid; p < n; p += f.T) best[p] = f.t[p];
            bestLen = cur;
        } else {
            for (int p = f.tid; p < n; p += f.T) {
                int c = best[p];
                f.t[p] = c;
                f.pos[c] = p;
            }
            cur = bestLen;
        }
        f.sync();
    }
    if (f.tid == 0) lens[s] = bestLen;
}

#define FILS_KERNEL(NAME, METRIC, BLOCK, SHARED)                                                                   \
    extern "C" __global__ void NAME(const float2 *xy, const int *mat, long long n, const int *nbr, long long K,        \
                                    long long nb, long long itLim, unsigned long long seed, const int *start,          \
                                    int *tours, int *poss, unsigned char *dlbs, int *bests, long long *lens) {         \
        fils<METRIC, BLOCK, SHARED>(xy, mat, n, nbr, K, nb, itLim, seed, start, tours, poss, dlbs, bests, lens);      \
    }
#define FILS_KERNELS(SUFFIX, METRIC)                                 \
    FILS_KERNEL(fils_thread_##SUFFIX, METRIC, false, false)          \
    FILS_KERNEL(fils_block_global_##SUFFIX, METRIC, true, false)     \
    FILS_KERNEL(fils_block_shared_##SUFFIX, METRIC, true, true)

FILS_KERNELS(mat, METRIC_MATRIX)
FILS_KERNELS(euc, METRIC_EUC_2D)
FILS_KERNELS(ceil, METRIC_CEIL_2D)
FILS_KERNELS(att, METRIC_ATT)
