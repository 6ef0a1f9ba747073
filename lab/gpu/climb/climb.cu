// climb.cu: the fused random-restart 2-opt climber (2opt-climb). One block
// is one resident climber slot: it builds a start tour, keeps its
// coordinates, edge lengths and city ids in shared memory, evaluates every
// 2-opt move, applies improving moves in place until none improves, keeps
// the local minimum when it is the slot's best and starts the next climb
// itself; a climb cut by the launch's time slice resumes in the next one.
//
// References: M. A. O'Neil and M. Burtscher, "Rethinking the
// parallelization of random-restart hill climbing: a case study in
// optimizing a 2-opt TSP solver for GPU execution", GPGPU-8, 2015 (a
// climber per block, tour in shared memory); K. Rocki and R. Suda,
// "Accelerating 2-opt and 3-opt local search using GPU in the travelling
// salesman problem", 2012 (coordinates in tour order, several independent
// moves per pass).
//
// Evaluation: a warp owns 32*R rows per unit, R per thread in registers,
// and walks CLIMB_CW columns read as shared-memory broadcasts; as in
// twoopt.cu one distance serves two moves, (R+1)/R square roots a move.
// Each thread's best improving move is a candidate, applied when no better
// candidate touches its segment: such moves commute and their deltas add
// up. A segment longer than n/2 reverses its complement instead.
//
// Start tours: uniformly random (as the paper's climbers) or randomized
// nearest-neighbour (the second-nearest city at about 3 % of the steps),
// which starts far closer to a 2-opt minimum and ends in a better one.
//
// Exactness: moves are ranked in float; every reported tour is validated
// and measured exactly on the CPU (solver.Finish).

#include "common.cuh"

// A climber block has T threads (T = 256 or 128, a template parameter).
#define CLIMB_CW 32  // columns per unit
#define FINF_CLIMB __int_as_float(0x7f800000)
// CLIMB_FAR is a coordinate far from every city (the shifted coordinates
// stay far below it), whose squared distances still fit a float.
#define CLIMB_FAR 1e15f

// Counters (ctr[]) shared with climb_cuda.go.
#define CTR_ISSUED 0   // climb numbers handed out (random-tour streams)
#define CTR_CLIMBS 1   // climbs that reached a local minimum
#define CTR_SWEEPS 2   // full neighbourhood evaluations
#define CTR_APPLIED 3  // moves applied
#define CTR_LENSUM 4   // sum of the completed climbs' lengths

#define CLIMB_START_RANDOM 0
#define CLIMB_START_NN 1
// CLIMB_NN_DEVIATE is the chance, out of 2^32, that a step of a
// nearest-neighbour start takes the second-nearest unvisited city (3 %).
#define CLIMB_NN_DEVIATE 0x07AE147Bu

__device__ __forceinline__ float cdist(float2 a, float2 b) {
    float dx = a.x - b.x, dy = a.y - b.y;
    return sqrtf(dx * dx + dy * dy);
}

__device__ __forceinline__ unsigned long long globaltimer_ns() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

__device__ __forceinline__ int metric_dist(int metric, float2 a, float2 b) {
    if (metric == METRIC_CEIL_2D) return int_dist<METRIC_CEIL_2D>(a.x, a.y, b.x, b.y);
    if (metric == METRIC_ATT) return int_dist<METRIC_ATT>(a.x, a.y, b.x, b.y);
    return int_dist<METRIC_EUC_2D>(a.x, a.y, b.x, b.y);
}

// climbColumn takes the unit one column on: the R moves (i0+r, j) of
// column j, whose far point is cp = P[j+1] and edge ce = e(j). Q[r] holds
// D(i0+r, j) - e(i0+r) on entry and D(i0+r, j+1) - e(i0+r) on return;
// the R+1 roots of cp serve both, so a move costs (R+1)/R roots: D(i+1,
// j+1) of move (i, j) is D(i, j) of move (i+1, j+1), the reuse along the
// diagonal that several rows a thread allow (O'Neil and Burtscher's tuned
// code, Section 6.1, gives a thread several cities). e(j) is the same for
// every row, so it comes off the column's minimum once. Returns the
// column's best delta (+inf when MASK leaves no move).
template <int R, bool MASK>
__device__ __forceinline__ float climbColumn(const float2 (&rp)[R + 1], const float (&a)[R], const int (&lo)[R],
                                             const int (&hi)[R], float (&Q)[R], float2 cp, float ce, int j) {
    float D[R + 1];
#pragma unroll
    for (int r = 0; r <= R; r++) D[r] = cdist(rp[r], cp);
    float m = FINF_CLIMB;
#pragma unroll
    for (int r = 0; r < R; r++) {
        float d = Q[r] + D[r + 1];
        if (MASK) d = (j >= lo[r] && j <= hi[r]) ? d : FINF_CLIMB;
        m = fminf(m, d);
    }
#pragma unroll
    for (int r = 0; r < R; r++) Q[r] = D[r] + a[r];
    return m - ce;
}

