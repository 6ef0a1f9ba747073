// blockils.cu: iterated local search, one warp per tour, the tour in
// shared memory. Two uses share it: a population (many tours of one
// instance, the warps of a block sharing its coordinates) and a batch
// (many small instances, a block of independent tours each; up to about
// 110 cities the block holds the instance's distance table, BI_TAB).
//
// A warp keeps its tour as an array (position -> city) and its inverse,
// 16-bit, with the queue of cities whose don't-look bit is off. Each step
// pops a city; the 32 lanes rank its 2K 2-opt moves and 20K Or-opt moves
// (segments of 1-3 cities that start or end at it, put next to one of the
// K candidates of either end, in either orientation) in float with the
// TSPLIB rounding, the best improving one is re-measured in double (the
// CPU's exact integer distances) and applied when it gains: Johnson &
// McGeoch's 2-opt + Or-opt with neighbour lists and don't-look bits (1997,
// section 3.3). Moves are made of reversals of the shorter side, so a
// move costs at most half the tour.
//
// A kick swaps two adjacent short segments after a random position (the
// segment double bridge of Martin, Otto & Felten's large-step Markov
// chain, local as LKH's segment kicks), its six end cities queued; the
// kicked tour is kept when it is no longer (better-or-equal acceptance),
// else the reversals since the kick are undone from a journal (or, when
// the journal overflowed, the tour is reloaded from global memory, where
// the best tour is kept). With stall > 0 (the batch) a walk whose best
// has not fallen for stall kicks restarts: three kicks at once, kept
// whatever they cost, the best tour staying in global memory.
//
// A launch runs until every tour has made its kick budget or the launch's
// deadline (the first warp's start plus sliceNs, on the device's global
// timer) passes, and writes each tour, its exact length and exact gain
// back; the next launch resumes from there.
//
// Exactness: every applied delta is computed with or_dist in double from
// the original coordinates, equal to solver.Instance.Dist, so the lengths
// and gains the kernel reports are exact (the host re-measures the tours
// anyway).

#include "common.cuh"

#define BI_K 8          // candidates per city (the host's lists)
#define BI_MOVES (2 * BI_K + 20 * BI_K)
#define BI_BIG 0x3fffffff
#define BI_JOURNAL 128  // reversals undone after a rejected kick
#define BI_RESTART_KICKS 3  // kicks of a stalled walk's restart

// Counters (ctr[]) shared with gpu/blockils_cuda.go.
#define BI_CTR_EVALS 0
#define BI_CTR_MOVES 1
#define BI_CTR_KICKS 2
#define BI_CTR_KEPT 3
#define BI_CTR_MOVES3 4  // of BI_CTR_MOVES: 3-opt moves

// BiWarp is one warp's tour state in shared memory.
struct BiWarp {
    unsigned short* ord;    // [n] position -> city
    unsigned short* pos;    // [n] city -> position
    unsigned short* queue;  // [n] circular queue of cities
    unsigned char* inq;     // [n] don't-look bit off
    unsigned int* jr;       // [BI_JOURNAL] reversals (i << 16 | j) since the kick
    const float2* P;        // coordinates (shared, or global when too large)
    const double2* X;       // exact coordinates (global)
    const int* NB;          // candidates, BI_K per city (global)
    const int* D;           // the distance table (shared, BI_TAB kernels)
    const int2* FX;         // each city's fixed partners, -1 for none (global; nullptr: no fixed edges)
    int n;
};

// bi_fixed tells whether the edge {a, b} is fixed: no move or kick takes
// it out.
__device__ __forceinline__ bool bi_fixed(const BiWarp& w, int a, int b) {
    if (w.FX == nullptr) return false;
    int2 f = __ldg(&w.FX[a]);
    return f.x == b || f.y == b;
}

// bi_state_bytes is one warp's tour state for n cities (the host's
// biStateBytes).
__host__ __device__ __forceinline__ int bi_state_bytes(int n) {
    return ((7 * n + 15) & ~15) + 4 * BI_JOURNAL;
}

__device__ __forceinline__ int bi_nxt(int p, int n) { return p + 1 == n ? 0 : p + 1; }
__device__ __forceinline__ int bi_prv(int p, int n) { return p == 0 ? n - 1 : p - 1; }
__device__ __forceinline__ int bi_wrap(int p, int n) {
    if (p < 0) p += n;
    if (p >= n) p -= n;
    return p;
}

// BI_TAB marks a kernel whose block holds its instance's whole distance
// table in shared memory (METRIC | BI_TAB): small instances rank and
// measure moves by table look-ups, exact, with no root in the search.
#define BI_TAB 0x100
#define BI_METRIC(M) ((M) & ~BI_TAB)

