// oropt.cu: iterated local search (2-opt + Or-opt with neighbour lists and
// don't-look bits, segment-local double-bridge kicks) run in thousands of
// tour windows at once.
//
// The positions off..off+span-1 (cyclic; span = n: the whole tour) are cut
// into W windows of consecutive positions (offset shifted every round by
// the host). A window's cities form a path whose two end
// cities stay where they are, so every window can be rearranged
// independently of all the others and the tour stays a tour: LKH's
// tour-segment partitioning (Helsgaun, "An effective implementation of
// K-opt moves for the Lin-Kernighan TSP heuristic", 2006, section 5.3,
// SEGMENT partitioning), with Johnson & McGeoch's Or-opt/2-opt local
// search (1997, section 3.3: neighbour lists, don't-look bits) inside.
//
// One warp owns one window, or one replica of it searched from another
// random stream (the commit kernel keeps the best replica). The window
// lives in shared memory (coordinates, the path, neighbour lists built by
// brute force, the queue of cities whose don't-look bit is off); each
// step pops a city, the 32 lanes evaluate its 2K 2-opt and 20K Or-opt
// moves, and where none gains its 8·K3² sequential 3-opt moves; the best
// improving one is applied with lane-parallel reversals. A kick is a
// double bridge of two adjacent segments inside the window, kept when no
// longer (Martin, Otto & Felten's large-step Markov chain with acceptance
// of ties).
//
// Exactness: distances are the TSPLIB integer distances computed in double
// precision with explicitly rounded operations (no fused multiply-add), so
// they equal solver.Instance.Dist; every gain a window reports is the exact
// change of the tour's length.

#include "common.cuh"

#define OR_K 8          // neighbours per city inside a window
#define OR_BIG 0x3fffffff

// Window state in shared memory, one per warp.
struct OrWin {
    double2* xy;           // [L] coordinates of local city i
    unsigned short* ord;   // [L] position -> local city
    unsigned short* pos;   // [L] local city -> position
    unsigned short* bak;   // [L] ord before the current kick
    unsigned short* queue; // [L] circular queue of local cities
    unsigned short* nb;    // [L*OR_K] neighbours of local city i
    unsigned char* inq;    // [L] don't-look bit off
};

// or_win_bytes is the shared memory of one window of at most L cities
// (the host computes the same: orWindowBytes).
__host__ __device__ __forceinline__ int or_win_bytes(int L) {
    int b = 16 * L + 2 * L * 4 + 2 * L * OR_K + L;
    return (b + 15) & ~15;
}

__device__ __forceinline__ OrWin or_carve(unsigned char* base, int L) {
    OrWin w;
    w.xy = (double2*)base;
    unsigned short* u = (unsigned short*)(base + 16 * L);
    w.ord = u;
    w.pos = u + L;
    w.bak = u + 2 * L;
    w.queue = u + 3 * L;
    w.nb = u + 4 * L;
    w.inq = (unsigned char*)(u + 4 * L + L * OR_K);
    return w;
}

// or_window returns the first position (before the offset) and size of
// window w of W over n positions: sizes differ by at most one.
__device__ __forceinline__ void or_window(long long n, int W, int w, long long* first, int* size) {
    long long a = n * w / W, b = n * (w + 1) / W;
    *first = a;
    *size = (int)(b - a);
}

// or_rev reverses the path positions i..j (i <= j) with the warp's lanes.
__device__ __forceinline__ void or_rev(OrWin& s, int i, int j, int lane) {
    int half = (j - i + 1) >> 1;
    for (int k = lane; k < half; k += 32) {
        int a = s.ord[i + k], b = s.ord[j - k];
        s.ord[i + k] = b;
        s.pos[b] = i + k;
        s.ord[j - k] = a;
        s.pos[a] = j - k;
    }
    __syncwarp();
}