// climbUnit evaluates moves (i, j) for the thread's rows i0..i0+R-1 and
// columns j = c0..c1-1 (c1 <= n; P[n] = P[0], P[n+1] far from every city)
// and folds the best into (best, bi, bj). Columns go in pairs, and only a
// pair's better value is compared with the unit's best (the row and
// column are recovered after the loop); an odd last column pairs with j =
// c1, a no move that P[n+1] or the mask keeps out. MASK: some (row,
// column) pairs of the unit are no moves (near the diagonal, rows past
// n-3, or (0, n-1)); without it every pair is a move.
template <int R, bool MASK>
__device__ __forceinline__ void climbUnit(const float2 *P, const float *E, int n, int i0, int c0, int c1, float &best,
                                          int &bi, int &bj) {
    float2 rp[R + 1];
    float a[R];
    int lo[R], hi[R];
#pragma unroll
    for (int r = 0; r <= R; r++) rp[r] = P[min(i0 + r, n)];
#pragma unroll
    for (int r = 0; r < R; r++) {
        a[r] = -E[min(i0 + r, n)];
        lo[r] = (i0 + r <= n - 3) ? i0 + r + 2 : 0x7fffffff;
        hi[r] = (i0 + r == 0) ? n - 2 : n - 1;
    }
    float Q[R];
    {
        float2 cp = P[c0];
#pragma unroll
        for (int r = 0; r < R; r++) Q[r] = cdist(rp[r], cp) + a[r];
    }
    float ubest = FINF_CLIMB;
    int bk = -1;
#pragma unroll 1
    for (int k = c0 + 1; k <= c1; k += 2) {
        float v0 = climbColumn<R, MASK>(rp, a, lo, hi, Q, P[k], E[k - 1], k - 1);
        float v1 = climbColumn<R, MASK>(rp, a, lo, hi, Q, P[k + 1], E[k], k);
        float v = fminf(v0, v1);
        if (v < ubest) {
            ubest = v;
            bk = k;
        }
    }
    if (bk >= 0 && ubest < best) {
        // Recover the row and column of the unit's best move: j = bk-1 or bk.
#pragma unroll
        for (int c = 0; c < 2; c++) {
            int j = bk - 1 + c;
            float2 c0p = P[j], c1p = P[j + 1];
            float ce = E[j];
#pragma unroll
            for (int r = 0; r < R; r++) {
                int i = i0 + r;
                bool ok = (i <= n - 3) && (j >= i + 2) && (j <= n - 1) && !(i == 0 && j == n - 1);
                float d = ((cdist(rp[r], c0p) + a[r]) - ce) + cdist(rp[r + 1], c1p);
                if (ok && d < best) {
                    best = d;
                    bi = i;
                    bj = j;
                }
            }
        }
    }
}

// climbEval evaluates every move of the block's tour; each thread returns
// its best (best = +inf and bi = -1 when it saw none).
template <int R, int T>
__device__ __forceinline__ void climbEval(const float2 *P, const float *E, int n, float &best, int &bi, int &bj) {
    const int RG = 32 * R;
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    best = FINF_CLIMB;
    bi = -1;
    bj = -1;
    int g = 0, ubase = 0;
    int nu = (n - 2 + CLIMB_CW - 1) / CLIMB_CW;  // units of group 0
    for (int u = warp;; u += T / 32) {
        while (u >= ubase + nu) {
            ubase += nu;
            g++;
            if (g * RG > n - 3) return;
            nu = (n - 2 - g * RG + CLIMB_CW - 1) / CLIMB_CW;
        }
        int r0 = g * RG;
        int c0 = r0 + 2 + (u - ubase) * CLIMB_CW;
        int c1 = min(c0 + CLIMB_CW, n);
        bool mask = (c0 < r0 + RG + 1) || (r0 + RG - 1 > n - 3) || (g == 0 && c1 == n);
        if (mask)
            climbUnit<R, true>(P, E, n, r0 + lane * R, c0, c1, best, bi, bj);
        else
            climbUnit<R, false>(P, E, n, r0 + lane * R, c0, c1, best, bi, bj);
    }
}

