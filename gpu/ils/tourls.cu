// tourls.cu: whole-tour 2-opt + Or-opt local search over candidate lists,
// every city's moves evaluated in parallel each pass and a set of
// non-interfering improving moves applied at once.
//
// Set-up: the cities are counted into a 2^k x 2^k grid whose cells are
// numbered along the Hilbert curve; the counting sort by cell (cities of a
// cell by id) is both the grid and the space-filling-curve start tour, and
// the cities are renumbered in that order ("ranks", so that neighbours are
// near in memory). Each city's GLS_K nearest neighbours are found by ring
// search in the grid.
//
// A pass: one thread per city finds its best improving move (2-opt in both
// tour directions; segments of 1-3 cities that start at it moved between a
// neighbour and that neighbour's successor or predecessor, in either
// orientation). Positions are read from a virtual origin (off, changed every
// pass) and a move is taken only in its form whose positions do not wrap:
// it changes the edges lo..hi (edge e joins positions e and e+1) and
// permutes the positions lo+1..hi: a reversal, or the swap of two adjacent
// blocks with either block reversed (Or-opt). Two moves whose edge ranges
// are disjoint do not interfere and their gains add up exactly. Selection:
// a move of level l (its range spans at most 32 blocks of 32^l edges)
// claims its blocks with atomicMax of (gain, city) and marks the blocks
// covering it at every coarser level; it is applied when it holds all its
// blocks and no finer move marked them (so short moves go first: the rule
// of higher gain first needs several times the passes). The
// apply kernel moves every position once (one thread per position, O(n)
// whatever the moves' lengths), then pos[] is rebuilt. Cities at changed
// edges and cities whose move lost are searched again the next pass (don't-
// look bits); when none is left the host asks for a pass over all cities.
//
// Exactness: distances are or_dist (bit-exact with the CPU), so the tour's
// length falls by exactly the sum of the applied gains.

#include "common.cuh"

#define GLS_K 8
#define GLS_LEVELS 6
#define GLS_REV_FIRST 1
#define GLS_REV_SECOND 2
#define GLS_SWAP 4

// gls_hilbert is the index of cell (x, y) along the Hilbert curve of a
// 2^k x 2^k grid.
__device__ __forceinline__ unsigned int gls_hilbert(unsigned int x, unsigned int y, int k) {
    unsigned int g = 1u << k, d = 0;
    for (unsigned int s = g >> 1; s > 0; s >>= 1) {
        unsigned int rx = (x & s) ? 1u : 0u, ry = (y & s) ? 1u : 0u;
        d += s * s * ((3u * rx) ^ ry);
        if (ry == 0) {
            if (rx == 1) {
                x = g - 1 - x;
                y = g - 1 - y;
            }
            unsigned int t = x;
            x = y;
            y = t;
        }
    }
    return d;
}

// gls_cell is the grid cell of a point, clamped to the grid.
__device__ __forceinline__ int gls_cell(double v, double lo, double inv, int g) {
    int c = (int)((v - lo) * inv);
    return max(0, min(c, g - 1));
}

// gls_cells puts city i in its Hilbert cell and counts the cells.
extern "C" __global__ void gls_cells(const double2* xy, long long n, double minx, double miny, double inv, long long k,
                                     unsigned int* cell, unsigned int* count) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= n) return;
    int g = 1 << k;
    double2 p = xy[i];
    unsigned int d = gls_hilbert(gls_cell(p.x, minx, inv, g), gls_cell(p.y, miny, inv, g), (int)k);
    cell[i] = d;
    atomicAdd(&count[d], 1u);
}

// gls_scatter writes city i into its cell's range of order (start: the
// exclusive prefix sums of the counts; fill: zeroed counters).
extern "C" __global__ void gls_scatter(long long n, const unsigned int* cell, const unsigned int* start, unsigned int* fill,
                                       int* order) {
    long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (i >= n) return;
    unsigned int d = cell[i];
    unsigned int s = atomicAdd(&fill[d], 1u);
    order[start[d] + s] = (int)i;
}