// or_push turns the don't-look bit of c off (lane 0 only; the caller
// broadcasts the new queue size).
__device__ __forceinline__ void or_push(OrWin& s, int c, int head, int& qsize, int size) {
    if (s.inq[c]) return;
    s.inq[c] = 1;
    int t = head + qsize;
    if (t >= size) t -= size;
    s.queue[t] = c;
    qsize++;
}

// or_segment decodes Or-opt move m (m >= 2K) around position pc: the
// segment a..b, whether its end (else its start) goes next to neighbour j
// of that city, and on which side of the neighbour.
__device__ __forceinline__ void or_segment(int m, int pc, int& a, int& b, int& end, int& j, int& side) {
    m -= 2 * OR_K;
    int v = m / (4 * OR_K);
    int r = m % (4 * OR_K);
    end = r / (2 * OR_K);
    j = (r % (2 * OR_K)) >> 1;
    side = r & 1;
    switch (v) {
        case 0: a = pc; b = pc; break;
        case 1: a = pc; b = pc + 1; break;
        case 2: a = pc - 1; b = pc; break;
        case 3: a = pc; b = pc + 2; break;
        default: a = pc - 2; b = pc; break;
    }
}

// or_eval returns the delta of candidate move m around city c at position
// pc (OR_BIG when m is no move here). Moves: m < 2K: 2-opt with neighbour
// m % K on side m / K; then Or-opt: 5 segments of 1-3 cities that start
// or end at c, either end next to one of its K neighbours, on either side.
template <int METRIC>
__device__ __forceinline__ int or_eval(const OrWin& s, int size, int c, int pc, int m) {
    if (m < 2 * OR_K) {
        int dir = m / OR_K;
        int t3 = s.nb[c * OR_K + (m % OR_K)];
        int p3 = s.pos[t3];
        int t2, t4;
        if (dir == 0) {
            if (pc >= size - 1 || p3 >= size - 1 || p3 == pc + 1 || p3 + 1 == pc) return OR_BIG;
            t2 = s.ord[pc + 1];
            t4 = s.ord[p3 + 1];
        } else {
            if (pc <= 0 || p3 <= 0 || p3 == pc - 1 || p3 - 1 == pc) return OR_BIG;
            t2 = s.ord[pc - 1];
            t4 = s.ord[p3 - 1];
        }
        double2 x1 = s.xy[c], x2 = s.xy[t2], x3 = s.xy[t3], x4 = s.xy[t4];
        return or_dist<METRIC>(x1, x3) + or_dist<METRIC>(x2, x4) - or_dist<METRIC>(x1, x2) - or_dist<METRIC>(x3, x4);
    }
    int a, b, end, j, side;
    or_segment(m, pc, a, b, end, j, side);
    if (a == b && end) return OR_BIG;  // a single city has one end
    if (a < 1 || b > size - 2) return OR_BIG;
    int s1 = s.ord[a], s2 = s.ord[b];
    int e = end ? s2 : s1, o = end ? s1 : s2;
    int x = s.nb[e * OR_K + j];
    int px = s.pos[x];
    if (px >= a && px <= b) return OR_BIG;
    int py = side ? px - 1 : px + 1;
    if (py < 0 || py > size - 1 || (py >= a && py <= b)) return OR_BIG;
    int y = s.ord[py];
    int p = s.ord[a - 1], nx = s.ord[b + 1];
    double2 xp = s.xy[p], xs1 = s.xy[s1], xs2 = s.xy[s2], xn = s.xy[nx];
    int g = or_dist<METRIC>(xp, xs1) + or_dist<METRIC>(xs2, xn) - or_dist<METRIC>(xp, xn);
    double2 xe = s.xy[e], xo = s.xy[o], xx = s.xy[x], xyy = s.xy[y];
    return or_dist<METRIC>(xe, xx) + or_dist<METRIC>(xo, xyy) - or_dist<METRIC>(xx, xyy) - g;
}

#define OR_MOVES (2 * OR_K + 20 * OR_K)