// moveArc is the edge arc a move changes: edges s, s+1, ..., s+l (mod n)
// with the positions s+1..s+l reversed; the shorter of the segment and its
// complement.
__device__ __forceinline__ void moveArc(int i, int j, int n, int &s, int &l) {
    int L = j - i;
    if (2 * L <= n) {
        s = i;
        l = L;
    } else {
        s = j;
        l = n - L;
    }
}

__device__ __forceinline__ bool arcsOverlap(int sa, int la, int sb, int lb, int n) {
    int d1 = sb - sa, d2 = sa - sb;
    if (d1 < 0) d1 += n;
    if (d2 < 0) d2 += n;
    return d1 <= la || d2 <= lb;
}

// Shared memory of a climber (dynamic): P[n+2] float2 (P[n] = P[0], P[n+1]
// far from every city), E[n+1] float, C[n] int, then the candidate lists.
struct ClimbShared {
    float2 *P;
    float *E;
    int *C;
    unsigned long long *cand;  // one compacted candidate per thread
};

template <int T>
__device__ __forceinline__ void refreshEdges(ClimbShared &s, int n) {
    for (int p = threadIdx.x; p < n; p += T) s.E[p] = cdist(s.P[p], s.P[p + 1]);
    __syncthreads();
    if (threadIdx.x == 0) s.E[n] = s.E[0];
    __syncthreads();
}

// nnTop2 merges two (best, second) pairs of ordered keys.
__device__ __forceinline__ void nnTop2(unsigned long long &b, unsigned long long &s2, unsigned long long ob,
                                       unsigned long long os) {
    unsigned long long hi = b > ob ? b : ob;
    unsigned long long lo2 = s2 < os ? s2 : os;
    b = b < ob ? b : ob;
    s2 = hi < lo2 ? hi : lo2;
}

// nnStart builds a randomized nearest-neighbour tour in s.C (city ids) and
// s.P (their coordinates) from the climb's stream key. C[0..k-1] is the
// tour so far and C[k..n-1] the unvisited cities; step k moves the chosen
// city to position k. wtop holds two keys per warp. Every thread takes
// the same decisions (the draws depend on key and k only).
template <int T>
__device__ void nnStart(ClimbShared &s, const float2 *__restrict__ xy, int n, uint32_t key, unsigned long long *wtop) {
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    for (int p = threadIdx.x; p < n; p += T) {
        s.C[p] = p;
        s.P[p] = xy[p];
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int c = bounded(ctr_rand(key, 0), n);
        s.C[c] = 0;
        s.C[0] = c;
        float2 t = s.P[0];
        s.P[0] = s.P[c];
        s.P[c] = t;
    }
    __syncthreads();
    for (int k = 1; k < n - 1; k++) {
        const float2 cur = s.P[k - 1];
        const bool dev = ctr_rand(key, (uint32_t)k) < CLIMB_NN_DEVIATE;
        unsigned long long b = ~0ull, s2 = ~0ull;
        for (int p = k + threadIdx.x; p < n; p += T) {
            float2 q = s.P[p];
            float dx = q.x - cur.x, dy = q.y - cur.y;
            unsigned long long v = ((unsigned long long)__float_as_uint(dx * dx + dy * dy) << 32) | (unsigned)p;
            if (v < b) {
                s2 = b;
                b = v;
            } else if (v < s2) {
                s2 = v;
            }
        }
        for (int o = 16; o > 0; o >>= 1) {
            unsigned long long ob = __shfl_xor_sync(0xffffffffu, b, o);
            unsigned long long os = __shfl_xor_sync(0xffffffffu, s2, o);
            nnTop2(b, s2, ob, os);
        }
        if (lane == 0) {
            wtop[2 * warp] = b;
            wtop[2 * warp + 1] = s2;
        }
        __syncthreads();
        if (threadIdx.x == 0) {
            b = wtop[0];
            s2 = wtop[1];
            for (int w = 1; w < T / 32; w++) nnTop2(b, s2, wtop[2 * w], wtop[2 * w + 1]);
            unsigned long long pick = (dev && s2 != ~0ull) ? s2 : b;
            int p = (int)(unsigned)pick;
            int t = s.C[k];
            s.C[k] = s.C[p];
            s.C[p] = t;
            float2 tp = s.P[k];
            s.P[k] = s.P[p];
            s.P[p] = tp;
        }
        __syncthreads();
    }
}