// bi_tab_bytes is the shared distance table of an n-city instance (the
// host's biTableBytes).
__host__ __device__ __forceinline__ int bi_tab_bytes(int n) { return (4 * n * n + 15) & ~15; }

// bi_d is the distance of cities a and b: the float rank (EX false) or the
// exact TSPLIB distance (EX true); with the table, both the table's.
template <int METRIC, bool EX>
__device__ __forceinline__ int bi_d(const BiWarp& w, int a, int b) {
    if (METRIC & BI_TAB) return w.D[a * w.n + b];
    if (EX) return or_dist<METRIC>(w.X[a], w.X[b]);
    float2 p = w.P[a], q = w.P[b];
    return int_dist<METRIC>(p.x, p.y, q.x, q.y);
}

// bi_rev reverses the positions i..j going forward (cyclic) with the
// warp's lanes and records the reversal in the journal (lane 0) when rec.
__device__ __forceinline__ void bi_rev(BiWarp& w, int i, int j, int lane, int& jn, bool rec) {
    int n = w.n;
    int L = j - i;
    if (L < 0) L += n;
    L += 1;
    int half = L >> 1;
    for (int k = lane; k < half; k += 32) {
        int p = i + k, q = j - k;
        if (p >= n) p -= n;
        if (q < 0) q += n;
        int a = w.ord[p], b = w.ord[q];
        w.ord[p] = b;
        w.pos[b] = p;
        w.ord[q] = a;
        w.pos[a] = q;
    }
    if (rec) {
        if (lane == 0 && jn < BI_JOURNAL) w.jr[jn] = ((unsigned)i << 16) | (unsigned)j;
        jn++;
    }
    __syncwarp();
}

// bi_rev_short reverses i..j or, when shorter, the rest of the cycle
// (j+1..i-1): the same tour read the other way round.
__device__ __forceinline__ void bi_rev_short(BiWarp& w, int i, int j, int lane, int& jn) {
    int n = w.n;
    int L = j - i;
    if (L < 0) L += n;
    L += 1;
    if (2 * L > n) bi_rev(w, bi_nxt(j, n), bi_prv(i, n), lane, jn, true);
    else bi_rev(w, i, j, lane, jn, true);
}

// bi_push turns c's don't-look bit off (lane 0 only).
__device__ __forceinline__ void bi_push(BiWarp& w, int c, int head, int& qsize) {
    if (w.inq[c]) return;
    w.inq[c] = 1;
    int t = head + qsize;
    if (t >= w.n) t -= w.n;
    w.queue[t] = c;
    qsize++;
}

// bi_seg decodes Or-opt move m (m >= 2K) around position pc: the segment's
// first position a and length l, whether its end (else its start) goes
// next to candidate j of that end city, and on which side of it.
__device__ __forceinline__ void bi_seg(int m, int pc, int n, int& a, int& l, int& end, int& j, int& side) {
    m -= 2 * BI_K;
    int v = m / (4 * BI_K);
    int r = m % (4 * BI_K);
    end = r / (2 * BI_K);
    j = (r % (2 * BI_K)) >> 1;
    side = r & 1;
    switch (v) {
        case 0: a = pc; l = 1; break;
        case 1: a = pc; l = 2; break;
        case 2: a = pc - 1; l = 2; break;
        case 3: a = pc; l = 3; break;
        default: a = pc - 2; l = 3; break;
    }
    a = bi_wrap(a, n);
}

// bi_eval returns the delta of move m around city c at position pc
// (BI_BIG when m is no move here). m < 2K: 2-opt with candidate m % K
// after (m / K == 0) or before c; then the Or-opt moves.
template <int METRIC, bool EX>
__device__ __forceinline__ int bi_eval(const BiWarp& w, int c, int pc, int m) {
    const int n = w.n;
    if (m < 2 * BI_K) {
        int t3 = __ldg(&w.NB[c * BI_K + (m % BI_K)]);
        int p3 = w.pos[t3];
        int t2, t4;
        if (m < BI_K) {
            t2 = w.ord[bi_nxt(pc, n)];
            t4 = w.ord[bi_nxt(p3, n)];
        } else {
            t2 = w.ord[bi_prv(pc, n)];
            t4 = w.ord[bi_prv(p3, n)];
        }
        if (t3 == t2 || t4 == c || bi_fixed(w, c, t2) || bi_fixed(w, t3, t4)) return BI_BIG;
        return bi_d<METRIC, EX>(w, c, t3) + bi_d<METRIC, EX>(w, t2, t4) - bi_d<METRIC, EX>(w, c, t2) -
               bi_d<METRIC, EX>(w, t3, t4);
    }
    int a, l, end, j, side;
    bi_seg(m, pc, n, a, l, end, j, side);
    if (l == 1 && end) return BI_BIG;  // a single city has one end
    int b = bi_wrap(a + l - 1, n);
    int s1 = w.ord[a], s2 = w.ord[b];
    int e = end ? s2 : s1, o = end ? s1 : s2;
    int x = __ldg(&w.NB[e * BI_K + j]);
    int px = w.pos[x];
    int rx = px - a;
    if (rx < 0) rx += n;
    if (rx < l) return BI_BIG;
    int py = side ? bi_prv(px, n) : bi_nxt(px, n);
    int ry = py - a;
    if (ry < 0) ry += n;
    if (ry < l) return BI_BIG;
    int y = w.ord[py];
    int p = w.ord[bi_prv(a, n)], nx = w.ord[bi_nxt(b, n)];
    if (bi_fixed(w, p, s1) || bi_fixed(w, s2, nx) || bi_fixed(w, x, y)) return BI_BIG;
    int g = bi_d<METRIC, EX>(w, p, s1) + bi_d<METRIC, EX>(w, s2, nx) - bi_d<METRIC, EX>(w, p, nx);
    return bi_d<METRIC, EX>(w, e, x) + bi_d<METRIC, EX>(w, o, y) - bi_d<METRIC, EX>(w, x, y) - g;
}