// Sequential 3-opt moves from city t1 (Lin & Kernighan's depth 3, every
// step on the K3 nearest of the window's neighbours, partial gains
// positive): t2 next to t1, t3 near t2, t4 next to t3, t5 near t4, t6 next
// to t5; the three removed edges cut the path into A B C D, and the move
// is kept where the added edges t2t3, t4t5, t6t1 are those of one of the
// four pure reconnections A B' C' D, A C B D, A C' B D, A C B' D (every
// one with both ends of the path in place).
#define OR3_K 5
#define OR3_MOVES (8 * OR3_K * OR3_K)

// or3_edge tells whether {u, v} is one of the three edges of e.
__device__ __forceinline__ bool or3_edge(const int* e, int u, int v) {
    return (e[0] == u && e[1] == v) || (e[1] == u && e[0] == v) || (e[2] == u && e[3] == v) ||
           (e[3] == u && e[2] == v) || (e[4] == u && e[5] == v) || (e[5] == u && e[4] == v);
}

// or3_decode decodes 3-opt move m (0 <= m < OR3_MOVES) from city c at
// position pc: the removed edges' first positions x < y < z and the
// reconnection type (0: B'C', 1: CB, 2: C'B, 3: CB'), with the exact
// delta. It returns false when m is no improving move here.
template <int METRIC>
__device__ __forceinline__ bool or3_decode(const OrWin& s, int size, int c, int pc, int m, int& x, int& y, int& z,
                                           int& type, int& delta) {
    int d6 = m & 1;
    m >>= 1;
    int j5 = m % OR3_K;
    m /= OR3_K;
    int d4 = m & 1;
    m >>= 1;
    int j3 = m % OR3_K;
    int dir = m / OR3_K;
    int p2 = dir ? pc - 1 : pc + 1;
    if (p2 < 0 || p2 > size - 1) return false;
    int t2 = s.ord[p2];
    int t3 = s.nb[t2 * OR_K + j3];
    double2 x1 = s.xy[c], x2 = s.xy[t2], x3 = s.xy[t3];
    int g = or_dist<METRIC>(x1, x2) - or_dist<METRIC>(x2, x3);
    if (g <= 0) return false;
    int p3 = s.pos[t3];
    int p4 = d4 ? p3 - 1 : p3 + 1;
    if (p4 < 0 || p4 > size - 1) return false;
    int t4 = s.ord[p4];
    int t5 = s.nb[t4 * OR_K + j5];
    double2 x4 = s.xy[t4], x5 = s.xy[t5];
    g += or_dist<METRIC>(x3, x4) - or_dist<METRIC>(x4, x5);
    if (g <= 0) return false;
    int p5 = s.pos[t5];
    int p6 = d6 ? p5 - 1 : p5 + 1;
    if (p6 < 0 || p6 > size - 1) return false;
    int t6 = s.ord[p6];
    double2 x6 = s.xy[t6];
    delta = or_dist<METRIC>(x6, x1) - or_dist<METRIC>(x5, x6) - g;
    if (delta >= 0) return false;
    int e1 = min(pc, p2), e2 = min(p3, p4), e3 = min(p5, p6);
    if (e1 == e2 || e1 == e3 || e2 == e3) return false;
    x = min(e1, min(e2, e3));
    z = max(e1, max(e2, e3));
    y = e1 + e2 + e3 - x - z;
    int added[6] = {t2, t3, t4, t5, t6, c};
    int a1 = s.ord[x], b1 = s.ord[x + 1], b2 = s.ord[y], c1 = s.ord[y + 1], c2 = s.ord[z], dd = s.ord[z + 1];
    if (or3_edge(added, a1, b2) && or3_edge(added, b1, c2) && or3_edge(added, c1, dd)) type = 0;
    else if (or3_edge(added, b2, dd) && or3_edge(added, a1, c1) && or3_edge(added, c2, b1)) type = 1;
    else if (or3_edge(added, b2, dd) && or3_edge(added, a1, c2) && or3_edge(added, c1, b1)) type = 2;
    else if (or3_edge(added, b1, dd) && or3_edge(added, a1, c1) && or3_edge(added, c2, b2)) type = 3;
    else return false;
    return true;
}