// gls_cellsort sorts each cell's cities by id, so the order is the same
// every run.
extern "C" __global__ void gls_cellsort(long long cells, const unsigned int* start, int* order) {
    long long d = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (d >= cells) return;
    unsigned int a = start[d], b = start[d + 1];
    for (unsigned int i = a + 1; i < b; i++) {
        int v = order[i];
        unsigned int j = i;
        while (j > a && order[j - 1] > v) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = v;
    }
}

// gls_permute renumbers the cities by rank (rank r is city order[r]) and
// sets the identity tour (the curve) with every city to search.
extern "C" __global__ void gls_permute(long long n, const int* order, const double2* xy, double2* xs, int* rank, int* tour,
                                       int* pos, unsigned char* active) {
    long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (r >= n) return;
    int c = order[r];
    xs[r] = xy[c];
    rank[c] = (int)r;
    tour[r] = (int)r;
    pos[r] = (int)r;
    active[r] = 1;
}

// gls_start replaces the curve by a given tour of city ids.
extern "C" __global__ void gls_start(long long n, const int* given, const int* rank, int* tour, int* pos) {
    long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (p >= n) return;
    int r = rank[given[p]];
    tour[p] = r;
    pos[r] = (int)p;
}

// gls_knn_cell offers the cities of one grid cell to rank r's list, kept
// sorted by squared distance (ties: the first seen).
__device__ __forceinline__ void gls_knn_cell(const double2* xs, const unsigned int* start, unsigned int d, long long r, double2 p,
                                             double* bd, int* bi) {
    for (unsigned int j = start[d]; j < start[d + 1]; j++) {
        if (j == r) continue;
        double2 q = xs[j];
        double dx = q.x - p.x, dy = q.y - p.y, s = dx * dx + dy * dy;
        if (s < bd[GLS_K - 1]) {
            bd[GLS_K - 1] = s;
            bi[GLS_K - 1] = (int)j;
#pragma unroll
            for (int t = GLS_K - 1; t > 0; t--) {
                if (bd[t] < bd[t - 1]) {
                    double u = bd[t];
                    bd[t] = bd[t - 1];
                    bd[t - 1] = u;
                    int w = bi[t];
                    bi[t] = bi[t - 1];
                    bi[t - 1] = w;
                }
            }
        }
    }
}

// gls_knn finds the GLS_K nearest neighbours of every rank by rings of
// cells around its own; it stops once the rings searched cover every
// point closer than the K-th found (list padded with -1 when n <= K).
extern "C" __global__ void gls_knn(long long n, const double2* xs, const unsigned int* start, double minx, double miny,
                                   double inv, long long k, int* nbr) {
    long long r = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (r >= n) return;
    int g = 1 << k;
    double2 p = xs[r];
    int cx = gls_cell(p.x, minx, inv, g), cy = gls_cell(p.y, miny, inv, g);
    double bd[GLS_K];
    int bi[GLS_K];
#pragma unroll
    for (int t = 0; t < GLS_K; t++) {
        bd[t] = 1e300;
        bi[t] = -1;
    }
    double cw = 1.0 / inv;
    for (int ring = 0; ring <= g; ring++) {
        for (int dy = -ring; dy <= ring; dy++) {
            int y = cy + dy;
            if (y < 0 || y >= g) continue;
            int step = (dy == -ring || dy == ring) ? 1 : 2 * ring;
            for (int dx = -ring; dx <= ring; dx += max(step, 1)) {
                int x = cx + dx;
                if (x < 0 || x >= g) continue;
                gls_knn_cell(xs, start, gls_hilbert(x, y, (int)k), r, p, bd, bi);
            }
        }
        double lim = ring * cw;
        if (bi[GLS_K - 1] >= 0 && bd[GLS_K - 1] <= lim * lim) break;
        if (cx - ring <= 0 && cy - ring <= 0 && cx + ring >= g - 1 && cy + ring >= g - 1) break;
    }
#pragma unroll
    for (int t = 0; t < GLS_K; t++) nbr[r * GLS_K + t] = bi[t];
}