// bi_apply makes move m around c (all lanes), queues the cities at its
// changed edges (lane 0) and returns the new queue size (every lane).
__device__ int bi_apply(BiWarp& w, int c, int pc, int m, int lane, int head, int qsize, int& jn) {
    const int n = w.n;
    int touched[6];
    int nt;
    if (m < 2 * BI_K) {
        int t3 = __ldg(&w.NB[c * BI_K + (m % BI_K)]);
        int p3 = w.pos[t3];
        int i, j;
        if (m < BI_K) {  // c t2 ... t3 t4: reverse t2..t3
            touched[2] = w.ord[bi_nxt(pc, n)];
            touched[3] = w.ord[bi_nxt(p3, n)];
            i = bi_nxt(pc, n);
            j = p3;
        } else {  // t2 c ... t4 t3: reverse c..t4
            touched[2] = w.ord[bi_prv(pc, n)];
            touched[3] = w.ord[bi_prv(p3, n)];
            i = pc;
            j = bi_prv(p3, n);
        }
        touched[0] = c;
        touched[1] = t3;
        nt = 4;
        __syncwarp();
        bi_rev_short(w, i, j, lane, jn);
    } else {
        int a, l, end, jj, side;
        bi_seg(m, pc, n, a, l, end, jj, side);
        int b = bi_wrap(a + l - 1, n);
        int s1 = w.ord[a], s2 = w.ord[b];
        int e = end ? s2 : s1;
        int x = __ldg(&w.NB[e * BI_K + jj]);
        int px = w.pos[x];
        int py = side ? bi_prv(px, n) : bi_nxt(px, n);
        // the segment goes between u and its successor v
        int pu = side ? py : px;
        int u = w.ord[pu];
        bool fwd = (u == x) == (end == 0);  // s1 next to u
        touched[0] = s1;
        touched[1] = s2;
        touched[2] = w.ord[bi_prv(a, n)];
        touched[3] = w.ord[bi_nxt(b, n)];
        touched[4] = x;
        touched[5] = w.ord[py];
        nt = 6;
        int pv = bi_nxt(pu, n);
        int du = pu - b, dv = a - pv;
        if (du < 0) du += n;
        if (dv < 0) dv += n;
        __syncwarp();
        if (du <= dv) {
            // [seg][b+1 .. u] -> [b+1 .. u][seg]
            bi_rev(w, a, pu, lane, jn, true);
            bi_rev(w, a, bi_wrap(pu - l, n), lane, jn, true);
            if (fwd) bi_rev(w, bi_wrap(pu - l + 1, n), pu, lane, jn, true);
        } else {
            // [v .. a-1][seg] -> [seg][v .. a-1]
            bi_rev(w, pv, b, lane, jn, true);
            bi_rev(w, bi_wrap(pv + l, n), b, lane, jn, true);
            if (fwd) bi_rev(w, pv, bi_wrap(pv + l - 1, n), lane, jn, true);
        }
    }
    if (lane == 0) {
#pragma unroll
        for (int k = 0; k < 6; k++)
            if (k < nt) bi_push(w, touched[k], head, qsize);
    }
    __syncwarp();
    return __shfl_sync(0xffffffffu, qsize, 0);
}

// Sequential 3-opt moves from city t1 (Lin & Kernighan's depth 3 on the
// BI3_K nearest candidates, partial gains positive), as or-ils's windows
// make them: t2 next to t1, t3 near t2, t4 next to t3, t5 near t4, t6 next
// to t5. The removed edges cut the cycle into three segments B C D (D
// joined to the rest, A, round the cycle), and the move is kept where the
// added edges t2t3, t4t5, t6t1 are one of the four pure reconnections
// A B' C' D, A C B D, A C' B D, A C B' D.
#define BI3_K 5
#define BI3_MOVES (8 * BI3_K * BI3_K)