// or3_eval returns the delta of 3-opt move m around c (OR_BIG: no move).
template <int METRIC>
__device__ __forceinline__ int or3_eval(const OrWin& s, int size, int c, int pc, int m) {
    int x, y, z, type, delta;
    return or3_decode<METRIC>(s, size, c, pc, m, x, y, z, type, delta) ? delta : OR_BIG;
}

// or3_apply applies 3-opt move m around c (all lanes) and queues the six
// cities at its edges (lane 0). It returns the new queue size.
template <int METRIC>
__device__ int or3_apply(OrWin& s, int size, int c, int pc, int m, int lane, int head, int qsize) {
    int x, y, z, type, delta;
    or3_decode<METRIC>(s, size, c, pc, m, x, y, z, type, delta);
    int t[6] = {s.ord[x], s.ord[x + 1], s.ord[y], s.ord[y + 1], s.ord[z], s.ord[z + 1]};
    int lc = z - y;
    __syncwarp();
    if (type == 0) {
        or_rev(s, x + 1, y, lane);
        or_rev(s, y + 1, z, lane);
    } else {
        or_rev(s, x + 1, z, lane);  // C' B'
        if (type != 3) or_rev(s, x + lc + 1, z, lane);  // B
        if (type != 2) or_rev(s, x + 1, x + lc, lane);  // C
    }
    if (lane == 0) {
        for (int k = 0; k < 6; k++) or_push(s, t[k], head, qsize, size);
    }
    __syncwarp();
    return __shfl_sync(0xffffffffu, qsize, 0);
}

// or_apply applies move m around c (all lanes) and queues the cities at
// its changed edges (lane 0). It returns the new queue size (every lane).
__device__ int or_apply(OrWin& s, int size, int c, int pc, int m, int lane, int head, int qsize) {
    int touched[8];
    int nt = 0;
    if (m < 2 * OR_K) {
        int dir = m / OR_K;
        int t3 = s.nb[c * OR_K + (m % OR_K)];
        int p3 = s.pos[t3];
        int lo = min(pc, p3), hi = max(pc, p3);
        touched[0] = c;
        touched[1] = t3;
        if (dir == 0) {
            touched[2] = s.ord[pc + 1];
            touched[3] = s.ord[p3 + 1];
        } else {
            touched[2] = s.ord[pc - 1];
            touched[3] = s.ord[p3 - 1];
        }
        nt = 4;
        __syncwarp();
        if (dir == 0) or_rev(s, lo + 1, hi, lane);
        else or_rev(s, lo, hi - 1, lane);
    } else {
        int a, b, end, j, side;
        or_segment(m, pc, a, b, end, j, side);
        int s1 = s.ord[a], s2 = s.ord[b];
        int e = end ? s2 : s1;
        int x = s.nb[e * OR_K + j];
        int px = s.pos[x];
        int py = side ? px - 1 : px + 1;
        int u = min(px, py);
        int left = s.ord[u];
        // forward: s1 next to the city at u
        bool fwd = (left == x) == (end == 0);
        touched[0] = s1;
        touched[1] = s2;
        touched[2] = s.ord[a - 1];
        touched[3] = s.ord[b + 1];
        touched[4] = x;
        touched[5] = s.ord[py];
        nt = 6;
        int l = b - a + 1;
        __syncwarp();
        if (u > b) {
            // a..b then b+1..u  ->  b+1..u then the segment
            or_rev(s, a, u, lane);
            or_rev(s, a, u - l, lane);
            if (fwd) or_rev(s, u - l + 1, u, lane);
        } else {
            // u+1..a-1 then a..b  ->  the segment then u+1..a-1
            or_rev(s, u + 1, b, lane);
            or_rev(s, u + 1 + l, b, lane);
            if (fwd) or_rev(s, u + 1, u + l, lane);
        }
    }
    if (lane == 0) {
        for (int k = 0; k < nt; k++) or_push(s, touched[k], head, qsize, size);
    }
    __syncwarp();
    return __shfl_sync(0xffffffffu, qsize, 0);
}