template <int R, int T>
__device__ void climbKernel(const float2 *__restrict__ xy, int n, int *cur, int *resume, int *bestTour,
                            long long *bestLen, unsigned long long *ctr, unsigned long long seed,
                            long long sliceNs, long long maxClimbs, int metric, float eps, int mode, int start,
                            unsigned long long *dbg) {
    extern __shared__ __align__(16) unsigned char climbSmem[];
    ClimbShared s;
    s.P = (float2 *)climbSmem;
    s.E = (float *)(s.P + (n + 2));
    s.C = (int *)(s.E + (n + 1));
    size_t off = ((size_t)((unsigned char *)(s.C + n) - climbSmem) + 7) & ~(size_t)7;
    s.cand = (unsigned long long *)(climbSmem + off);
    __shared__ int wcount[T / 32];
    __shared__ unsigned long long wtop[2 * (T / 32)];
    __shared__ int sflag;
    __shared__ unsigned long long slen;
    __shared__ unsigned long long t0;

    const int slot = blockIdx.x;
    const int tid = threadIdx.x, warp = tid >> 5, lane = tid & 31;
    int *Cg = cur + (size_t)slot * n;
    unsigned long long sweeps = 0, applied = 0, climbs = 0, lensum = 0;
    bool started = false;  // s.P already holds the new climb's coordinates
    if (tid == 0) {
        t0 = globaltimer_ns();
        s.P[n + 1] = make_float2(CLIMB_FAR, CLIMB_FAR);
    }
    __syncthreads();
    const unsigned long long end = t0 + (unsigned long long)sliceNs;

    for (;;) {
        // Start: the saved climb, or a new random tour.
        if (resume[slot] || mode != 0) {
            for (int p = tid; p < n; p += T) s.C[p] = Cg[p];
            __syncthreads();
            if (tid == 0) resume[slot] = 0;
        } else {
            if (tid == 0) {
                sflag = globaltimer_ns() >= end;
                if (!sflag) {
                    unsigned long long id = atomicAdd(&ctr[CTR_ISSUED], 1ull);
                    sflag = maxClimbs > 0 && id >= (unsigned long long)maxClimbs;
                    slen = id;
                }
            }
            __syncthreads();
            if (sflag) break;
            const uint32_t key = stream_key(seed, (uint32_t)slen);
            if (start == CLIMB_START_NN) {
                nnStart<T>(s, xy, n, key, wtop);
            } else {
                for (int p = tid; p < n; p += T) s.C[p] = p;
                __syncthreads();
                if (tid == 0) {
                    for (int k = n - 1; k > 0; k--) {
                        int q = bounded(ctr_rand(key, (uint32_t)k), k + 1);
                        int t = s.C[k];
                        s.C[k] = s.C[q];
                        s.C[q] = t;
                    }
                }
                __syncthreads();
                for (int p = tid; p < n; p += T) s.P[p] = xy[s.C[p]];
                __syncthreads();
            }
            started = true;
        }
        if (!started) {
            for (int p = tid; p < n; p += T) s.P[p] = xy[s.C[p]];
            __syncthreads();
        }
        started = false;
        if (tid == 0) s.P[n] = s.P[0];
        __syncthreads();

        // Descend.
        int sweepsHere = 0;
        bool converged = false;
        for (;;) {
            refreshEdges<T>(s, n);
            float best;
            int bi, bj;
            climbEval<R, T>(s.P, s.E, n, best, bi, bj);
            sweeps++;
            sweepsHere++;
            if (mode == 1) {
                dbg[tid] = bi < 0 ? ~0ull
                                  : ((unsigned long long)float_key(best) << 32) | ((unsigned)bi << 16) | (unsigned)bj;
                return;
            }
            // Compact the improving candidates (in thread order).
            bool mine = bi >= 0 && best < -eps;
            unsigned bal = __ballot_sync(0xffffffffu, mine);
            if (lane == 0) wcount[warp] = __popc(bal);
            if (tid == 0) sflag = globaltimer_ns() >= end;
            __syncthreads();
            int base = 0, V = 0;
            for (int w = 0; w < T / 32; w++) {
                base += (w < warp) ? wcount[w] : 0;
                V += wcount[w];
            }
            unsigned long long key = 0;
            if (mine) {
                key = ((unsigned long long)float_key(best) << 32) | ((unsigned)bi << 16) | (unsigned)bj;
                s.cand[base + __popc(bal & ((1u << lane) - 1))] = key;
            }
            bool stopNow = sflag;
            __syncthreads();
            if (V == 0 || sweepsHere > 8 * n + 64) {
                converged = true;
                break;
            }
            if (stopNow) break;
            // A candidate is taken when no better candidate overlaps it.
            bool take = false;
            int sa = 0, la = 0;
            if (mine) {
                moveArc(bi, bj, n, sa, la);
                take = true;
                for (int m = 0; m < V; m++) {
                    unsigned long long o = s.cand[m];
                    if (o < key) {
                        int oi = (int)((o >> 16) & 0xffff), oj = (int)(o & 0xffff);
                        int sb, lb;
                        moveArc(oi, oj, n, sb, lb);
                        if (arcsOverlap(sa, la, sb, lb, n)) {
                            take = false;
                            break;
                        }
                    }
                }
            }
            __syncthreads();
            // Compact the taken moves as (s, l) pairs into cand.
            unsigned tb = __ballot_sync(0xffffffffu, take);
            if (lane == 0) wcount[warp] = __popc(tb);
            __syncthreads();
            base = 0;
            int S = 0;
            for (int w = 0; w < T / 32; w++) {
                base += (w < warp) ? wcount[w] : 0;
                S += wcount[w];
            }
            if (take) s.cand[base + __popc(tb & ((1u << lane) - 1))] = ((unsigned long long)sa << 32) | (unsigned)la;
            __syncthreads();
            applied += (tid == 0) ? S : 0;
            // Reverse: each warp takes moves warp, warp+W, ...; positions
            // s+1..s+l (mod n).
            for (int m = warp; m < S; m += T / 32) {
                unsigned long long v = s.cand[m];
                int ms = (int)(v >> 32), ml = (int)(unsigned)v;
                for (int k = lane; k < ml / 2; k += 32) {
                    int p = ms + 1 + k, q = ms + ml - k;
                    if (p >= n) p -= n;
                    if (q >= n) q -= n;
                    float2 tp = s.P[p];
                    s.P[p] = s.P[q];
                    s.P[q] = tp;
                    int tc = s.C[p];
                    s.C[p] = s.C[q];
                    s.C[q] = tc;
                }
            }
            __syncthreads();
            if (tid == 0) s.P[n] = s.P[0];
            __syncthreads();
        }
        if (!converged) {
            // Time is up mid-climb: save it for the next launch.
            for (int p = tid; p < n; p += T) Cg[p] = s.C[p];
            __syncthreads();
            if (tid == 0) resume[slot] = 1;
            break;
        }
        // Score the local minimum with the instance's integer distances.
        if (tid == 0) slen = 0;
        __syncthreads();
        long long part = 0;
        for (int p = tid; p < n; p += T) part += metric_dist(metric, s.P[p], s.P[p + 1]);
        for (int o = 16; o > 0; o >>= 1) part += __shfl_xor_sync(0xffffffffu, part, o);
        if (lane == 0) atomicAdd(&slen, (unsigned long long)part);
        __syncthreads();
        climbs++;
        long long len = (long long)slen;
        lensum += (unsigned long long)len;
        if (len < bestLen[slot]) {
            int *Bg = bestTour + (size_t)slot * n;
            for (int p = tid; p < n; p += T) Bg[p] = s.C[p];
            __syncthreads();
            if (tid == 0) bestLen[slot] = len;
        }
        __syncthreads();
        if (mode == 2) break;
    }
    if (tid == 0) {
        atomicAdd(&ctr[CTR_CLIMBS], climbs);
        atomicAdd(&ctr[CTR_SWEEPS], sweeps);
        atomicAdd(&ctr[CTR_APPLIED], applied);
        atomicAdd(&ctr[CTR_LENSUM], lensum);
    }
}