// bi_first is the first position of the edge between adjacent positions p
// and q (the edge n-1, 0 is n-1's).
__device__ __forceinline__ int bi_first(int p, int q, int n) { return q == bi_nxt(p, n) ? p : q; }

// bi3_edge tells whether {u, v} is one of the three edges of e.
__device__ __forceinline__ bool bi3_edge(const int* e, int u, int v) {
    return (e[0] == u && e[1] == v) || (e[1] == u && e[0] == v) || (e[2] == u && e[3] == v) ||
           (e[3] == u && e[2] == v) || (e[4] == u && e[5] == v) || (e[5] == u && e[4] == v);
}

// bi3_decode decodes 3-opt move m (0 <= m < BI3_MOVES) from city c at
// position pc: the segments B = base..base+y, C = base+y+1..base+z (cyclic),
// the reconnection type (0: B'C', 1: CB, 2: C'B, 3: CB') and the delta. It
// returns false when m is no improving move here.
template <int METRIC, bool EX>
__device__ __forceinline__ bool bi3_decode(const BiWarp& w, int c, int pc, int m, int& base, int& y, int& z,
                                           int& type, int& delta) {
    const int n = w.n;
    int d6 = m & 1;
    m >>= 1;
    int j5 = m % BI3_K;
    m /= BI3_K;
    int d4 = m & 1;
    m >>= 1;
    int j3 = m % BI3_K;
    int dir = m / BI3_K;
    int p2 = dir ? bi_prv(pc, n) : bi_nxt(pc, n);
    int t2 = w.ord[p2];
    if (bi_fixed(w, c, t2)) return false;
    int t3 = __ldg(&w.NB[t2 * BI_K + j3]);
    int g = bi_d<METRIC, EX>(w, c, t2) - bi_d<METRIC, EX>(w, t2, t3);
    if (g <= 0) return false;
    int p3 = w.pos[t3];
    int p4 = d4 ? bi_prv(p3, n) : bi_nxt(p3, n);
    int t4 = w.ord[p4];
    if (bi_fixed(w, t3, t4)) return false;
    int t5 = __ldg(&w.NB[t4 * BI_K + j5]);
    g += bi_d<METRIC, EX>(w, t3, t4) - bi_d<METRIC, EX>(w, t4, t5);
    if (g <= 0) return false;
    int p5 = w.pos[t5];
    int p6 = d6 ? bi_prv(p5, n) : bi_nxt(p5, n);
    int t6 = w.ord[p6];
    if (bi_fixed(w, t5, t6)) return false;
    delta = bi_d<METRIC, EX>(w, t6, c) - bi_d<METRIC, EX>(w, t5, t6) - g;
    if (delta >= 0) return false;
    int e1 = bi_first(pc, p2, n), e2 = bi_first(p3, p4, n), e3 = bi_first(p5, p6, n);
    if (e1 == e2 || e1 == e3 || e2 == e3) return false;
    base = bi_nxt(e1, n);
    int r2 = e2 - base, r3 = e3 - base;
    if (r2 < 0) r2 += n;
    if (r3 < 0) r3 += n;
    y = min(r2, r3);
    z = max(r2, r3);
    int added[6] = {t2, t3, t4, t5, t6, c};
    int a1 = w.ord[e1], b1 = w.ord[base], b2 = w.ord[bi_wrap(base + y, n)], c1 = w.ord[bi_wrap(base + y + 1, n)];
    int c2 = w.ord[bi_wrap(base + z, n)], dd = w.ord[bi_wrap(base + z + 1, n)];
    if (bi3_edge(added, a1, b2) && bi3_edge(added, b1, c2) && bi3_edge(added, c1, dd)) type = 0;
    else if (bi3_edge(added, b2, dd) && bi3_edge(added, a1, c1) && bi3_edge(added, c2, b1)) type = 1;
    else if (bi3_edge(added, b2, dd) && bi3_edge(added, a1, c2) && bi3_edge(added, c1, b1)) type = 2;
    else if (bi3_edge(added, b1, dd) && bi3_edge(added, a1, c1) && bi3_edge(added, c2, b2)) type = 3;
    else return false;
    return true;
}