// GlsTour is a tour read from the pass's virtual origin.
struct GlsTour {
    int n, off;
    const int* tour;
    const int* pos;
    const double2* xs;
    __device__ __forceinline__ int at(int v) const {
        int p = v + off;
        return tour[p >= n ? p - n : p];
    }
    __device__ __forceinline__ int virt(int c) const {
        int v = pos[c] - off;
        return v < 0 ? v + n : v;
    }
    __device__ __forceinline__ int wrap(int v) const { return v >= n ? v - n : (v < 0 ? v + n : v); }
};

// GlsMove is a city's best move: the edges lo..hi it changes, mid (the
// first block's last position of a block swap) and the GLS_* flags.
struct GlsMove {
    int gain, lo, hi, mid, flags;
};

template <int METRIC>
__device__ __forceinline__ int gls_d(const GlsTour& t, int a, int b) {
    return or_dist<METRIC>(t.xs[a], t.xs[b]);
}

// gls_two_opt offers c's 2-opt moves: new edges (c, d) and (succ c, succ d),
// or (c, d) and (pred c, pred d), for every neighbour d.
template <int METRIC>
__device__ void gls_two_opt(const GlsTour& t, const int* nb, int c, int i, GlsMove& best) {
    int s = t.at(t.wrap(i + 1)), pr = t.at(t.wrap(i - 1));
    int dcs = gls_d<METRIC>(t, c, s), dpc = gls_d<METRIC>(t, pr, c);
    for (int u = 0; u < GLS_K; u++) {
        int d = nb[u];
        if (d < 0) continue;
        int j = t.virt(d);
        int lo = min(i, j), hi = max(i, j);
        int dcd = gls_d<METRIC>(t, c, d);
        if (t.wrap(i + 1) != j && t.wrap(j + 1) != i) {
            int e = t.at(t.wrap(j + 1));
            int g = dcs + gls_d<METRIC>(t, d, e) - dcd - gls_d<METRIC>(t, s, e);
            if (g > best.gain) best = GlsMove{g, lo, hi, -1, 0};
        }
        if (lo >= 1 && t.wrap(i - 1) != j && t.wrap(j - 1) != i) {
            int q = t.at(j - 1 < 0 ? t.n - 1 : j - 1);
            int g = dpc + gls_d<METRIC>(t, q, d) - dcd - gls_d<METRIC>(t, pr, q);
            if (g > best.gain) best = GlsMove{g, lo - 1, hi - 1, -1, 0};
        }
    }
}

// gls_or_opt offers the moves of segment i..e (e = i+L-1, starting at c):
// its end city ce next to neighbour x, between x and x's successor or
// predecessor; gr is the gain of taking the segment out.
template <int METRIC>
__device__ void gls_or_insert(const GlsTour& t, const int* nbr, int i, int e, int ce, int co, int gr, GlsMove& best) {
    int s2 = t.at(e);
    for (int u = 0; u < GLS_K; u++) {
        int x = nbr[ce * GLS_K + u];
        if (x < 0) continue;
        int vx = t.virt(x);
        if (vx >= i && vx <= e) continue;
        int dxe = gls_d<METRIC>(t, x, ce);
        for (int side = 0; side < 2; side++) {
            int vy = t.wrap(side == 0 ? vx + 1 : vx - 1);
            int q = side == 0 ? vx : vy;  // the edge (q, q+1) the segment goes into
            if ((vy >= i && vy <= e) || (q >= i - 1 && q <= e)) continue;
            int y = t.at(vy);
            int g = gr - (dxe + gls_d<METRIC>(t, co, y) - gls_d<METRIC>(t, x, y));
            if (g <= best.gain) continue;
            // the segment's first city after the move, next to position q
            int first = side == 0 ? ce : co;
            int rev = (e > i && first == s2) ? 1 : 0;
            if (q > e) best = GlsMove{g, i - 1, q, e, GLS_SWAP | (rev ? GLS_REV_FIRST : 0)};
            else best = GlsMove{g, q, e, i - 1, GLS_SWAP | (rev ? GLS_REV_SECOND : 0)};
        }
    }
}

