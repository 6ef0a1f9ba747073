// twoopt.cu: whole-neighbourhood 2-opt evaluation on tour-ordered
// coordinates (2opt-ils, the batch climber), and the batch climber's
// in-place apply step.
//
// References: O'Neil and Burtscher, GPGPU-8, 2015 (tiles of coordinates,
// block reduction of the best move, parallel reversal: twoopt_apply);
// Rocki and Suda, 2012 (coordinates in tour order, so a move reads
// positions i, i+1, j, j+1 with no indirection; tiles, so any n runs).
//
// Layout: pts[t*n + k] = (x, y, e, 0), the coordinates of tour t's k-th
// city and e = d(k, k+1 mod n). The move (i, j), i+2 <= j <= n-1,
// (i, j) != (0, n-1), reverses positions i+1..j; its delta is
// D(i, j) + D(i+1, j+1) - e_i - e_j.
//
// Float and fast math are enough: the GPU only ranks moves, and every
// applied move is re-checked with exact integer distances on the CPU (or
// the final tour polished there).
#include "common.cuh"

#define EVAL_THREADS 128
#define EVAL_ROWS 8                           // rows (i values) per thread
#define EVAL_TILE (EVAL_THREADS * EVAL_ROWS)  // a tile is EVAL_TILE x EVAL_TILE moves
#define FINF __int_as_float(0x7f800000)
// EVAL_FAR is a coordinate far from every city (the shifted coordinates
// stay far below it), whose squared distances still fit a float.
#define EVAL_FAR 1e15f

// TileBest is one tile's best move (layout shared with gpu/twoopt_cuda.go).
struct TileBest {
    float delta;
    int i, j;
    int pad;
};

__device__ __forceinline__ float fdist(float4 a, float4 b) {
    float dx = a.x - b.x, dy = a.y - b.y;
    return sqrtf(dx * dx + dy * dy);
}

__device__ __forceinline__ bool validMoveDev(int i, int j, int n) {
    return (i >= 0) && (j >= i + 2) && (j <= n - 1) && !(i == 0 && j == n - 1);
}

__device__ __forceinline__ int clampPos(int c, int n) {
    // Position n stands for position 0 (the edge n-1 -> 0 closes the tour);
    // positions past it only occur in masked tiles.
    return c < n ? c : (c == n ? 0 : n - 1);
}

// tileCoords maps a linear tile number onto the upper triangle bj >= bi of
// a T x T grid of tiles, row by row.
__device__ __forceinline__ void tileCoords(int t, int T, int &bi, int &bj) {
    // Row bi starts at s(bi) = bi*T - bi*(bi-1)/2. Solve by a float guess
    // then fix up (T <= ~2^16, so the guess is off by at most one).
    float fT = (float)T + 0.5f;
    int r = (int)(fT - sqrtf(fT * fT - 2.0f * (float)t));
    if (r < 0) r = 0;
    if (r > T - 1) r = T - 1;
    while (r > 0 && r * T - r * (r - 1) / 2 > t) r--;
    while (r + 1 < T && (r + 1) * T - (r + 1) * r / 2 <= t) r++;
    bi = r;
    bj = r + (t - (r * T - r * (r - 1) / 2));
}