// bi3_apply makes 3-opt move m around c (all lanes; m was checked) and
// queues the six cities at its edges (lane 0); it returns the queue size.
template <int METRIC>
__device__ int bi3_apply(BiWarp& w, int c, int pc, int m, int lane, int head, int qsize, int& jn) {
    const int n = w.n;
    int base, y, z, type, delta;
    bi3_decode<METRIC, true>(w, c, pc, m, base, y, z, type, delta);
    int e1 = bi_prv(base, n);
    int t[6] = {w.ord[e1], w.ord[base], w.ord[bi_wrap(base + y, n)], w.ord[bi_wrap(base + y + 1, n)],
                w.ord[bi_wrap(base + z, n)], w.ord[bi_wrap(base + z + 1, n)]};
    int lc = z - y;
    __syncwarp();
    if (type == 0) {
        bi_rev(w, base, bi_wrap(base + y, n), lane, jn, true);
        bi_rev(w, bi_wrap(base + y + 1, n), bi_wrap(base + z, n), lane, jn, true);
    } else {
        bi_rev(w, base, bi_wrap(base + z, n), lane, jn, true);                                      // C' B'
        if (type != 3) bi_rev(w, bi_wrap(base + lc, n), bi_wrap(base + z, n), lane, jn, true);      // B
        if (type != 2) bi_rev(w, base, bi_wrap(base + lc - 1, n), lane, jn, true);                  // C
    }
    if (lane == 0) {
#pragma unroll
        for (int k = 0; k < 6; k++) bi_push(w, t[k], head, qsize);
    }
    __syncwarp();
    return __shfl_sync(0xffffffffu, qsize, 0);
}

__device__ __forceinline__ unsigned long long bi_timer() {
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return t;
}

// bi_search runs the queue empty (or until the deadline, checked every 64
// steps) and returns the exact change of length (<= 0).
template <int METRIC>
__device__ long long bi_search(BiWarp& w, int lane, int& head, int& qsize, int& jn, unsigned long long end, bool or3,
                               unsigned long long& evals, unsigned long long& moves, unsigned long long& moves3, bool& late) {
    long long delta = 0;
    int steps = 0;
    while (qsize > 0) {
        if ((++steps & 63) == 0) {
            int t = lane == 0 ? bi_timer() >= end : 0;
            if (__shfl_sync(0xffffffffu, t, 0)) {
                late = true;
                break;
            }
        }
        int c = w.queue[head];
        __syncwarp();
        if (lane == 0) w.inq[c] = 0;
        head = bi_nxt(head, w.n);
        qsize--;
        int pc = w.pos[c];
        unsigned long long best = ~0ull;
        for (int m = lane; m < BI_MOVES; m += 32) {
            int d = bi_eval<METRIC, false>(w, c, pc, m);
            if (d < 0) best = min(best, ((unsigned long long)(unsigned)(d + BI_BIG) << 32) | (unsigned)m);
        }
        evals += BI_MOVES;
        for (int o = 16; o > 0; o >>= 1) best = min(best, __shfl_xor_sync(0xffffffffu, best, o));
        if (best == ~0ull && or3) {
            // the 3-opt moves only where no 2-opt or Or-opt move gains
            for (int m = lane; m < BI3_MOVES; m += 32) {
                int base, y, z, type, d;
                if (bi3_decode<METRIC, false>(w, c, pc, m, base, y, z, type, d))
                    best = min(best, ((unsigned long long)(unsigned)(d + BI_BIG) << 32) | (unsigned)(BI_MOVES + m));
            }
            evals += BI3_MOVES;
            for (int o = 16; o > 0; o >>= 1) best = min(best, __shfl_xor_sync(0xffffffffu, best, o));
        }
        if (best == ~0ull) continue;
        int m = (int)(best & 0xffffffffu);
        // exact, the same in every lane; float rounding may leave no gain
        if (m < BI_MOVES) {
            int d = bi_eval<METRIC, true>(w, c, pc, m);
            if (d >= 0) continue;
            delta += d;
            qsize = bi_apply(w, c, pc, m, lane, head, qsize, jn);
        } else {
            int base, y, z, type, d;
            if (!bi3_decode<METRIC, true>(w, c, pc, m - BI_MOVES, base, y, z, type, d)) continue;
            delta += d;
            qsize = bi3_apply<METRIC>(w, c, pc, m - BI_MOVES, lane, head, qsize, jn);
            moves3++;
        }
        moves++;
    }
    __syncwarp();
    return delta;
}