template <int METRIC>
__device__ void gls_or_opt(const GlsTour& t, const int* nbr, int c, int i, GlsMove& best) {
    if (i < 1) return;
    int p = t.at(i - 1);
    for (int L = 1; L <= 3; L++) {
        int e = i + L - 1;
        if (e > t.n - 1 || L + 3 > t.n) break;
        int s2 = t.at(e), nx = t.at(t.wrap(e + 1));
        int gr = gls_d<METRIC>(t, p, c) + gls_d<METRIC>(t, s2, nx) - gls_d<METRIC>(t, p, nx);
        gls_or_insert<METRIC>(t, nbr, i, e, c, s2, gr, best);
        if (L > 1) gls_or_insert<METRIC>(t, nbr, i, e, s2, c, gr, best);
    }
}

template <int METRIC>
__device__ void gls_eval_city(const GlsTour& t, const int* nbr, int c, GlsMove& best) {
    int i = t.virt(c);
    gls_two_opt<METRIC>(t, nbr + (long long)c * GLS_K, c, i, best);
    gls_or_opt<METRIC>(t, nbr, c, i, best);
}

// gls_eval stores every active city's best improving move (gain 0: none)
// and counts them in cnt[0]; full: every city is active.
extern "C" __global__ void gls_eval(long long n, long long off, const double2* xs, const int* tour, const int* pos,
                                    const int* nbr, unsigned char* active, long long full, long long metric, int4* mv,
                                    int* mvmid, unsigned long long* cnt) {
    long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (c >= n) return;
    GlsMove best{0, 0, 0, -1, 0};
    if (full || active[c]) {
        GlsTour t{(int)n, (int)off, tour, pos, xs};
        if (metric == METRIC_EUC_2D) gls_eval_city<METRIC_EUC_2D>(t, nbr, (int)c, best);
        else if (metric == METRIC_CEIL_2D) gls_eval_city<METRIC_CEIL_2D>(t, nbr, (int)c, best);
        else gls_eval_city<METRIC_ATT>(t, nbr, (int)c, best);
    }
    mv[c] = make_int4(best.gain, best.lo, best.hi, best.flags);
    mvmid[c] = best.mid;
    active[c] = best.gain > 0;
    if (best.gain > 0) atomicAdd(&cnt[0], 1ull);
}

// gls_level_base is the first slot of level l in the per-level block arrays
// (level l has n >> 5l blocks, plus one).
__device__ __forceinline__ long long gls_level_base(long long n, int l) {
    long long b = 0;
    for (int j = 0; j < l; j++) b += (n >> (5 * j)) + 1;
    return b;
}

// gls_level is the finest level at which edges lo..hi span at most 32 blocks.
__device__ __forceinline__ int gls_level(int lo, int hi) {
    int l = 0;
    while (l < GLS_LEVELS - 1 && (hi >> (5 * l)) - (lo >> (5 * l)) >= 32) l++;
    return l;
}

// gls_mark claims each move's blocks at its level and marks, at every
// coarser level, the blocks covering it.
extern "C" __global__ void gls_mark(long long n, const int4* mv, unsigned long long* owner, unsigned char* finer) {
    long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (c >= n) return;
    int4 m = mv[c];
    if (m.x <= 0) return;
    int l = gls_level(m.y, m.z);
    unsigned long long key = ((unsigned long long)m.x << 32) | (unsigned long long)c;
    long long base = gls_level_base(n, l);
    for (int b = m.y >> (5 * l); b <= (m.z >> (5 * l)); b++) {
        if (owner[base + b] < key) atomicMax(&owner[base + b], key);
    }
    for (int j = l + 1; j < GLS_LEVELS; j++) {
        long long bj = gls_level_base(n, j);
        for (int b = m.y >> (5 * j); b <= (m.z >> (5 * j)); b++) {
            if (finer[bj + b] == 0) finer[bj + b] = 1;
        }
    }
}