// evalTile: phase 2 of twoopt_eval. Rows i0..i0+R-1 stay in registers;
// each step reads one column point (a shared-memory broadcast) and
// computes R+1 distances that serve 2R moves (D(r, c) is "D(i, j)" of move
// (r, c) and "D(i+1, j+1)" of (r-1, c-1)), (R+1)/R square roots a move.
// e(j) is common to a column's moves, so it is taken off the column's
// minimum once, and the loop compares only the better of two columns with
// its running minimum; the row and column are recovered after it, where
// validity is checked (the two non-moves the unmasked loop may see have
// delta 0 and cannot hide an improving move; columns past the tour's end
// hold a far point). Columns kStart..kEnd (column k is move column
// J0+k-1; col[kEnd+1] exists). DIAG: a tile on the diagonal, where row i
// pairs only with j >= i+2.
template <bool DIAG>
__device__ __forceinline__ void evalTile(const float4 *__restrict__ P, const float4 *col, int n, int I0, int J0,
                                         int kEnd, float &bestOut, int &biOut, int &bjOut) {
    const int R = EVAL_ROWS;
    int i0 = I0 + threadIdx.x * R;
    int kStart = 1;
    int lim[R];
    if (DIAG) {
        int warpRow0 = I0 + (threadIdx.x & ~31) * R;
        kStart = max(1, warpRow0 + 3 - J0);
#pragma unroll
        for (int r = 0; r < R; r++) lim[r] = (i0 + r < n) ? i0 + r + 3 - J0 : 0x7fffffff;
    }
    bestOut = FINF;
    biOut = -1;
    bjOut = -1;
    if (kStart > kEnd) return;
    float4 rp[R + 1];
    float a[R];
#pragma unroll
    for (int r = 0; r <= R; r++) rp[r] = P[clampPos(i0 + r, n)];
#pragma unroll
    for (int r = 0; r < R; r++) a[r] = -rp[r].z;

    float Q[R];  // Q[r] = D(i0+r, c-1) - e(i0+r)
    float ce;    // e(c-1)
    {
        float4 cp = col[kStart - 1];
#pragma unroll
        for (int r = 0; r < R; r++) Q[r] = fdist(rp[r], cp) + a[r];
        ce = cp.z;
    }
    float best = FINF;
    int bk = 0;
#pragma unroll 1
    for (int k = kStart; k <= kEnd; k += 2) {
        float v[2];
#pragma unroll
        for (int h = 0; h < 2; h++) {
            float4 cp = col[k + h];
            float D[R + 1];
#pragma unroll
            for (int r = 0; r <= R; r++) D[r] = fdist(rp[r], cp);
            float m = FINF;
#pragma unroll
            for (int r = 0; r < R; r++) {
                float d = Q[r] + D[r + 1];
                if (DIAG) d = (k + h >= lim[r]) ? d : FINF;
                m = fminf(m, d);
            }
            v[h] = m - ce;
            ce = cp.z;
#pragma unroll
            for (int r = 0; r < R; r++) Q[r] = D[r] + a[r];
        }
        float m2 = fminf(v[0], v[1]);
        if (m2 < best) {
            best = m2;
            bk = k;
        }
    }
    // Recover the row and column of the best move: column bk-1 or bk.
    if (best < FINF) {
#pragma unroll
        for (int h = 0; h < 2; h++) {
            int j = J0 + bk - 1 + h;
            float4 c0 = col[bk - 1 + h], c1 = col[bk + h];
#pragma unroll
            for (int r = 0; r < R; r++) {
                int i = i0 + r;
                float d = (fdist(rp[r], c0) + a[r] - c0.z) + fdist(rp[r + 1], c1);
                if (validMoveDev(i, j, n) && d < bestOut) {
                    bestOut = d;
                    biOut = i;
                    bjOut = j;
                }
            }
        }
        if (biOut < 0) bestOut = FINF;
    }
}

// blockBest reduces (delta, i, j) over the block: warp shuffles on a
// 64-bit key (ordered delta, position in the tile) so ties break the same
// way on every run, then one value per warp through shared memory.
__device__ __forceinline__ void blockBest(float delta, int i, int j, int I0, int J0, TileBest *out) {
    __shared__ unsigned long long wkey[EVAL_THREADS / 32];
    unsigned long long key = ~0ull;
    if (i >= 0) key = ((unsigned long long)float_key(delta) << 32) | (unsigned)((i - I0) * (EVAL_TILE + 1) + (j - J0));
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        unsigned long long o = __shfl_xor_sync(0xffffffffu, key, off);
        key = o < key ? o : key;
    }
    if ((threadIdx.x & 31) == 0) wkey[threadIdx.x >> 5] = key;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < EVAL_THREADS / 32; w++) key = wkey[w] < key ? wkey[w] : key;
        TileBest tb;
        if (key == ~0ull) {
            tb.delta = FINF;
            tb.i = -1;
            tb.j = -1;
        } else {
            uint32_t lo = (uint32_t)key;
            tb.i = I0 + (int)(lo / (EVAL_TILE + 1));
            tb.j = J0 + (int)(lo % (EVAL_TILE + 1));
            uint32_t u = (uint32_t)(key >> 32);
            u = (u & 0x80000000u) ? (u & 0x7fffffffu) : ~u;
            tb.delta = __uint_as_float(u);
        }
        tb.pad = 0;
        *out = tb;
    }
}

