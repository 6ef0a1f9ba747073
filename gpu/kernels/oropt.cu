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
// One warp owns one window (1 to 4 warps per block, as shared memory
// allows) (or one replica of a window: several warps may
// search the same window from different random streams; the commit kernel
// keeps the best). The window lives in shared memory: coordinates, the
// path as positions of local city ids, local neighbour lists built by
// brute force over the window, the queue of cities whose don't-look bit is
// off. Each step pops a city and the 32 lanes evaluate its 2-opt and
// Or-opt moves in parallel (2K + 20K candidates for K neighbours; with
// the threeOpt flag also 2·K·2·K·2 sequential 3-opt chains, see or3_best);
// the best improving one is applied with lane-parallel reversals. A kick is a
// double bridge of two adjacent segments inside the window; the search
// keeps the kicked tour when it is no longer (Martin, Otto & Felten's
// large-step Markov chain with acceptance of ties).
//
// Exactness: distances are the TSPLIB integer distances computed in double
// precision with explicitly rounded operations (no fused multiply-add), so
// they equal solver.Instance.Dist; every gain a window reports is the exact
// change of the tour's length.

#include "common.cuh"

#define OR_K 8          // neighbours per city inside a window
#define OR_BIG 0x3fffffff

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
    m -= 2 * OR_K;
    int v = m / (4 * OR_K);
    int r = m % (4 * OR_K);
    int end = r / (2 * OR_K);
    int j = (r % (2 * OR_K)) >> 1;
    int side = r & 1;
    int a, b;
    switch (v) {
        case 0: a = pc; b = pc; if (end) return OR_BIG; break;
        case 1: a = pc; b = pc + 1; break;
        case 2: a = pc - 1; b = pc; break;
        case 3: a = pc; b = pc + 2; break;
        default: a = pc - 2; b = pc; break;
    }
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
        int mm = m - 2 * OR_K;
        int v = mm / (4 * OR_K);
        int r = mm % (4 * OR_K);
        int end = r / (2 * OR_K);
        int j = (r % (2 * OR_K)) >> 1;
        int side = r & 1;
        int a, b;
        switch (v) {
            case 0: a = pc; b = pc; break;
            case 1: a = pc; b = pc + 1; break;
            case 2: a = pc - 1; b = pc; break;
            case 3: a = pc; b = pc + 2; break;
            default: a = pc - 2; b = pc; break;
        }
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

// Sequential 3-opt (Lin & Kernighan's first three steps, Johnson &
// McGeoch 1997, section 3.4): remove (t1,t2) with t1 the popped city and
// t2 its successor or predecessor, add (t2,t3) for t3 among t2's
// neighbours, remove (t3,t4) with t4 next to t3, add (t4,t5) for t5 among
// t4's neighbours, remove (t5,t6) with t6 next to t5 and close with
// (t6,t1); every partial sum of gains stays positive. Of the reconnections
// this chain can make, the four pure 3-opt ones are kept (A C B D, A C B'
// D, A C' B D, A B' C' D for the path A B C D cut at the three removed
// edges; the others are 2-opt moves, which the search already has), with
// segments B and C of at least two cities (shorter ones are Or-opt moves).
// Lane l of the warp takes dir = l/16, t3 = neighbour (l/2)%8 of t2 and t4
// on side l%2 of t3, then every t5 and t6: 16 candidates.
#define OR3_MOVES 512

// or3_masks are the added edges of the four pure 3-opt reconnections as
// bit sets over pairs of the roles a b1 b2 c1 c2 d (ends of the removed
// edges at positions i < j < k: a=i, b1=i+1, b2=j, c1=j+1, c2=k, d=k+1),
// pair (x,y), x < y, at bit x*6+y.
#define OR3_BIT(x, y) (1u << ((x) * 6 + (y)))
__device__ __forceinline__ int or3_kind(unsigned mask) {
    if (mask == (OR3_BIT(0, 3) | OR3_BIT(1, 4) | OR3_BIT(2, 5))) return 0;  // A C B D
    if (mask == (OR3_BIT(0, 3) | OR3_BIT(2, 4) | OR3_BIT(1, 5))) return 1;  // A C B' D
    if (mask == (OR3_BIT(0, 4) | OR3_BIT(1, 3) | OR3_BIT(2, 5))) return 2;  // A C' B D
    if (mask == (OR3_BIT(0, 2) | OR3_BIT(1, 4) | OR3_BIT(3, 5))) return 3;  // A B' C' D
    return -1;
}