// gls_wins reports whether move key of level l over edges lo..hi is
// selected: it holds its blocks and no finer move marked them.
__device__ bool gls_wins(long long n, int lo, int hi, int l, unsigned long long key, const unsigned long long* owner,
                         const unsigned char* finer) {
    long long base = gls_level_base(n, l);
    for (int b = lo >> (5 * l); b <= (hi >> (5 * l)); b++) {
        if (owner[base + b] != key || finer[base + b] != 0) return false;
    }
    return true;
}

// gls_check selects the moves that hold all their blocks, adds their gains
// (cnt[1]: moves, cnt[2]: gain) and turns on the cities at their edges.
extern "C" __global__ void gls_check(long long n, long long off, const int* tour, const int4* mv, const int* mvmid,
                                     const unsigned long long* owner, const unsigned char* finer, unsigned char* sel, unsigned char* active, unsigned long long* cnt) {
    long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (c >= n) return;
    int4 m = mv[c];
    if (m.x <= 0) return;
    int l = gls_level(m.y, m.z);
    unsigned long long key = ((unsigned long long)m.x << 32) | (unsigned long long)c;
    if (!gls_wins(n, m.y, m.z, l, key, owner, finer)) return;
    sel[c] = 1;
    atomicAdd(&cnt[1], 1ull);
    atomicAdd(&cnt[2], (unsigned long long)m.x);
    GlsTour t{(int)n, (int)off, tour, nullptr, nullptr};
    int ends[3] = {m.y, m.z, mvmid[c]};
    for (int k = 0; k < 3; k++) {
        if (ends[k] < 0) continue;
        active[t.at(ends[k])] = 1;
        active[t.at(t.wrap(ends[k] + 1))] = 1;
    }
}

// gls_new_position is where position v (lo < v <= hi) of move m goes.
__device__ __forceinline__ int gls_new_position(int4 m, int mid, int v) {
    int a = m.y + 1, b = m.z;
    if (!(m.w & GLS_SWAP)) return a + b - v;
    int len1 = mid - a + 1, len2 = b - mid;
    if (v <= mid) {
        int k = v - a;
        return a + len2 + ((m.w & GLS_REV_FIRST) ? len1 - 1 - k : k);
    }
    int k = v - mid - 1;
    return a + ((m.w & GLS_REV_SECOND) ? len2 - 1 - k : k);
}

// gls_apply moves every position's city to its place after the selected
// moves (the one move covering it, if any).
extern "C" __global__ void gls_apply(long long n, long long off, const int* tour, int* next, const int4* mv, const int* mvmid,
                                     const unsigned long long* owner, const unsigned char* sel) {
    long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (p >= n) return;
    int v = (int)(p - off < 0 ? p - off + n : p - off), nv = v;
    for (int l = 0; l < GLS_LEVELS; l++) {
        unsigned long long key = owner[gls_level_base(n, l) + (v >> (5 * l))];
        if (key == 0) continue;
        int c = (int)(key & 0xffffffffu);
        if (!sel[c]) continue;
        int4 m = mv[c];
        if (v > m.y && v <= m.z) {
            nv = gls_new_position(m, mvmid[c], v);
            break;
        }
    }
    long long np = nv + off;
    next[np >= n ? np - n : np] = tour[p];
}

// gls_pos rebuilds pos from the tour.
extern "C" __global__ void gls_pos(long long n, const int* tour, int* pos) {
    long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (p >= n) return;
    pos[tour[p]] = (int)p;
}

// gls_export writes the tour in city ids.
extern "C" __global__ void gls_export(long long n, const int* tour, const int* order, int* out) {
    long long p = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (p >= n) return;
    out[p] = order[tour[p]];
}