// or_search runs the queue empty and returns the exact change of length
// (<= 0). head and qsize are warp-uniform.
template <int METRIC>
__device__ long long or_search(OrWin& s, int size, int lane, int& head, int& qsize, long long& evals) {
    long long delta = 0;
    while (qsize > 0) {
        int c = s.queue[head];
        __syncwarp();
        if (lane == 0) s.inq[c] = 0;
        head++;
        if (head >= size) head -= size;
        qsize--;
        int pc = s.pos[c];
        // lanes evaluate the candidates; warp minimum of (delta, index)
        unsigned long long best = ~0ull;
        for (int m = lane; m < OR_MOVES; m += 32) {
            int d = or_eval<METRIC>(s, size, c, pc, m);
            if (d < 0) {
                unsigned long long key = ((unsigned long long)(unsigned)(d + OR_BIG) << 32) | (unsigned)m;
                best = min(best, key);
            }
        }
        evals += OR_MOVES;
        for (int o = 16; o > 0; o >>= 1) best = min(best, __shfl_xor_sync(0xffffffffu, best, o));
        __syncwarp();
        if (best == ~0ull) {
            // the 3-opt moves only where no 2-opt or Or-opt move gains: the
            // best of all moves at every step left worse local optima
            for (int m = OR_MOVES + lane; m < OR_MOVES + OR3_MOVES; m += 32) {
                int d = or3_eval<METRIC>(s, size, c, pc, m - OR_MOVES);
                if (d < 0) {
                    unsigned long long key = ((unsigned long long)(unsigned)(d + OR_BIG) << 32) | (unsigned)m;
                    best = min(best, key);
                }
            }
            evals += OR3_MOVES;
            for (int o = 16; o > 0; o >>= 1) best = min(best, __shfl_xor_sync(0xffffffffu, best, o));
            __syncwarp();
        }
        if (best != ~0ull) {
            int m = (int)(best & 0xffffffffu);
            int d = (int)(best >> 32) - OR_BIG;
            delta += d;
            // c is among the queued cities: its other moves get a new look
            if (m < OR_MOVES) qsize = or_apply(s, size, c, pc, m, lane, head, qsize);
            else qsize = or3_apply<METRIC>(s, size, c, pc, m - OR_MOVES, lane, head, qsize);
        }
    }
    return delta;
}

// or_kick applies a double bridge to two adjacent segments of at most
// maxSeg cities inside the window and returns its exact delta; the six
// cities at its edges are queued (lane 0; the caller broadcasts qsize).
template <int METRIC>
__device__ int or_kick(OrWin& s, int size, int lane, uint32_t r1, uint32_t r2, uint32_t r3, int maxSeg, int head, int& qsize) {
    int ms = max(1, min(maxSeg, (size - 2) / 2));
    int la = 1 + bounded(r1, ms), lb = 1 + bounded(r2, ms);
    int i0 = bounded(r3, size - 1 - la - lb);  // D starts at i0+la+lb+1 <= size-1
    int a = s.ord[i0], b1 = s.ord[i0 + 1], b2 = s.ord[i0 + la];
    int c1 = s.ord[i0 + la + 1], c2 = s.ord[i0 + la + lb], dd = s.ord[i0 + la + lb + 1];
    double2 xa = s.xy[a], xb1 = s.xy[b1], xb2 = s.xy[b2], xc1 = s.xy[c1], xc2 = s.xy[c2], xd = s.xy[dd];
    int delta = or_dist<METRIC>(xa, xc1) + or_dist<METRIC>(xc2, xb1) + or_dist<METRIC>(xb2, xd) -
                or_dist<METRIC>(xa, xb1) - or_dist<METRIC>(xb2, xc1) - or_dist<METRIC>(xc2, xd);
    __syncwarp();
    or_rev(s, i0 + 1, i0 + la + lb, lane);   // C^r B^r
    or_rev(s, i0 + 1, i0 + lb, lane);        // C
    or_rev(s, i0 + lb + 1, i0 + la + lb, lane);  // B
    if (lane == 0) {
        int t[6] = {a, b1, b2, c1, c2, dd};
        for (int k = 0; k < 6; k++) or_push(s, t[k], head, qsize, size);
    }
    __syncwarp();
    return delta;
}