// twoopt_eval_tile evaluates the 2-opt moves of one tile of one tour (the
// block's work in twoopt_eval and twoopt_eval_range).
// Grid: x = tile of the upper triangle (tilesPerTour = T(T+1)/2 with
// T = ceil(n / EVAL_TILE)), y = tour. Block: EVAL_THREADS threads.
// Output: out[tour * tilesPerTour + tile] = the tile's best move.
__device__ __forceinline__ void twoopt_eval_tile(const float4 *__restrict__ pts, int n, int T, TileBest *out,
                                                 int tile) {
    const int tilesPerTour = T * (T + 1) / 2;
    const float4 *P = pts + (size_t)blockIdx.y * n;
    __shared__ float4 col[EVAL_TILE + 2];

    // Phase 1 (load): the tile's column points, position J0..J0+TILE, and
    // one more for evalTile's column pairs; past position n (the wrap to
    // position 0) a far point, whose moves never win.
    int bi, bj;
    tileCoords(tile, T, bi, bj);
    int I0 = bi * EVAL_TILE, J0 = bj * EVAL_TILE;
    for (int k = threadIdx.x; k <= EVAL_TILE + 1; k += EVAL_THREADS)
        col[k] = J0 + k <= n ? P[clampPos(J0 + k, n)] : make_float4(EVAL_FAR, EVAL_FAR, 0.0f, 0.0f);
    __syncthreads();

    // Phase 2 (evaluate): tiles off the diagonal need no bounds checks.
    int kEnd = min(EVAL_TILE, n - J0);
    float best;
    int bi_, bj_;
    if (bj > bi)
        evalTile<false>(P, col, n, I0, J0, kEnd, best, bi_, bj_);
    else
        evalTile<true>(P, col, n, I0, J0, kEnd, best, bi_, bj_);

    // Phase 3 (reduce): the tile's best move.
    blockBest(best, bi_, bj_, I0, J0, out + (size_t)blockIdx.y * tilesPerTour + tile);
}

// twoopt_eval evaluates every 2-opt move of a batch of tours: one block per
// tile and tour.
extern "C" __global__ void __launch_bounds__(EVAL_THREADS)
    twoopt_eval(const float4 *__restrict__ pts, long long n_, long long T_, TileBest *out) {
    twoopt_eval_tile(pts, (int)n_, (int)T_, out, blockIdx.x);
}

// twoopt_eval_range evaluates tiles tile0 .. tile0+gridDim.x-1 only, so
// the host sees a stop between the launches of a very large tour's pass (a
// kernel of its own: the offset cost twoopt_eval 6 % of its rate).
extern "C" __global__ void __launch_bounds__(EVAL_THREADS)
    twoopt_eval_range(const float4 *__restrict__ pts, long long n_, long long T_, TileBest *out, long long tile0) {
    twoopt_eval_tile(pts, (int)n_, (int)T_, out, (int)tile0 + (int)blockIdx.x);
}