// or3_role is the role (0..5) of position p among the ends of the removed
// edges at i < j < k.
__device__ __forceinline__ int or3_role(int p, int i, int j, int k) {
    if (p == i) return 0;
    if (p == i + 1) return 1;
    if (p == j) return 2;
    if (p == j + 1) return 3;
    if (p == k) return 4;
    return 5;
}

__device__ __forceinline__ unsigned or3_pair(int x, int y) { return x < y ? OR3_BIT(x, y) : OR3_BIT(y, x); }

// or3_shape checks the chain whose removed edges start at the lower
// positions e1, e2, e3 and whose tour positions are p1..p6 (t1..t6): it
// sorts the edges into i < j < k and returns the reconnection's kind
// (or3_kind), or -1 when the chain is no pure 3-opt move with segments of
// two cities or more inside the window.
__device__ __forceinline__ int or3_shape(int p1, int p2, int p3, int p4, int p5, int p6, int& i, int& j, int& k) {
    int e1 = min(p1, p2), e2 = min(p3, p4), e3 = min(p5, p6);
    i = min(e1, min(e2, e3));
    k = max(e1, max(e2, e3));
    j = e1 + e2 + e3 - i - k;
    if (i + 1 >= j || j + 1 >= k) return -1;
    unsigned mask = or3_pair(or3_role(p2, i, j, k), or3_role(p3, i, j, k)) |
                    or3_pair(or3_role(p4, i, j, k), or3_role(p5, i, j, k)) |
                    or3_pair(or3_role(p6, i, j, k), or3_role(p1, i, j, k));
    return or3_kind(mask);
}

// or3_chain reads the cities and positions of chain code (lane l and
// candidate q, code = l*16 + q) around t1 = c at pc; false when a step
// leaves the window.
__device__ __forceinline__ bool or3_chain(const OrWin& s, int size, int c, int pc, int code, int t[6], int p[6]) {
    int lane = code >> 4, q = code & 15;
    int dir = lane >> 4, a = (lane >> 1) & 7, s4 = lane & 1, b = q >> 1, s6 = q & 1;
    t[0] = c;
    p[0] = pc;
    p[1] = dir ? pc - 1 : pc + 1;
    if (p[1] < 0 || p[1] > size - 1) return false;
    t[1] = s.ord[p[1]];
    t[2] = s.nb[t[1] * OR_K + a];
    p[2] = s.pos[t[2]];
    p[3] = s4 ? p[2] - 1 : p[2] + 1;
    if (p[3] < 0 || p[3] > size - 1) return false;
    t[3] = s.ord[p[3]];
    t[4] = s.nb[t[3] * OR_K + b];
    p[4] = s.pos[t[4]];
    p[5] = s6 ? p[4] - 1 : p[4] + 1;
    if (p[5] < 0 || p[5] > size - 1) return false;
    t[5] = s.ord[p[5]];
    return true;
}

// or3_best returns this lane's best improving 3-opt move around c as a
// search key ((delta + OR_BIG) << 32 | OR_MOVES + code), ~0 for none.
template <int METRIC>
__device__ unsigned long long or3_best(const OrWin& s, int size, int c, int pc, int lane) {
    unsigned long long best = ~0ull;
    int dir = lane >> 4, a = (lane >> 1) & 7, s4 = lane & 1;
    int p2 = dir ? pc - 1 : pc + 1;
    if (p2 < 0 || p2 > size - 1) return best;
    int t2 = s.ord[p2];
    int t3 = s.nb[t2 * OR_K + a];
    int p3 = s.pos[t3];
    if (t3 == c || p3 == p2 + 1 || p3 + 1 == p2) return best;
    double2 x1 = s.xy[c], x2 = s.xy[t2], x3 = s.xy[t3];
    int g1 = or_dist<METRIC>(x1, x2) - or_dist<METRIC>(x2, x3);
    if (g1 <= 0) return best;
    int p4 = s4 ? p3 - 1 : p3 + 1;
    if (p4 < 0 || p4 > size - 1) return best;
    int t4 = s.ord[p4];
    double2 x4 = s.xy[t4];
    int g1b = g1 + or_dist<METRIC>(x3, x4);
    for (int b = 0; b < OR_K; b++) {
        int t5 = s.nb[t4 * OR_K + b];
        double2 x5 = s.xy[t5];
        int g2 = g1b - or_dist<METRIC>(x4, x5);
        if (g2 <= 0) continue;
        int p5 = s.pos[t5];
        for (int s6 = 0; s6 < 2; s6++) {
            int p6 = s6 ? p5 - 1 : p5 + 1;
            if (p6 < 0 || p6 > size - 1) continue;
            int i, j, k;
            if (or3_shape(pc, p2, p3, p4, p5, p6, i, j, k) < 0) continue;
            double2 x6 = s.xy[s.ord[p6]];
            int d = or_dist<METRIC>(x6, x1) - or_dist<METRIC>(x5, x6) - g2;
            if (d < 0) {
                unsigned code = (unsigned)(lane * 16 + b * 2 + s6);
                unsigned long long key = ((unsigned long long)(unsigned)(d + OR_BIG) << 32) | (unsigned)(OR_MOVES + code);
                best = min(best, key);
            }
        }
    }
    return best;
}