// bi_kick swaps the segments B = p0+1..p0+la and C = p0+la+1..p0+la+lb
// and returns the exact delta; the six cities at its edges are queued. A
// kick that would take out a fixed edge leaves the tour as it is.
template <int METRIC>
__device__ int bi_kick(BiWarp& w, int lane, uint32_t r0, uint32_t r1, uint32_t r2, int maxSeg, int head, int& qsize,
                       int& jn) {
    const int n = w.n;
    int ms = max(1, min(maxSeg, (n - 2) / 2));
    int la = 1 + bounded(r1, ms), lb = 1 + bounded(r2, ms);
    int i0 = bounded(r0, n);
    int pb1 = bi_wrap(i0 + 1, n), pb2 = bi_wrap(i0 + la, n), pc1 = bi_wrap(i0 + la + 1, n);
    int pc2 = bi_wrap(i0 + la + lb, n), pd = bi_wrap(i0 + la + lb + 1, n);
    int a = w.ord[i0], b1 = w.ord[pb1], b2 = w.ord[pb2], c1 = w.ord[pc1], c2 = w.ord[pc2], dd = w.ord[pd];
    if (bi_fixed(w, a, b1) || bi_fixed(w, b2, c1) || bi_fixed(w, c2, dd)) return 0;
    int delta = bi_d<METRIC, true>(w, a, c1) + bi_d<METRIC, true>(w, c2, b1) + bi_d<METRIC, true>(w, b2, dd) -
                bi_d<METRIC, true>(w, a, b1) - bi_d<METRIC, true>(w, b2, c1) - bi_d<METRIC, true>(w, c2, dd);
    __syncwarp();
    bi_rev(w, pb1, pc2, lane, jn, true);                          // C^r B^r
    bi_rev(w, pb1, bi_wrap(i0 + lb, n), lane, jn, true);          // C
    bi_rev(w, bi_wrap(i0 + lb + 1, n), pc2, lane, jn, true);      // B
    if (lane == 0) {
        int t[6] = {a, b1, b2, c1, c2, dd};
#pragma unroll
        for (int k = 0; k < 6; k++) bi_push(w, t[k], head, qsize);
    }
    __syncwarp();
    qsize = __shfl_sync(0xffffffffu, qsize, 0);
    return delta;
}

// bi_store writes the warp's tour to T (global city ids of the instance).
__device__ __forceinline__ void bi_store(const BiWarp& w, int* T, int lane) {
    for (int i = lane; i < w.n; i += 32) T[i] = w.ord[i];
    __syncwarp();
}

// bi_load reads the tour from T and sets the positions.
__device__ __forceinline__ void bi_load(BiWarp& w, const int* T, int lane) {
    for (int i = lane; i < w.n; i += 32) {
        int c = T[i];
        w.ord[i] = c;
        w.pos[c] = i;
    }
    __syncwarp();
}