// oropt_windows: one warp per (window, replica). Loads the window, builds
// its neighbour lists, runs a local search from every city, then `kicks`
// kicks each followed by a local search, keeping a kicked path when it is
// no longer. Writes the final path (local ids by position) to
// outOrd[g*L ...] and the exact gain (old - new length, >= 0) to outGain[g].
template <int METRIC>
__device__ void oropt_windows_impl(const double2* __restrict__ xy, const int* __restrict__ tour, long long n,
                                   long long off, long long span, int W, int L, int R, long long kicks, unsigned long long seed,
                                   int maxSeg, unsigned short* __restrict__ outOrd,
                                   long long* __restrict__ outGain, unsigned long long* __restrict__ evalCount) {
    extern __shared__ __align__(16) unsigned char or_smem[];
    int lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
    int g = blockIdx.x * (blockDim.x >> 5) + wib;
    if (g >= W * R) return;
    int w = g / R;
    OrWin s = or_carve(or_smem + wib * or_win_bytes(L), L);
    long long first;
    int size;
    or_window(span, W, w, &first, &size);
    long long p0 = (first + off) % n;
    // load ----------------------------------------------------------------
    for (int i = lane; i < size; i += 32) {
        long long p = p0 + i;
        if (p >= n) p -= n;
        s.xy[i] = xy[tour[p]];
        s.ord[i] = i;
        s.pos[i] = i;
        s.inq[i] = 1;
        s.queue[i] = i;
    }
    __syncwarp();
    if (size < OR_K + 4) {
        for (int i = lane; i < size; i += 32) outOrd[(long long)g * L + i] = i;
        if (lane == 0) outGain[g] = 0;
        return;
    }
    // neighbour lists: the K nearest cities of the window, by float distance
    for (int i = lane; i < size; i += 32) {
        float bd[OR_K];
        int bi[OR_K];
#pragma unroll
        for (int k = 0; k < OR_K; k++) { bd[k] = 3.4e38f; bi[k] = 0; }
        float xi = (float)s.xy[i].x, yi = (float)s.xy[i].y;
        for (int j = 0; j < size; j++) {
            if (j == i) continue;
            float dx = (float)s.xy[j].x - xi, dy = (float)s.xy[j].y - yi;
            float d = dx * dx + dy * dy;
            if (d < bd[OR_K - 1]) {
                // insertion sort with compile-time indices only (the
                // arrays stay in registers)
#pragma unroll
                for (int k = OR_K - 1; k > 0; k--) {
                    if (d < bd[k - 1]) {
                        bd[k] = bd[k - 1];
                        bi[k] = bi[k - 1];
                    } else if (d < bd[k]) {
                        bd[k] = d;
                        bi[k] = j;
                    }
                }
                if (d < bd[0]) { bd[0] = d; bi[0] = j; }
            }
        }
#pragma unroll
        for (int k = 0; k < OR_K; k++) s.nb[i * OR_K + k] = bi[k];
    }
    __syncwarp();
    // search --------------------------------------------------------------
    int head = 0, qsize = size;
    long long evals = 0;
    long long gain = -or_search<METRIC>(s, size, lane, head, qsize, evals);
    uint32_t key = stream_key(seed, (uint32_t)g);
    uint32_t ctr = 0;
    for (long long k = 0; k < kicks; k++) {
        for (int i = lane; i < size; i += 32) s.bak[i] = s.ord[i];
        __syncwarp();
        uint32_t r1 = ctr_rand(key, ctr++), r2 = ctr_rand(key, ctr++), r3 = ctr_rand(key, ctr++);
        int q = qsize;
        int dk = or_kick<METRIC>(s, size, lane, r1, r2, r3, maxSeg, head, q);
        qsize = __shfl_sync(0xffffffffu, q, 0);
        long long d = dk + or_search<METRIC>(s, size, lane, head, qsize, evals);
        if (d <= 0) {
            gain -= d;
        } else {
            for (int i = lane; i < size; i += 32) {
                int c = s.bak[i];
                s.ord[i] = c;
                s.pos[c] = i;
            }
            __syncwarp();
        }
    }
    for (int i = lane; i < size; i += 32) outOrd[(long long)g * L + i] = s.ord[i];
    if (lane == 0) {
        outGain[g] = gain;
        atomicAdd(evalCount, (unsigned long long)evals);
    }
}