// or3_apply applies 3-opt move code around c (all lanes) and queues the
// six cities at its edges (lane 0). It returns the new queue size (every
// lane).
__device__ int or3_apply(OrWin& s, int size, int c, int pc, int code, int lane, int head, int qsize) {
    int t[6], p[6];
    or3_chain(s, size, c, pc, code, t, p);
    int i, j, k;
    int kind = or3_shape(p[0], p[1], p[2], p[3], p[4], p[5], i, j, k);
    __syncwarp();
    int lc = k - j;  // cities of C
    if (kind == 3) {
        or_rev(s, i + 1, j, lane);
        or_rev(s, j + 1, k, lane);
    } else {
        or_rev(s, i + 1, k, lane);               // A C' B' D
        if (kind != 2) or_rev(s, i + 1, i + lc, lane);  // C' -> C
        if (kind != 1) or_rev(s, i + lc + 1, k, lane);  // B' -> B
    }
    if (lane == 0) {
        for (int q = 0; q < 6; q++) or_push(s, t[q], head, qsize, size);
    }
    __syncwarp();
    return __shfl_sync(0xffffffffu, qsize, 0);
}

// or_search runs the queue empty and returns the exact change of length
// (<= 0). head and qsize are warp-uniform.
template <int METRIC>
__device__ long long or_search(OrWin& s, int size, int lane, int& head, int& qsize, long long& evals, bool threeOpt) {
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
        if (threeOpt) {
            best = min(best, or3_best<METRIC>(s, size, c, pc, lane));
            evals += OR3_MOVES;
        }
        for (int o = 16; o > 0; o >>= 1) best = min(best, __shfl_xor_sync(0xffffffffu, best, o));
        __syncwarp();
        if (best != ~0ull) {
            int m = (int)(best & 0xffffffffu);
            int d = (int)(best >> 32) - OR_BIG;
            delta += d;
            // c is among the queued cities: its other moves get a new look
            if (m >= OR_MOVES) qsize = or3_apply(s, size, c, pc, m - OR_MOVES, lane, head, qsize);
            else qsize = or_apply(s, size, c, pc, m, lane, head, qsize);
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
                                   int maxSeg, bool threeOpt, unsigned short* __restrict__ outOrd,
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
    long long gain = -or_search<METRIC>(s, size, lane, head, qsize, evals, threeOpt);
    uint32_t key = stream_key(seed, (uint32_t)g);
    uint32_t ctr = 0;
    for (long long k = 0; k < kicks; k++) {
        for (int i = lane; i < size; i += 32) s.bak[i] = s.ord[i];
        __syncwarp();
        uint32_t r1 = ctr_rand(key, ctr++), r2 = ctr_rand(key, ctr++), r3 = ctr_rand(key, ctr++);
        int q = qsize;
        int dk = or_kick<METRIC>(s, size, lane, r1, r2, r3, maxSeg, head, q);
        qsize = __shfl_sync(0xffffffffu, q, 0);
        long long d = dk + or_search<METRIC>(s, size, lane, head, qsize, evals, threeOpt);
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
              long long threeOpt, unsigned short* __restrict__ outOrd, long long* __restrict__ outGain,
              unsigned long long* __restrict__ evalCount) {
    if (metric == METRIC_CEIL_2D)
        oropt_windows_impl<METRIC_CEIL_2D>(xy, tour, n, off, span, (int)W, (int)L, (int)R, kicks, seed, (int)maxSeg, threeOpt != 0, outOrd, outGain, evalCount);
    else if (metric == METRIC_ATT)
        oropt_windows_impl<METRIC_ATT>(xy, tour, n, off, span, (int)W, (int)L, (int)R, kicks, seed, (int)maxSeg, threeOpt != 0, outOrd, outGain, evalCount);
    else
        oropt_windows_impl<METRIC_EUC_2D>(xy, tour, n, off, span, (int)W, (int)L, (int)R, kicks, seed, (int)maxSeg, threeOpt != 0, outOrd, outGain, evalCount);
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