// twoopt_eval_debug writes the delta of every move (i, j) of tour 0 into
// deltas[i*n + j] (+inf where (i, j) is not a move), computed like the fast
// kernel, so tests can compare each delta with the CPU's.
extern "C" __global__ void twoopt_eval_debug(const float4 *__restrict__ pts, long long n_, float *deltas) {
    const int n = (int)n_;
    long long id = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (id >= (long long)n * n) return;
    int i = (int)(id / n), j = (int)(id % n);
    bool ok = (j >= i + 2) && (j <= n - 1) && !(i == 0 && j == n - 1);
    float d = FINF;
    if (ok) {
        float4 pi = pts[i], pi1 = pts[i + 1], pj = pts[j], pj1 = pts[(j + 1) % n];
        d = (fdist(pi, pj) - pi.z - pj.z) + fdist(pi1, pj1);
    }
    deltas[id] = d;
}

// twoopt_apply: one block per tour reduces the tiles' best moves and, when
// the best improves by more than eps, reverses positions i+1..j in
// parallel (the edge lengths one place shifted) and recomputes the two new
// edges; improved[tour] says whether it moved.
extern "C" __global__ void twoopt_apply(float4 *pts, int *city, long long n_, const TileBest *tb, long long tiles_,
                                        int *improved, double eps) {
    const int n = (int)n_;
    const int tiles = (int)tiles_;
    float4 *P = pts + (size_t)blockIdx.x * n;
    int *C = city + (size_t)blockIdx.x * n;
    const TileBest *B = tb + (size_t)blockIdx.x * tiles;
    __shared__ unsigned long long wkey[32];
    __shared__ int si, sj;

    // Reduce: the best of the tiles (ties: lowest tile number).
    unsigned long long key = ~0ull;
    for (int t = threadIdx.x; t < tiles; t += blockDim.x) {
        TileBest b = B[t];
        if (b.i >= 0) {
            unsigned long long k = ((unsigned long long)float_key(b.delta) << 32) | (unsigned)t;
            key = k < key ? k : key;
        }
    }
    for (int off = 16; off > 0; off >>= 1) {
        unsigned long long o = __shfl_xor_sync(0xffffffffu, key, off);
        key = o < key ? o : key;
    }
    if ((threadIdx.x & 31) == 0) wkey[threadIdx.x >> 5] = key;
    __syncthreads();
    if (threadIdx.x == 0) {
        for (int w = 1; w < (int)(blockDim.x + 31) / 32; w++) key = wkey[w] < key ? wkey[w] : key;
        si = -1;
        sj = -1;
        if (key != ~0ull) {
            TileBest b = B[(uint32_t)key];
            if (b.delta < -(float)eps) {
                si = b.i;
                sj = b.j;
            }
        }
        improved[blockIdx.x] = si >= 0 ? 1 : 0;
    }
    __syncthreads();
    int i = si, j = sj;
    if (i < 0) return;

    // Reverse: positions a..b hold the segment; its edges a..b-1 reverse too.
    float *F = (float *)P;
    int a = i + 1, b = j, L = b - a + 1;
    for (int k = threadIdx.x; k < L / 2; k += blockDim.x) {
        int p = a + k, q = b - k;
        float px = F[4 * p], py = F[4 * p + 1], qx = F[4 * q], qy = F[4 * q + 1];
        F[4 * p] = qx;
        F[4 * p + 1] = qy;
        F[4 * q] = px;
        F[4 * q + 1] = py;
        int cp = C[p];
        C[p] = C[q];
        C[q] = cp;
    }
    for (int k = threadIdx.x; k < (L - 1) / 2; k += blockDim.x) {
        int p = a + k, q = b - 1 - k;
        float pe = F[4 * p + 2];
        F[4 * p + 2] = F[4 * q + 2];
        F[4 * q + 2] = pe;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        int j1 = (j + 1) % n;
        F[4 * i + 2] = sqrtf((F[4 * i] - F[4 * a]) * (F[4 * i] - F[4 * a]) +
                             (F[4 * i + 1] - F[4 * a + 1]) * (F[4 * i + 1] - F[4 * a + 1]));
        F[4 * j + 2] = sqrtf((F[4 * j] - F[4 * j1]) * (F[4 * j] - F[4 * j1]) +
                             (F[4 * j + 1] - F[4 * j1 + 1]) * (F[4 * j + 1] - F[4 * j1 + 1]));
    }
}