extern "C" __global__ void __launch_bounds__(128)
oropt_windows(const double2* __restrict__ xy, const int* __restrict__ tour, long long n, long long off, long long span, long long W,
              long long L, long long R, long long kicks, unsigned long long seed, long long maxSeg, long long metric,
              unsigned short* __restrict__ outOrd, long long* __restrict__ outGain,
              unsigned long long* __restrict__ evalCount) {
    if (metric == METRIC_CEIL_2D)
        oropt_windows_impl<METRIC_CEIL_2D>(xy, tour, n, off, span, (int)W, (int)L, (int)R, kicks, seed, (int)maxSeg, outOrd, outGain, evalCount);
    else if (metric == METRIC_ATT)
        oropt_windows_impl<METRIC_ATT>(xy, tour, n, off, span, (int)W, (int)L, (int)R, kicks, seed, (int)maxSeg, outOrd, outGain, evalCount);
    else
        oropt_windows_impl<METRIC_EUC_2D>(xy, tour, n, off, span, (int)W, (int)L, (int)R, kicks, seed, (int)maxSeg, outOrd, outGain, evalCount);
}

// oropt_commit: one warp per window. Picks the replica with the largest
// gain (ties: the lowest) and rewrites the window's positions of the tour
// in its order; adds the gain to *total.
extern "C" __global__ void __launch_bounds__(128)
oropt_commit(int* __restrict__ tour, long long n, long long off, long long span, long long W, long long L, long long R,
             const unsigned short* __restrict__ outOrd, const long long* __restrict__ outGain,
             unsigned long long* __restrict__ total) {
    extern __shared__ __align__(16) unsigned char or_csmem[];
    int lane = threadIdx.x & 31, wib = threadIdx.x >> 5;
    int w = blockIdx.x * (blockDim.x >> 5) + wib;
    if (w >= W) return;
    int* old = (int*)or_csmem + wib * L;
    long long first;
    int size;
    or_window(span, (int)W, w, &first, &size);
    long long p0 = (first + off) % n;
    int br = 0;
    long long bg = -1;
    for (int r = 0; r < R; r++) {
        long long gr = outGain[(long long)w * R + r];
        if (gr > bg) { bg = gr; br = r; }
    }
    if (bg <= 0) return;
    for (int i = lane; i < size; i += 32) {
        long long p = p0 + i;
        if (p >= n) p -= n;
        old[i] = tour[p];
    }
    __syncwarp();
    const unsigned short* o = outOrd + ((long long)w * R + br) * L;
    for (int i = lane; i < size; i += 32) {
        long long p = p0 + i;
        if (p >= n) p -= n;
        tour[p] = old[o[i]];
    }
    if (lane == 0) atomicAdd(total, (unsigned long long)bg);
}