template <int METRIC>
__device__ void block_ils_impl(const float2* __restrict__ xy, const double2* __restrict__ xyd,
                               const int* __restrict__ nb, const int2* __restrict__ fx,
                               const long long* __restrict__ instOff,
                               const int* __restrict__ instN, const long long* __restrict__ tourOff, int* tours,
                               long long* lens, long long* gains, long long* kicksDone, long long kickBudget,
                               unsigned long long seed, long long sliceNs, unsigned long long* clock, int T,
                               int shareCoords, int coordsShared, int maxN, int maxSeg, bool or3, int stall,
                               unsigned long long* ctr, int* ring, long long* ringN, int ringR,
                               const unsigned int* __restrict__ ids, const long long* __restrict__ budgets,
                               int* walk, long long* walkLen, int* walkSince) {
    extern __shared__ __align__(16) unsigned char bi_smem[];
    const int lane = threadIdx.x & 31, wib = threadIdx.x >> 5, wpb = blockDim.x >> 5;
    const int g = blockIdx.x * wpb + wib;
    __shared__ unsigned long long t0;
    if (threadIdx.x == 0) {
        unsigned long long now = bi_timer();
        unsigned long long old = atomicCAS(clock, 0ull, now);
        t0 = old == 0 ? now : old;
    }
    // coordinates: one copy per block (every warp a tour of one instance)
    // or per warp, in front of the warps' tour states
    int coordBytes = coordsShared ? ((8 * maxN + 15) & ~15) : 0;
    unsigned char* base = bi_smem;
    float2* P = nullptr;
    const int* D = nullptr;
    if (METRIC & BI_TAB) {
        // the block's instance's exact distances, in place of coordinates
        int g0 = blockIdx.x * wpb;
        long long off = instOff[g0];
        int n0 = instN[g0];
        int* Dw = (int*)base;
        for (int k = threadIdx.x; k < n0 * n0; k += blockDim.x) {
            int i = k / n0, j = k - i * n0;
            Dw[k] = or_dist<BI_METRIC(METRIC)>(xyd[off + i], xyd[off + j]);
        }
        D = Dw;
        base += bi_tab_bytes(maxN);
        coordBytes = 0;
    } else if (shareCoords) {
        P = (float2*)base;
        base += coordBytes;
        coordBytes = 0;
        if (coordsShared) {
            int g0 = blockIdx.x * wpb;
            long long off = instOff[g0];
            int n0 = instN[g0];
            for (int i = threadIdx.x; i < n0; i += blockDim.x) P[i] = xy[off + i];
        }
    }
    __syncthreads();
    if (g >= T) return;
    unsigned char* mine = base + (size_t)wib * (coordBytes + bi_state_bytes(maxN));
    BiWarp w;
    w.n = instN[g];
    const long long off = instOff[g];
    if (!shareCoords && coordsShared) {
        float2* Pw = (float2*)mine;
        for (int i = lane; i < w.n; i += 32) Pw[i] = xy[off + i];
        P = Pw;
        mine += coordBytes;
    }
    w.P = coordsShared ? P : xy + off;
    w.D = D;
    w.X = xyd + off;
    w.NB = nb + off * BI_K;
    w.FX = fx == nullptr ? nullptr : fx + off;
    w.ord = (unsigned short*)mine;
    w.pos = w.ord + maxN;
    w.queue = w.pos + maxN;
    w.inq = (unsigned char*)(w.queue + maxN);
    w.jr = (unsigned int*)(mine + ((7 * maxN + 15) & ~15));
    const int n = w.n;
    int* Tg = tours + tourOff[g];
    const unsigned long long end = t0 + (unsigned long long)sliceNs;
    // with walk, a launch ends between kicks alone and the next resumes the
    // walk where it stood, so that the tours do not depend on the launches
    const unsigned long long searchEnd = walk != nullptr ? ~0ull : end;
    const bool resume = walk != nullptr && walkSince[g] >= 0;

    unsigned long long evals = 0, moves = 0, moves3 = 0, kicks = 0, kept = 0;
    int head = 0, qsize = 0, jn = 0;
    bool late = false;
    long long len, len0, best;
    int since = 0;  // kicks since the walk's best last fell
    if (resume) {
        bi_load(w, walk + tourOff[g], lane);
        for (int i = lane; i < n; i += 32) w.inq[i] = 0;
        __syncwarp();
        len = walkLen[g];
        best = lens[g];
        len0 = best;
        since = walkSince[g];
    } else {
        bi_load(w, Tg, lane);
        for (int i = lane; i < n; i += 32) {
            w.inq[i] = 1;
            w.queue[i] = w.ord[i];
        }
        __syncwarp();
        qsize = n;
        len = 0;
        for (int i = lane; i < n; i += 32) len += bi_d<METRIC, true>(w, w.ord[i], w.ord[bi_nxt(i, n)]);
        for (int o = 16; o > 0; o >>= 1) len += __shfl_xor_sync(0xffffffffu, len, o);
        len0 = len;
        len += bi_search<METRIC>(w, lane, head, qsize, jn, searchEnd, or3, evals, moves, moves3, late);
        // best: the walk's shortest tour, kept in Tg (the current one but
        // after a restart)
        best = len;
        if (len < len0) bi_store(w, Tg, lane);  // the restore point of the kicks
    }
    long long done = kicksDone[g];
    const uint32_t key = stream_key(seed, ids != nullptr ? ids[g] : (uint32_t)g);
    if (budgets != nullptr) kickBudget = min(kickBudget, budgets[g]);
    while (!late && done < kickBudget) {
        int t = lane == 0 ? bi_timer() >= end : 0;
        if (__shfl_sync(0xffffffffu, t, 0)) break;
        // a walk stalled for stall kicks restarts: BI_RESTART_KICKS kicks
        // at once, kept whatever they cost
        const bool restart = stall > 0 && since >= stall;
        if (restart && ring != nullptr) {
            // the stalled walk's tour goes to the ring, for the host's
            // population
            long long r = ringN[g];
            int* dst = ring + tourOff[g] * ringR + (r % ringR) * n;
            for (int i = lane; i < n; i += 32) dst[i] = w.ord[i];
            __syncwarp();
            if (lane == 0) ringN[g] = r + 1;
        }
        jn = 0;
        long long d = 0;
        const long long nk = restart ? min((long long)BI_RESTART_KICKS, kickBudget - done) : 1;
        for (int r = 0; r < nk; r++) {
            uint32_t c0 = (uint32_t)done * 3u;
            d += bi_kick<METRIC>(w, lane, ctr_rand(key, c0), ctr_rand(key, c0 + 1), ctr_rand(key, c0 + 2), maxSeg,
                                 head, qsize, jn);
            done++;
            kicks++;
        }
        d += bi_search<METRIC>(w, lane, head, qsize, jn, searchEnd, or3, evals, moves, moves3, late);
        since++;
        if (restart || d <= 0) {
            len += d;
            kept++;
            if (restart) since = 0;
            if (len < best) {
                best = len;
                since = 0;
                bi_store(w, Tg, lane);
            }
        } else {
            if (jn <= BI_JOURNAL) {
                for (int k = jn - 1; k >= 0; k--) {
                    unsigned v = w.jr[k];
                    int dummy = 0;
                    bi_rev(w, (int)(v >> 16), (int)(v & 0xffffu), lane, dummy, false);
                }
            } else {
                bi_load(w, Tg, lane);
                len = best;
            }
        }
        if (qsize > 0) {  // a cut search left cities queued
            for (int i = lane; i < n; i += 32) w.inq[i] = 0;
            __syncwarp();
            head = 0;
            qsize = 0;
        }
    }
    // the walk's tour of the best length is the search's at its end; in
    // work mode a launch that ends before the budget keeps the walk's
    // first best, as one long launch would
    if (len == best && (walk == nullptr || done >= kickBudget)) bi_store(w, Tg, lane);
    if (walk != nullptr) {
        bi_store(w, walk + tourOff[g], lane);
        if (lane == 0) {
            walkLen[g] = len;
            walkSince[g] = since;
        }
    }
    if (lane == 0) {
        lens[g] = best;
        gains[g] += len0 - best;
        kicksDone[g] = done;
        atomicAdd(&ctr[BI_CTR_EVALS], evals);
        atomicAdd(&ctr[BI_CTR_MOVES], moves);
        atomicAdd(&ctr[BI_CTR_KICKS], kicks);
        atomicAdd(&ctr[BI_CTR_KEPT], kept);
        atomicAdd(&ctr[BI_CTR_MOVES3], moves3);
    }
}