// twoopt_climb_rR[_tT]: R rows per thread, T threads per block (256 unless
// named), one block per slot, climbSharedBytes of dynamic shared memory.
// mode 0 climbs for sliceNs and starts no climb past maxClimbs (> 0); the
// tests' modes: 1 writes each thread's best move of cur[slot] to dbg (key
// = ordered delta << 32 | i << 16 | j, ~0 for none), 2 climbs once from
// cur[slot] into bestTour[slot].
#define CLIMB_KERNEL(NAME, R, T)                                                                                   \
    extern "C" __global__ void __launch_bounds__(T)                                                                 \
        NAME(const float2 *__restrict__ xy, long long n, int *cur, int *resume, int *bestTour, long long *bestLen,   \
             unsigned long long *ctr, unsigned long long seed, long long sliceNs, long long maxClimbs,               \
             long long metric, double eps, long long mode, long long start, unsigned long long *dbg) {              \
        climbKernel<R, T>(xy, (int)n, cur, resume, bestTour, bestLen, ctr, seed, sliceNs, maxClimbs, (int)metric,   \
                          (float)eps, (int)mode, (int)start, dbg + (size_t)blockIdx.x * T);                         \
    }
CLIMB_KERNEL(twoopt_climb_r4, 4, 256)
CLIMB_KERNEL(twoopt_climb_r8, 8, 256)
CLIMB_KERNEL(twoopt_climb_r4_t128, 4, 128)
CLIMB_KERNEL(twoopt_climb_r6_t128, 6, 128)