// block_ils_<metric>: one warp per tour g < T, blockDim.x / 32 warps a
// block. Tour g is the instance at instOff[g] (coordinates, exact
// coordinates, BI_K candidates per city, local ids; with fx, each city's
// two fixed partners, -1 for none) of instN[g] cities, stored at
// tours[tourOff[g]...]. shareCoords: every warp of a block holds
// a tour of the block's first warp's instance, whose coordinates the block
// keeps once; coordsShared: the coordinates fit shared memory (else they
// are read from global memory). maxN sizes the shared state (every n <=
// maxN). The launch ends at the deadline clock[0] + sliceNs (clock[0] = 0:
// set by the first block) or when tour g has made kickBudget kicks
// (kicksDone[g], resumed; budgets[g] where given, at most kickBudget). Tour g's kicks draw
// on the stream of ids[g] (g without ids). With walk (work mode), the
// deadline is checked between kicks alone and each walk's state (its tour
// at walk[tourOff[g]...], walkLen[g], walkSince[g]: -1 before the first
// launch) is kept for the next launch, so that a walk does not depend on
// how its kicks are cut into launches. With ring, a walk that restarts first writes
// its tour to slot ringN[g] % ringR of tour g's ring (ringR tours from
// ring[tourOff[g] * ringR]) and counts it in ringN[g]. One kernel per metric keeps each one's
// registers to its own arithmetic.
#define BI_KERNEL(NAME, METRIC)                                                                                      \
    extern "C" __global__ void __launch_bounds__(256, BI_MIN_BLOCKS)                                                 \
        NAME(const float2* __restrict__ xy, const double2* __restrict__ xyd, const int* __restrict__ nb,            \
             const int2* __restrict__ fx, const long long* __restrict__ instOff, const int* __restrict__ instN,                                  \
             const long long* __restrict__ tourOff, int* tours, long long* lens, long long* gains,                   \
             long long* kicksDone, long long kickBudget, unsigned long long seed, long long sliceNs,                 \
             unsigned long long* clock, long long T, long long shareCoords, long long coordsShared, long long maxN,  \
             long long maxSeg, long long or3, long long stall, unsigned long long* ctr, int* ring,                   \
             long long* ringN, long long ringR, const unsigned int* __restrict__ ids,                                \
             const long long* __restrict__ budgets, int* walk, long long* walkLen, int* walkSince) {                 \
        block_ils_impl<METRIC>(xy, xyd, nb, fx, instOff, instN, tourOff, tours, lens, gains, kicksDone, kickBudget,     \
                               seed, sliceNs, clock, (int)T, (int)shareCoords, (int)coordsShared, (int)maxN,         \
                               (int)maxSeg, or3 != 0, (int)stall, ctr, ring, ringN, (int)ringR, ids, budgets, walk,  \
                               walkLen, walkSince);                                                                  \
    }
// BI_MIN_BLOCKS: blocks of 256 threads an SM holds at once, within the
// registers (64 a thread).
#define BI_MIN_BLOCKS 4
BI_KERNEL(block_ils_euc, METRIC_EUC_2D)
BI_KERNEL(block_ils_ceil, METRIC_CEIL_2D)
BI_KERNEL(block_ils_att, METRIC_ATT)
BI_KERNEL(block_ils_tab_euc, METRIC_EUC_2D | BI_TAB)
BI_KERNEL(block_ils_tab_ceil, METRIC_CEIL_2D | BI_TAB)
BI_KERNEL(block_ils_tab_att, METRIC_ATT | BI_TAB)
