// pspm.cu: Lam et al.'s parallel simulated annealing for the TSP (PSPM:
// parallel searches x parallel moves, with LWSA).
//
// Reference: Lam et al. (cited in full in solver/cpu/doc.go): Alg. 2 (LWSA:
// the best is archived only before a worse move is accepted), Eq. 3 (the
// per-block state in shared memory when it fits), Eq. 4 (SSES, moves
// evaluated per second), Table 1 (T0 = 10000, Tend = 0.1, alpha = 0.99,
// Sp = 10 sweeps of N iterations per temperature, Se = 100).
//
// A search is a team evaluating TPB random relocation moves per iteration
// (with seg > 1, Or-opt moves of segments of up to seg cities, PspmSeg):
// a warp (one move per lane, or two for TPB 33 to 64; several searches per
// block share the coordinates), or a whole block; PspmTour is a block whose
// warps share one tour. The tour is a doubly linked list with two caches,
// e[x] = d(x, next x) and rem[x] = d(prev x, x) + d(x, next x) - d(prev x,
// next x), so a move costs two distances instead of six. One launch anneals
// a range of iterations; pspm_sync then reduces the archived bests on the
// device, and the next launch starts every search from the global best, or
// (islands, the default) pspm_exchange starts each from its island's best.
#include "common.cuh"

#define PSPM_MAXWARPS 32
// PSPM_SLOT_BYTES is a team's shared slot (gpu pspmSlotBytes): the five
// cities an accepted move changes, then the batch table (per iteration: the
// stratification bases, the threshold and the threshold times 32).
#define PSPM_TABLE 32
#define PSPM_SLOT_BYTES (32 + 16 * PSPM_TABLE)

// PspmNode is one city's record: e, rem (both plus PSPM_RAW, as
// pspm_dist_raw gives them) and the links, one address for every field.
template <typename IDX>
struct PspmNode {
    int e, rem;
    IDX next, prev;
};

template <typename IDX>
struct PspmState {
    const float2 *xy;
    PspmNode<IDX> *nd;
};

// pspm_dist_raw is the search's integer distance plus PSPM_RAW (2^23 as a
// float's bits): EUC_2D adds 2^23 (rounding to the nearest integer below
// 2^23) and reads the float's bits, with no conversion instruction. It
// differs from int_dist only on exact ties, which the search tolerates
// (every reported length is recomputed on the CPU); every cached or
// evaluated distance comes from here, and a delta's biases cancel.
#define PSPM_RAW 0x4b000000
template <int METRIC>
__device__ __forceinline__ int pspm_dist_raw(float2 p, float2 q) {
    if (METRIC == METRIC_EUC_2D) {
        const float dx = p.x - q.x, dy = p.y - q.y;
        return __float_as_int(sqrtf(dx * dx + dy * dy) + 8388608.0f);
    }
    return int_dist<METRIC>(p.x, p.y, q.x, q.y) + PSPM_RAW;
}

template <int METRIC, typename IDX>
__device__ __forceinline__ int pdist(const PspmState<IDX> &s, int a, int b) {
    return pspm_dist_raw<METRIC>(s.xy[a], s.xy[b]);
}

// PspmLcg is a thread's move generator: a 64-bit multiplicative
// congruential generator (Steele and Vigna's multiplier) whose high word is
// the draw, seeded per launch from the thread's key and first iteration so
// that a seed replays exactly.
struct PspmLcg {
    unsigned long long s;  // odd
    __device__ __forceinline__ uint32_t next() {
        // s *= M written out (the 64-bit multiply costs one more add).
        const uint32_t lo = (uint32_t)s, hi = (uint32_t)(s >> 32);
        uint32_t l, h;
        asm("{\n\t.reg .u64 w;\n\t.reg .u32 wh;\n\t"
            "mul.wide.u32 w, %2, 0xde82ef95;\n\t"
            "mov.b64 {%0, wh}, w;\n\t"
            "mad.lo.u32 wh, %2, 0xd1342543, wh;\n\t"
            "mad.lo.u32 %1, %3, 0xde82ef95, wh;\n\t}"
            : "=r"(l), "=r"(h)
            : "r"(lo), "r"(hi));
        s = ((unsigned long long)h << 32) | l;
        return h;
    }
};

__device__ __forceinline__ PspmLcg pspm_lcg_seed(uint32_t key, long long iterStart) {
    const uint32_t lo = (uint32_t)iterStart, hi = (uint32_t)((unsigned long long)iterStart >> 32);
    PspmLcg g;
    g.s = ((unsigned long long)ctr_rand(key, lo) << 32) | ctr_rand(key ^ 0x3c6ef372u, lo + hi * 0x85ebca6bu) | 1u;
    return g;
}

// Team is the threads of one search: a warp or the whole block.
template <bool WARP>
struct Team {
    int t, size;  // rank in the team, team size
    __device__ Team() {
        if (WARP) {
            t = threadIdx.x & 31;
            size = 32;
        } else {
            t = threadIdx.x;
            size = blockDim.x;
        }
    }
    __device__ __forceinline__ void sync() const {
        if (WARP)
            __syncwarp();
        else
            __syncthreads();
    }
};

// Rebuild prev, e and rem from next (the whole team; ends synchronised).
template <int METRIC, typename IDX, bool WARP>
__device__ void pspm_rebuild(PspmState<IDX> &s, int n, const Team<WARP> &tm) {
    PspmNode<IDX> *nd = s.nd;
    for (int x = tm.t; x < n; x += tm.size) nd[nd[x].next].prev = (IDX)x;
    tm.sync();
    for (int x = tm.t; x < n; x += tm.size) nd[x].e = pdist<METRIC>(s, x, nd[x].next);
    tm.sync();
    for (int x = tm.t; x < n; x += tm.size) {
        int pv = nd[x].prev;
        nd[x].rem = nd[pv].e + nd[x].e - pdist<METRIC>(s, pv, nd[x].next);
    }
    tm.sync();
}

// warp_min returns the minimum of v over the full warp.
__device__ __forceinline__ int warp_min(int v) {
#if __CUDA_ARCH__ >= 800
    return __reduce_min_sync(0xffffffffu, v);
#else
    for (int off = 16; off > 0; off >>= 1) v = min(v, __shfl_xor_sync(0xffffffffu, v, off));
    return v;
#endif
}

// PspmMove is a relocation move (c from after a to between p and q) with
// its evaluation's raw d(p, c), d(c, q) and rem[c].
struct PspmMove {
    int c, p, a, q, dpc, dcq, rem;
};

// PspmSeg is an Or-opt move: the segment of L (1 to 3) cities c, y1, y2,
// walked from c along next (dn) or prev, leaves from between u (beside c)
// and z (beside its far end) for between p and q, c beside p (after) or
// beside q, so either orientation; dpc and dcq are the raw lengths of the
// new edges at p and at q, duz of the edge that closes the gap.
struct PspmSeg {
    int c, y1, y2, u, z, p, q, dpc, dcq, duz;
    uint32_t fl;  // L | dn << 2 | after << 3
};

// PspmSegRelink is a segment move in the list's terms: a and b, the
// segment's old outer neighbours in tour order, p and q, and the segment in
// its new order from p to q, t0, t1, t2 (past L the last one again).
struct PspmSegRelink {
    int a, b, p, q, t0, t1, t2, L;
};

__device__ __forceinline__ PspmSegRelink pspm_seg_relink(const PspmSeg &m) {
    const int L = (int)(m.fl & 3u);
    const bool dn = (m.fl & 4u) != 0, after = (m.fl & 8u) != 0;
    const int yl = L == 1 ? m.c : L == 2 ? m.y1 : m.y2;
    PspmSegRelink r;
    r.a = dn ? m.u : m.z;
    r.b = dn ? m.z : m.u;
    r.p = m.p;
    r.q = m.q;
    r.L = L;
    r.t0 = after ? m.c : yl;
    r.t1 = L == 1 ? m.c : L == 2 ? (after ? m.y1 : m.c) : m.y1;
    r.t2 = after ? yl : m.c;
    return r;
}

// pspm_thresholds gives rank t the Metropolis threshold and base draw of
// the counter in ctrB .. ctrB+L-1 that is t mod L, from the search's shared
// stream. Thresholds lie in [1, 2^25): delta <= 0 always passes, an
// invalid key never does.
template <int L>
__device__ __forceinline__ void pspm_thresholds(uint32_t bkey, uint32_t ctrB, int t, float negTln2, int &thr,
                                                uint32_t &bsh) {
    const uint32_t ctr = ctrB + (((uint32_t)t - ctrB) & (uint32_t)(L - 1));
    const uint32_t rb = ctr_rand(bkey, ctr);
    // 23 bits + 1/2: exact in float, so u < 1.
    const float u = ((float)(rb >> 9) + 0.5f) * (1.0f / 8388608.0f);
    thr = max(1, (int)ceilf(fminf(negTln2 * __log2f(u), 33554430.0f)));
    bsh = ctr_rand(bkey ^ 0x632be5abu, ctr);
}

// A move's key is delta*32 + its index (or lane), so a team's minimum key
// names its best move (Lam et al.: the best move, then Metropolis on it);
// PSPM_NOKEY is an invalid move's.
#define PSPM_NOKEY 0x7fffffff

// pspm_team_min returns the team's smallest key and the rank holding it.
template <bool WARP>
__device__ __forceinline__ void pspm_team_min(int key, int lane, int warp, int nwarps, int *swkey, int &winKey,
                                              int &winner) {
    const int wk = warp_min(key);
    if (WARP || nwarps == 1) {
        winKey = wk;
        winner = wk & 31;
    } else {
        if (lane == 0) swkey[warp] = wk;
        __syncthreads();
        winKey = swkey[0];
        int ww = 0;
        for (int w = 1; w < nwarps; w++)
            if (swkey[w] < winKey) {
                winKey = swkey[w];
                ww = w;
            }
        winner = ww * 32 + (winKey & 31);
        __syncthreads();
    }
}

// pspm_apply makes the winner's accepted move: the winner alone relinks
// and stores the new e values (no broadcast; d(a, b) = e[a] + e[c] -
// rem[c]) and leaves the five cities whose rem changes in the slot bc,
// where rank k refreshes the k-th (rsel). The relink order handles p = b
// and q = a. SH: predicated instead of branched, so the warp never
// diverges.
template <int METRIC, typename IDX, bool WARP, bool SH>
__device__ __forceinline__ void pspm_apply(const PspmState<IDX> &s, const PspmMove &m, bool win, bool acc, int rsel,
                                           IDX *bc, const Team<WARP> &tm) {
    PspmNode<IDX> *const nd = s.nd;
    if (SH && WARP && sizeof(IDX) == 2) {
        const uint32_t base = (uint32_t)__cvta_generic_to_shared(nd);
        const uint32_t ra = base + 12u * (uint32_t)m.a, rc = base + 12u * (uint32_t)m.c;
        const uint32_t rp = base + 12u * (uint32_t)m.p, rq = base + 12u * (uint32_t)m.q;
        const uint32_t sb = (uint32_t)__cvta_generic_to_shared(bc);
        const uint32_t w = win;
        uint32_t wb, ea, ec;
        asm volatile(
            "{\n\t.reg .pred w;\n\tsetp.ne.u32 w, %3, 0;\n\t"
            "@w ld.shared.u16 %0, [%4+8];\n\t"
            "@w ld.shared.u32 %1, [%5];\n\t"
            "@w ld.shared.u32 %2, [%4];\n\t}"
            : "=r"(wb), "=r"(ea), "=r"(ec)
            : "r"(w), "r"(rc), "r"(ra)
            : "memory");
        const uint32_t eab = ea + ec - (uint32_t)m.rem;
        const uint32_t rb = base + 12u * wb;
        const uint32_t a = (uint32_t)m.a, c = (uint32_t)m.c, p = (uint32_t)m.p, q = (uint32_t)m.q;
        asm volatile(
            "{\n\t.reg .pred w;\n\tsetp.ne.u32 w, %0, 0;\n\t"
            "@w st.shared.u16 [%1+8], %2;\n\t"   // a.next = b
            "@w st.shared.u16 [%3+10], %4;\n\t"  // b.prev = a
            "@w st.shared.u16 [%5+8], %6;\n\t"   // p.next = c
            "@w st.shared.u32 [%7+8], %8;\n\t"   // c.next, c.prev = q, p
            "@w st.shared.u16 [%9+10], %6;\n\t"  // q.prev = c
            "@w st.shared.u32 [%1], %10;\n\t"    // e[a] = d(a, b)
            "@w st.shared.u32 [%5], %11;\n\t"    // e[p] = d(p, c)
            "@w st.shared.u32 [%7], %12;\n\t"    // e[c] = d(c, q)
            "@w st.shared.v4.u32 [%13], {%14, %15, %16, %16};\n\t}"
            :
            : "r"(w), "r"(ra), "r"(wb), "r"(rb), "r"(a), "r"(rp), "r"(c), "r"(rc), "r"(q | (p << 16)), "r"(rq),
              "r"(eab), "r"(m.dpc), "r"(m.dcq), "r"(sb), "r"(a | (wb << 16)), "r"(c | (p << 16)), "r"(q | (q << 16))
            : "memory");
    } else if (win) {
        const int wb = nd[m.c].next;
        const int eab = nd[m.a].e + nd[m.c].e - m.rem;
        nd[m.a].next = (IDX)wb;
        nd[wb].prev = (IDX)m.a;
        nd[m.p].next = (IDX)m.c;
        nd[m.c].prev = (IDX)m.p;
        nd[m.c].next = (IDX)m.q;
        nd[m.q].prev = (IDX)m.c;
        nd[m.a].e = eab;
        nd[m.p].e = m.dpc;
        nd[m.c].e = m.dcq;
        if (sizeof(IDX) == 2) {
            // one 16-byte store (bc is 16-byte aligned)
            const uint32_t ab = (uint32_t)m.a | ((uint32_t)wb << 16), cp = (uint32_t)m.c | ((uint32_t)m.p << 16);
            const uint32_t qq = (uint32_t)m.q | ((uint32_t)m.q << 16);
            *(uint4 *)bc = make_uint4(ab, cp, qq, qq);
        } else {
            bc[0] = (IDX)m.a;
            bc[1] = (IDX)wb;
            bc[2] = (IDX)m.c;
            bc[3] = (IDX)m.p;
            bc[4] = (IDX)m.q;
        }
    }
    tm.sync();
    if (acc && (WARP || tm.t < 5)) {
        const int x = bc[rsel];
        const int pv = nd[x].prev, nx = nd[x].next;
        nd[x].rem = nd[pv].e + nd[x].e - pdist<METRIC>(s, pv, nx);
    }
    tm.sync();
}

// pspm_apply_seg makes the winner's accepted segment move: the winner
// alone relinks and stores the new e values, and leaves the seven cities
// whose rem may change (a, b, p, q, the segment) in the slot bc, where rank
// k refreshes the k-th (rsel). Distinct fields keep p = b and q = a right.
template <int METRIC, typename IDX, bool WARP>
__device__ __forceinline__ void pspm_apply_seg(const PspmState<IDX> &s, const PspmSeg &m, bool win, int rsel,
                                               IDX *bc, const Team<WARP> &tm) {
    PspmNode<IDX> *const nd = s.nd;
    if (win) {
        const PspmSegRelink r = pspm_seg_relink(m);
        nd[r.a].next = (IDX)r.b;
        nd[r.b].prev = (IDX)r.a;
        nd[r.p].next = (IDX)r.t0;
        nd[r.q].prev = (IDX)r.t2;
        nd[r.t0].prev = (IDX)r.p;
        nd[r.t2].next = (IDX)r.q;
        if (r.L >= 2) {
            nd[r.t0].next = (IDX)r.t1;
            nd[r.t1].prev = (IDX)r.t0;
            nd[r.t0].e = pdist<METRIC>(s, r.t0, r.t1);
        }
        if (r.L == 3) {
            nd[r.t1].next = (IDX)r.t2;
            nd[r.t2].prev = (IDX)r.t1;
            nd[r.t1].e = pdist<METRIC>(s, r.t1, r.t2);
        }
        nd[r.a].e = m.duz;
        nd[r.p].e = m.dpc;
        nd[r.t2].e = m.dcq;
        bc[0] = (IDX)r.a;
        bc[1] = (IDX)r.b;
        bc[2] = (IDX)r.p;
        bc[3] = (IDX)r.q;
        bc[4] = (IDX)r.t0;
        bc[5] = (IDX)r.t1;
        bc[6] = (IDX)r.t2;
    }
    tm.sync();
    if (WARP || tm.t < 7) {
        const int x = bc[rsel];
        const int pv = nd[x].prev, nx = nd[x].next;
        nd[x].rem = nd[pv].e + nd[x].e - pdist<METRIC>(s, pv, nx);
    }
    tm.sync();
}

// pspm_seg_links gives x's links after the segment move r (old: next in
// the low half, prev in the high): the segment's cities first, which are
// none of a, b, p, q.
__device__ __forceinline__ uint32_t pspm_seg_links(const PspmSegRelink &r, int x, uint32_t old) {
    int nx = (int)(old & 0xffffu), px = (int)(old >> 16);
    if (x == r.t0) {
        px = r.p;
        nx = r.L == 1 ? r.q : r.t1;
    } else if (x == r.t1) {
        px = r.t0;
        nx = r.L == 2 ? r.q : r.t2;
    } else if (x == r.t2) {
        px = r.t1;
        nx = r.q;
    } else {
        nx = x == r.a ? r.b : x == r.p ? r.t0 : nx;
        px = x == r.b ? r.a : x == r.q ? r.t2 : px;
    }
    return (uint32_t)nx | ((uint32_t)px << 16);
}

// pspm_apply_warp_seg makes lane winner's accepted segment move with the
// whole warp (16-bit list in shared memory): lane k < 21 recomputes word
// k / 7 (e, rem, links) of city k mod 7 of (a, b, p, q, t0, t1, t2) from
// the new links, with the same distances as pspm_rebuild.
template <int METRIC, typename IDX>
__device__ __forceinline__ void pspm_apply_warp_seg(const PspmState<IDX> &s, const PspmSeg &m, int winner, int lane) {
    const PspmSegRelink w = pspm_seg_relink(m);
    PspmSegRelink r;
    const uint32_t ab = __shfl_sync(0xffffffffu, (uint32_t)w.a | ((uint32_t)w.b << 16), winner);
    const uint32_t pq = __shfl_sync(0xffffffffu, (uint32_t)w.p | ((uint32_t)w.q << 16), winner);
    const uint32_t t01 = __shfl_sync(0xffffffffu, (uint32_t)w.t0 | ((uint32_t)w.t1 << 16), winner);
    const uint32_t t2L = __shfl_sync(0xffffffffu, (uint32_t)w.t2 | ((uint32_t)w.L << 16), winner);
    r.a = (int)(ab & 0xffffu), r.b = (int)(ab >> 16), r.p = (int)(pq & 0xffffu), r.q = (int)(pq >> 16);
    r.t0 = (int)(t01 & 0xffffu), r.t1 = (int)(t01 >> 16), r.t2 = (int)(t2L & 0xffffu), r.L = (int)(t2L >> 16);
    const int k = min(lane, 20), ci = k % 7, word = k / 7;
    const int x = ci == 0 ? r.a : ci == 1 ? r.b : ci == 2 ? r.p : ci == 3 ? r.q : ci == 4 ? r.t0 : ci == 5 ? r.t1 : r.t2;
    uint32_t *const rec = (uint32_t *)&s.nd[x];
    const uint32_t lx = pspm_seg_links(r, x, rec[2]);
    const int nx = (int)(lx & 0xffffu), px = (int)(lx >> 16);
    const float2 cx = s.xy[x], cn = s.xy[nx], cpv = s.xy[px];
    const int dxn = pspm_dist_raw<METRIC>(cx, cn);
    const int rem = pspm_dist_raw<METRIC>(cpv, cx) + dxn - pspm_dist_raw<METRIC>(cpv, cn);
    const uint32_t v = word == 0 ? (uint32_t)dxn : word == 1 ? (uint32_t)rem : lx;
    __syncwarp();  // every lane has read the old records
    rec[word] = v;
    __syncwarp();
}

// PspmRole is a lane's part in pspm_apply_warp: the city it rewrites (sel:
// byte_perm selector of c, p, b or a; isQ: q) and the word (0 e, 1 rem,
// 2 links).
struct PspmRole {
    uint32_t sel, isQ, word;
};

// pspm_role gives lane k < 15 city k mod 5 of (a, b, c, p, q) and word
// k / 5; lanes 15.. repeat lane 14.
__device__ __forceinline__ PspmRole pspm_role(int lane) {
    const int k = min(lane, 14), r = k % 5;
    PspmRole ro;
    ro.sel = r == 0 ? 0x76u : r == 1 ? 0x54u : r == 2 ? 0x10u : 0x32u;
    ro.isQ = r == 4;
    ro.word = (uint32_t)(k / 5);
    return ro;
}

// pspm_apply_warp makes lane winner's accepted move with the whole warp
// (16-bit list in shared memory): each lane recomputes one word (pspm_role)
// of one of the five changed records from the new links, with the same
// distances as pspm_rebuild so the caches stay exact, and one store writes
// all fifteen.
template <int METRIC, typename IDX>
__device__ __forceinline__ void pspm_apply_warp(const PspmState<IDX> &s, const PspmMove &m, int winner,
                                                const PspmRole &ro) {
    const uint32_t w0 = __shfl_sync(0xffffffffu, (uint32_t)m.c | ((uint32_t)m.p << 16), winner);
    const uint32_t q = __shfl_sync(0xffffffffu, (uint32_t)m.q, winner);
    const uint32_t c = w0 & 0xffffu, p = w0 >> 16;
    const uint32_t base = (uint32_t)__cvta_generic_to_shared(s.nd);
    uint32_t lc, lx;
    asm volatile("ld.shared.u32 %0, [%1+8];" : "=r"(lc) : "r"(base + 12u * c) : "memory");
    const uint32_t b = lc & 0xffffu, a = lc >> 16;  // next c, prev c
    const uint32_t x = ro.isQ ? q : __byte_perm(w0, lc, ro.sel) & 0xffffu;
    const uint32_t rx = base + 12u * x;
    asm volatile("ld.shared.u32 %0, [%1+8];" : "=r"(lx) : "r"(rx) : "memory");
    // The relink's new links of x (next in the low half, prev in the high).
    const uint32_t nx = x == a ? b : x == p ? c : x == c ? q : (lx & 0xffffu);
    const uint32_t px = x == b ? a : x == c ? p : x == q ? c : (lx >> 16);
    const float2 cx = s.xy[x], cn = s.xy[nx], cpv = s.xy[px];
    const int dxn = pspm_dist_raw<METRIC>(cx, cn);
    const int dpx = pspm_dist_raw<METRIC>(cpv, cx);
    const int dpn = pspm_dist_raw<METRIC>(cpv, cn);
    // rem in every lane (opaque: else a branch and reconvergence barrier).
    int rem = dpx + dxn - dpn;
    asm volatile("" : "+r"(rem));
    const uint32_t v = ro.word == 0 ? (uint32_t)dxn : ro.word == 1 ? (uint32_t)rem : nx | (px << 16);
    __syncwarp();  // every lane has read the old records
    asm volatile("st.shared.u32 [%0], %1;" ::"r"(rx + 4u * ro.word), "r"(v) : "memory");
    __syncwarp();
}

// pspm_save copies the search's tour (the next links) to dst.
template <typename IDX>
__device__ __forceinline__ void pspm_save(int *dst, const PspmNode<IDX> *nd, int n, int tid, int size) {
    for (int x = tid; x < n; x += size) dst[x] = nd[x].next;
}

// PspmLaunch is one pspm_anneal launch's arguments: per search b the
// current tour cur[b*n ..] (next array) and curCost[b], the LWSA archive
// arch and archCost (fromBest: start from gbest instead); iterations
// [iterStart, iterEnd), iteration i at T0 * alpha^((i - iterOrigin) /
// itersPerStep); the neighbour lists nbr (nnK per city) from step nnStep
// on, on the lanes not set in nnMix; segments of up to seg cities.
template <typename IDX>
struct PspmLaunch {
    const float2 *xy;
    int n;
    int *cur;
    long long *curCost;
    int *arch;
    long long *archCost;
    const int *gbest;
    const long long *gbestCost;
    int fromBest;
    long long iterStart, iterEnd, itersPerStep, iterOrigin;
    double T0, alpha;
    int tpb;
    unsigned long long seed;
    PspmNode<IDX> *gscratch;
    int searches;
    const unsigned short *nbr;
    int nnK;
    long long nnStep;
    uint32_t nnMix;
    int seg;  // the longest segment a move carries (1: relocations only)
};

// PspmSearch is one team's search: load (shared copies and the tour),
// steps (the annealing loop), store (tour and costs back to global memory).
// MODE bits put in shared memory: 1 the city records (else gscratch), 2 the
// coordinates, 4 the neighbour lists. WARP: a warp is one search of M moves
// per lane, else the block is. NNOK: the kernel has the neighbour draw.
//
// The draw: uniform (Lam et al.: c and p uniform, q = next p), or, from
// step nnStep on, c beside v, one of its nnK nearest cities (after or
// before it, a random bit deciding), where the improving moves are at low
// temperature; the lanes in nnMix stay uniform. The loop is bound by
// instruction issue, so: stratified draws (distinct banks), no modulo,
// invalid moves keyed by a select, Metropolis as one compare against a
// threshold ceil(-T ln u) drawn per batch of 32 iterations into a shared
// table, and the winner relinks alone. SEG: the kernel of segment moves
// (a separate kernel, so that the relocations' keeps its registers).
template <int METRIC, typename IDX, bool WARP, int M, int MODE, bool NNOK, bool SEG>
struct PspmSearch {
    static constexpr int BATCH = 32;  // iterations per threshold draw
    // UK: a warp keys (delta - th) * 32 + i (no overflow), so the minimum is
    // negative exactly when the winner passes, and the accept follows a
    // uniform vote (no reconvergence barrier).
    static constexpr bool UK = WARP;
    // WAPPLY: the whole warp makes the move (pspm_apply_warp) where the
    // neighbour lists' global loads leave issue slots free; not CEIL_2D,
    // whose distance is too dear (docs/DECISIONS.md#pspm-warp-apply).
    static constexpr bool WAPPLY = WARP && M == 1 && NNOK && (MODE & 1) && !(MODE & 4) && sizeof(IDX) == 2 &&
                                   METRIC != METRIC_CEIL_2D;

    const PspmLaunch<IDX> &a;
    Team<WARP> tm;
    int lane, warp, nwarps, b, tid, rsel, rsel7;
    PspmState<IDX> s;
    IDX *bc;
    uint4 *tab;
    const unsigned short *nbr;
    long long cost, best;
    uint32_t nnO, nm1O, bkey;
    // Move j is the team's move i = tid + j*32; its c is base + (i mod n) +
    // 32k mod n, k < kcN (p likewise over n - 1).
    uint32_t lc[M], kcN[M], lp[M], kpN[M];
    uint32_t uniLane[M];  // the lane stays uniform (nnMix), at bit 8
    int kFloor[M];        // UK: PSPM_NOKEY past tpb, through one max
    PspmRole role;
    PspmLcg gen;

    __device__ __forceinline__ explicit PspmSearch(const PspmLaunch<IDX> &args) : a(args) {}

    // load copies the shared data, the search's tour (or the global best)
    // into its list, and sets up the draw; false: this warp has no search.
    __device__ __forceinline__ bool load(unsigned char *smem) {
        const int n = a.n;
        lane = threadIdx.x & 31;
        warp = threadIdx.x >> 5;
        const int perBlock = WARP ? (int)(blockDim.x >> 5) : 1;
        const int slot = WARP ? warp : 0;
        b = blockIdx.x * perBlock + slot;
        // Shared memory: a slot per team, coordinates, neighbour lists, lists.
        bc = (IDX *)(smem + PSPM_SLOT_BYTES * slot);
        tab = (uint4 *)(smem + PSPM_SLOT_BYTES * slot + 32);
        unsigned char *sp = smem + PSPM_SLOT_BYTES * perBlock;
        if (MODE & 2) {
            float2 *x2 = (float2 *)sp;
            for (int k = threadIdx.x; k < n; k += blockDim.x) x2[k] = a.xy[k];
            s.xy = x2;
            sp += ((size_t)n * sizeof(float2) + 15) & ~(size_t)15;
        } else {
            s.xy = a.xy;
        }
        nbr = a.nbr;
        if (NNOK && (MODE & 4)) {
            // 4-byte copies: nnK*n is even (the host pads the lists).
            uint32_t *nb2 = (uint32_t *)sp;
            const uint32_t *src2 = (const uint32_t *)a.nbr;
            for (int k = threadIdx.x; k < (a.nnK * n + 1) / 2; k += blockDim.x) nb2[k] = src2[k];
            nbr = (const unsigned short *)sp;
            sp += ((size_t)((a.nnK * n + 1) & ~1) * 2 + 15) & ~(size_t)15;
        }
        __syncthreads();
        if (b >= a.searches) return false;
        const size_t listBytes = ((size_t)n * sizeof(PspmNode<IDX>) + 15) & ~(size_t)15;
        s.nd = (MODE & 1) ? (PspmNode<IDX> *)(sp + listBytes * slot) : a.gscratch + (size_t)b * n;
        PspmNode<IDX> *const nd = s.nd;
        const int *src = a.fromBest ? a.gbest : a.cur + (size_t)b * n;
        for (int x = tm.t; x < n; x += tm.size) nd[x].next = (IDX)src[x];
        cost = a.fromBest ? a.gbestCost[0] : a.curCost[b];
        best = a.archCost[b];
        tm.sync();
        pspm_rebuild<METRIC, IDX, WARP>(s, n, tm);
        tid = tm.t;
        nwarps = WARP ? 1 : (blockDim.x + 31) >> 5;
        drawSetUp();
        return true;
    }

    // drawSetUp prepares the thread's draw constants and generators.
    __device__ __forceinline__ void drawSetUp() {
        const uint32_t nn = (uint32_t)a.n, nm1 = (uint32_t)max(a.n - 1, 1);
#pragma unroll
        for (int j = 0; j < M; j++) {
            const uint32_t i = (uint32_t)(tid + j * 32);
            lc[j] = i % nn;
            kcN[j] = (nn - lc[j] + 31) >> 5;
            lp[j] = i % nm1;
            kpN[j] = (nm1 - lp[j] + 31) >> 5;
        }
        // Opaque: else recomputed in every iteration.
#pragma unroll
        for (int j = 0; j < M; j++) {
            kFloor[j] = tid + j * 32 < a.tpb ? (int)0x80000000 : PSPM_NOKEY;
            asm volatile("" : "+r"(kFloor[j]));
        }
#pragma unroll
        for (int j = 0; j < M; j++) {
            uniLane[j] = ((a.nnMix >> ((tid + j * 32) & 31)) & 1u) << 8;
            asm volatile("" : "+r"(uniLane[j]));
        }
        rsel = min(tid, 4);
        rsel7 = min(tid, 6);
        role = PspmRole{};
        if constexpr (WAPPLY) {
            role = pspm_role(lane);
            asm volatile("" : "+r"(role.sel), "+r"(role.isQ), "+r"(role.word));
        }
        const uint32_t tkey = stream_key(a.seed, (uint32_t)(b * 1024 + tid));
        bkey = stream_key(a.seed ^ 0x5bd1e995ull, (uint32_t)b);
        gen = pspm_lcg_seed(tkey, a.iterStart);
        asm volatile("" : "+r"(bkey));
        nnO = nn;
        nm1O = nm1;
        asm volatile("" : "+r"(nnO), "+r"(nm1O));
#pragma unroll
        for (int j = 0; j < M; j++) asm volatile("" : "+r"(lc[j]), "+r"(kcN[j]), "+r"(lp[j]), "+r"(kpN[j]));
    }

    // evaluate draws and evaluates the thread's M moves of the iteration
    // whose table entry is tv, keeping the best in m; it returns its key.
    // Each move's c is uniform, and a team's c are distinct and in distinct
    // banks (the shared base plus the thread's offset (i mod n) + 32k).
    template <bool NN>
    __device__ __forceinline__ int evaluate(const uint4 &tv, PspmMove &m) {
        const PspmNode<IDX> *const nd = s.nd;
        const uint32_t bcBase = tv.x, bpBase = tv.y;
        const int th = (int)tv.z;
        int key = PSPM_NOKEY;
#pragma unroll
        for (int j = 0; j < M; j++) {
            const uint32_t r = gen.next();
            // r * kcN: the high word picks c's stratum, the low one p and v.
            const uint32_t fr = r * kcN[j];
            uint32_t uc = bcBase + lc[j] + (__umulhi(r, kcN[j]) << 5);
            uc = min(uc, uc - nnO);  // unsigned: subtracts n once when uc >= n
            const int c = (int)uc;
            int p, q, epR;
            float2 cp, cq;
            uint32_t up = bpBase + lp[j] + (__umulhi(fr, kpN[j]) << 5);
            up = min(up, up - nm1O);
            if (NN) {
                // v: an entry of c's list (uniform lanes: p's draw); the
                // fraction's bit 8 picks the side.
                const int pu = (int)up + ((int)up >= c);
                const int vl = nbr[c * a.nnK + (int)__umulhi(fr, (uint32_t)a.nnK)];
                const int v = uniLane[j] != 0 ? pu : vl;
                const int vn = nd[v].next, vpv = nd[v].prev;
                uint32_t side;  // (uniLane | fr) & 0x100: one LOP3
                asm("lop3.b32 %0, %1, %2, 0x100, 0xa8;" : "=r"(side) : "r"(uniLane[j]), "r"(fr));
                const bool after = side != 0;
                p = after ? v : vpv;
                q = after ? vn : v;
                cp = s.xy[p];
                cq = s.xy[q];
                epR = pspm_dist_raw<METRIC>(cp, cq);  // = e[p] + PSPM_RAW: same function, same pair
            } else {
                p = (int)up;
                p += (p >= c);
                q = nd[p].next;
                cp = s.xy[p];
                cq = s.xy[q];
                // WAPPLY: e[p] from the coordinates (the same value).
                epR = WAPPLY ? pspm_dist_raw<METRIC>(cp, cq) : nd[p].e;
            }
            const int pa = WAPPLY ? 0 : nd[c].prev;
            const int remc = nd[c].rem;
            const float2 cc = s.xy[c];
            const int dpc = pspm_dist_raw<METRIC>(cp, cc);
            const int dcq = pspm_dist_raw<METRIC>(cc, cq);
            const int delta = dpc + dcq - epR - remc;  // the biases cancel
            // p = a (q = c) and p = c are no moves; |delta| < 2^25 (the
            // host checks the span); the key's low bits: move index or lane.
            const int i = tid + j * 32;
            const int ki = (WARP && M == 1) ? i : lane;
            const bool okM = (WAPPLY ? q != c : p != pa) && (!NN || p != c);
            const int kj = UK ? max(okM ? (delta - th) * 32 + ki : PSPM_NOKEY, kFloor[j])
                              : (i < a.tpb && okM ? delta * 32 + ki : PSPM_NOKEY);
            if (M == 1 || kj < key) {
                key = kj;
                m = PspmMove{c, p, pa, q, dpc, dcq, remc};
            }
        }
        return key;
    }

    // evaluateSeg is evaluate for segment moves (PspmSeg): each move also
    // draws its length L (uniform in 1 .. seg) and the direction of its walk
    // from c, and its orientation (the uniform draw) or side of v.
    template <bool NN>
    __device__ __forceinline__ int evaluateSeg(const uint4 &tv, PspmSeg &m) {
        const PspmNode<IDX> *const nd = s.nd;
        int key = PSPM_NOKEY;
#pragma unroll
        for (int j = 0; j < M; j++) {
            const uint32_t r = gen.next(), r2 = gen.next();
            const uint32_t fr = r * kcN[j];
            uint32_t uc = tv.x + lc[j] + (__umulhi(r, kcN[j]) << 5);
            uc = min(uc, uc - nnO);
            const int c = (int)uc;
            uint32_t up = tv.y + lp[j] + (__umulhi(fr, kpN[j]) << 5);
            up = min(up, up - nm1O);
            PspmSeg sm;
            sm.c = c;
            sm.fl = segWalk(sm, r2);
            const int L = (int)(sm.fl & 3u);
            const bool after = segPlace<NN>(sm, up, fr, r2, j);
            sm.fl |= after ? 8u : 0u;
            const int yl = L == 1 ? c : L == 2 ? sm.y1 : sm.y2;
            const int duc = nd[(sm.fl & 4u) ? sm.u : c].e, dlz = nd[(sm.fl & 4u) ? yl : sm.z].e;
            const float2 cc = s.xy[c], cl = s.xy[yl], cp = s.xy[sm.p], cq = s.xy[sm.q];
            sm.duz = pspm_dist_raw<METRIC>(s.xy[sm.u], s.xy[sm.z]);
            sm.dpc = pspm_dist_raw<METRIC>(cp, after ? cc : cl);
            sm.dcq = pspm_dist_raw<METRIC>(after ? cl : cc, cq);
            // the biases of the six raw distances cancel
            const int delta = sm.dpc + sm.dcq - pspm_dist_raw<METRIC>(cp, cq) - (duc + dlz - sm.duz);
            const bool okM = !segHas(sm, L, sm.p) && !segHas(sm, L, sm.q);
            const int i = tid + j * 32;
            const int ki = (WARP && M == 1) ? i : lane;
            const int kj = UK ? max(okM ? (delta - (int)tv.z) * 32 + ki : PSPM_NOKEY, kFloor[j])
                              : (i < a.tpb && okM ? delta * 32 + ki : PSPM_NOKEY);
            if (M == 1 || kj < key) {
                key = kj;
                m = sm;
            }
        }
        return key;
    }

    // segWalk draws the segment's length and direction from r2 and walks it
    // from m.c: y1, y2, u and z; it returns L | dn << 2.
    __device__ __forceinline__ uint32_t segWalk(PspmSeg &m, uint32_t r2) {
        const PspmNode<IDX> *const nd = s.nd;
        const uint32_t L = 1 + __umulhi(r2, (uint32_t)a.seg);
        const bool dn = (r2 & 0x100u) != 0;
        const int cn = nd[m.c].next, cpv = nd[m.c].prev;
        m.u = dn ? cpv : cn;
        m.y1 = dn ? cn : cpv;
        m.y2 = dn ? nd[m.y1].next : nd[m.y1].prev;
        int y3 = m.y2;  // seg 2: no third load
        if (a.seg > 2) y3 = dn ? nd[m.y2].next : nd[m.y2].prev;
        m.z = L == 1 ? m.y1 : L == 2 ? m.y2 : y3;
        return L | (dn ? 4u : 0u);
    }

    // segHas reports whether x is one of the segment's L cities.
    __device__ __forceinline__ static bool segHas(const PspmSeg &m, int L, int x) {
        return x == m.c || (L >= 2 && x == m.y1) || (L >= 3 && x == m.y2);
    }

    // segPlace draws where the segment goes, as evaluate draws p and q: p
    // uniform and q = next p, the orientation random; or (NN, not a uniform
    // lane) beside v, one of c's nearest, after it or before it, c beside
    // v. It returns after (c beside p).
    template <bool NN>
    __device__ __forceinline__ bool segPlace(PspmSeg &m, uint32_t up, uint32_t fr, uint32_t r2, int j) {
        const PspmNode<IDX> *const nd = s.nd;
        if (NN && uniLane[j] == 0) {
            const int v = nbr[m.c * a.nnK + (int)__umulhi(fr, (uint32_t)a.nnK)];
            const bool after = (fr & 0x100u) != 0;
            m.p = after ? v : (int)nd[v].prev;
            m.q = after ? (int)nd[v].next : v;
            return after;
        }
        m.p = (int)up + ((int)up >= m.c);
        m.q = nd[m.p].next;
        return (r2 & 0x200u) != 0;
    }

    // batch runs iterations ctrB .. ctrEnd-1 at one temperature, with the
    // draw NN (true: neighbour lists), segment moves (SEG) or relocations;
    // entry ctr - ctrB of the table is iteration ctr's.
    template <bool NN>
    __device__ __forceinline__ void batch(uint32_t ctrB, uint32_t ctrEnd) {
        const uint4 *const tpEnd = tab + (ctrEnd - ctrB);
        for (const uint4 *tp = tab; tp != tpEnd; tp++) {
            const uint4 tv = *tp;
            const int th = (int)tv.z, th32 = (int)tv.w;  // th32 = th * 32
            PspmMove m{};
            PspmSeg sm{};
            const int key = SEG ? evaluateSeg<NN>(tv, sm) : evaluate<NN>(tv, m);
            int winKey, winner;
            pspm_team_min<WARP>(key, lane, warp, nwarps, swkey(), winKey, winner);
            // Metropolis on the winner: one compare (UK: the key's sign).
            const int wdelta = UK ? (winKey >> 5) + th : winKey >> 5;
            if (UK) {
                if (!__any_sync(0xffffffffu, winKey < 0)) continue;
            } else if (winKey >= th32) {
                continue;
            }
            // LWSA (Alg. 2): archive the best before a worse move.
            if (wdelta > 0 && cost < best) {
                pspm_save(a.arch + (size_t)b * a.n, s.nd, a.n, tid, tm.size);
                best = cost;
                tm.sync();  // read before the winner relinks
            }
            if constexpr (SEG && WAPPLY)
                pspm_apply_warp_seg<METRIC, IDX>(s, sm, winner, lane);
            else if constexpr (SEG)
                pspm_apply_seg<METRIC, IDX, WARP>(s, sm, tid == winner, rsel7, bc, tm);
            else if constexpr (WAPPLY)
                pspm_apply_warp<METRIC, IDX>(s, m, winner, role);
            else
                pspm_apply<METRIC, IDX, WARP, (MODE & 1) != 0>(s, m, tid == winner, true, rsel, bc, tm);
            cost += wdelta;
        }
    }

    // swkey is the block team's per-warp minima (unused by warp teams).
    __device__ __forceinline__ int *swkey() {
        __shared__ int k[PSPM_MAXWARPS];
        return k;
    }

    // steps runs the launch's iterations, a batch of 32 per threshold table.
    __device__ __forceinline__ void steps() {
        const uint32_t nn = (uint32_t)a.n, nm1 = (uint32_t)max(a.n - 1, 1);
        for (long long it = a.iterStart; it < a.iterEnd;) {
            const long long step = (it - a.iterOrigin) / a.itersPerStep;
            const float T = (float)(a.T0 * pow(a.alpha, (double)step));
            const float negTln2 = -0.6931471805599453f * T;
            const uint32_t ctr0 = (uint32_t)it;
            const int ips = (int)(min(a.iterEnd, a.iterOrigin + (step + 1) * a.itersPerStep) - it);  // this step's part
            it += ips;
            const bool nnNow = NNOK && a.nbr != nullptr && step >= a.nnStep;
            for (int it0 = 0; it0 < ips; it0 += BATCH) {
                const uint32_t ctrB = ctr0 + (uint32_t)it0;
                const uint32_t ctrEnd = ctrB + (uint32_t)min(BATCH, ips - it0);
                int thr;
                uint32_t bsh;  // the base draw of the counter that is rank mod BATCH
                pspm_thresholds<BATCH>(bkey, ctrB, WARP ? tid : lane, negTln2, thr, bsh);
                // Rank t (warp 0 of a block team) writes its counter's entry.
                const unsigned long long bw = (unsigned long long)bsh * nn;
                tm.sync();
                if (WARP || tid < 32)
                    tab[((uint32_t)(WARP ? tid : lane) - ctrB) & (BATCH - 1)] =
                        make_uint4((uint32_t)(bw >> 32), __umulhi((uint32_t)bw, nm1), (uint32_t)thr, (uint32_t)thr << 5);
                tm.sync();
                if (NNOK && nnNow)
                    batch<NNOK>(ctrB, ctrEnd);
                else
                    batch<false>(ctrB, ctrEnd);
            }
        }
    }

    // store flushes the archive and saves the current tour.
    __device__ __forceinline__ void store() {
        if (cost < best) {
            pspm_save(a.arch + (size_t)b * a.n, s.nd, a.n, tid, tm.size);
            best = cost;
        }
        pspm_save(a.cur + (size_t)b * a.n, s.nd, a.n, tid, tm.size);
        if (tid == 0) {
            a.curCost[b] = cost;
            a.archCost[b] = best;
        }
    }
};

// PspmTour is a block search whose warps each evaluate 32 moves on the one
// shared tour (links only, next | prev << 16; a delta is six distances) and
// make their own winner's move, so a large instance keeps an SM busy. A
// winner locks its five cities and checks that the links it evaluated are
// unchanged, so its delta is exact and the tracked cost stays the tour's.
// The moves interleave in no fixed order (no exact replay); the archive is
// updated at the launch's end.
template <int METRIC>
struct PspmTour {
    const PspmLaunch<unsigned short> &a;
    float2 *xy;
    uint32_t *links;  // next | prev << 16
    uint32_t *lock;   // one bit per city
    int lane;

    __device__ __forceinline__ int d(float2 u, float2 v) const { return pspm_dist_raw<METRIC>(u, v); }

    // move makes lane w's move (c from between a and b to between p and q)
    // if its cities are free and its links unchanged (the whole warp).
    __device__ __forceinline__ bool move(int w, uint32_t c, uint32_t p, uint32_t q, uint32_t ca, uint32_t cb) {
        const uint32_t cp = __shfl_sync(0xffffffffu, c | (p << 16), w), qa = __shfl_sync(0xffffffffu, q | (ca << 16), w);
        const uint32_t b = __shfl_sync(0xffffffffu, cb, w);
        c = cp & 0xffffu, p = cp >> 16, q = qa & 0xffffu;
        const uint32_t an = qa >> 16;
        // lane k < 5 locks city k of (c, p, q, a, b) unless a lower lane has it
        const uint32_t x = lane == 0 ? c : lane == 1 ? p : lane == 2 ? q : lane == 3 ? an : b;
        const bool mine = lane < 5 && !(lane > 0 && x == c) && !(lane > 1 && x == p) && !(lane > 2 && x == q) &&
                          !(lane > 3 && x == an);
        const uint32_t bit = 1u << (x & 31);
        bool got = true;
        if (mine) got = (atomicOr(&lock[x >> 5], bit) & bit) == 0;
        bool ok = false;
        if (__all_sync(0xffffffffu, got)) {
            __threadfence_block();
            const volatile uint32_t *vl = links;
            ok = vl[c] == (b | (an << 16)) && (vl[p] & 0xffffu) == q;
            if (ok && lane < 6) {
                // a.next = b, b.prev = a, p.next = c, c.prev = p, c.next = q, q.prev = c
                // (distinct fields also when p = b or q = a)
                const uint32_t at = lane == 0 ? 2 * an : lane == 1 ? 2 * b + 1 : lane == 2 ? 2 * p
                                  : lane == 3 ? 2 * c + 1 : lane == 4 ? 2 * c : 2 * q + 1;
                const uint32_t v = lane == 0 ? b : lane == 1 ? an : lane == 2 ? c : lane == 3 ? p : lane == 4 ? q : c;
                ((volatile unsigned short *)links)[at] = (unsigned short)v;
            }
            __threadfence_block();
        }
        __syncwarp();
        if (mine && got) atomicAnd(&lock[x >> 5], ~bit);
        return ok;
    }

    // run loads the tour, anneals the launch's iterations and stores the
    // tour and its cost (the archive too when it is the best).
    __device__ __forceinline__ void run(unsigned char *smem) {
        const int n = a.n, b = blockIdx.x;
        if (b >= a.searches) return;
        lane = threadIdx.x & 31;
        const size_t xyBytes = ((size_t)n * 8 + 15) & ~(size_t)15, linkBytes = ((size_t)n * 4 + 15) & ~(size_t)15;
        xy = (float2 *)smem;
        links = (uint32_t *)(smem + xyBytes);
        lock = (uint32_t *)(smem + xyBytes + linkBytes);
        unsigned short *const half = (unsigned short *)links;  // half[2x] = next x, half[2x+1] = prev x
        __shared__ unsigned long long moved;                   // the accepted deltas' sum
        const int *src = a.fromBest ? a.gbest : a.cur + (size_t)b * n;
        const long long start = a.fromBest ? a.gbestCost[0] : a.curCost[b], best = a.archCost[b];
        for (int x = threadIdx.x; x < n; x += blockDim.x) {
            xy[x] = a.xy[x];
            links[x] = (uint32_t)src[x];
        }
        for (int k = threadIdx.x; k < (n + 31) / 32; k += blockDim.x) lock[k] = 0;
        if (threadIdx.x == 0) moved = 0;
        __syncthreads();
        for (int x = threadIdx.x; x < n; x += blockDim.x) half[2 * half[2 * x] + 1] = (unsigned short)x;
        __syncthreads();

        const uint32_t nn = (uint32_t)n, nm1 = nn - 1, K = (uint32_t)a.nnK;
        const bool uni = ((a.nnMix >> lane) & 1u) != 0;
        const uint32_t bkey = stream_key(a.seed ^ 0x5bd1e995ull, (uint32_t)(b * 32 + (threadIdx.x >> 5)));
        PspmLcg gen = pspm_lcg_seed(stream_key(a.seed, (uint32_t)(b * 1024 + threadIdx.x)), a.iterStart);
        long long sum = 0;
        for (long long it = a.iterStart; it < a.iterEnd;) {
            const long long step = (it - a.iterOrigin) / a.itersPerStep;
            const float negTln2 = -0.6931471805599453f * (float)(a.T0 * pow(a.alpha, (double)step));
            const uint32_t ctr0 = (uint32_t)it;
            const int ips = (int)(min(a.iterEnd, a.iterOrigin + (step + 1) * a.itersPerStep) - it);
            it += ips;
            const bool near = a.nbr != nullptr && step >= a.nnStep && !uni;
            for (int it0 = 0; it0 < ips; it0 += 32) {
                const uint32_t ctrB = ctr0 + (uint32_t)it0;
                int thr;
                uint32_t unused;
                pspm_thresholds<32>(bkey, ctrB, lane, negTln2, thr, unused);
                const int cnt = min(32, ips - it0);
                for (int i = 0; i < cnt; i++) {
                    const int th = __shfl_sync(0xffffffffu, thr, (int)((ctrB + (uint32_t)i) & 31));
                    const uint32_t r = gen.next(), r2 = gen.next();
                    // c uniform; p uniform (c after it), or beside one of c's
                    // near cities v, after v or before it (r2's bit 8)
                    const uint32_t c = __umulhi(r, nn);
                    const uint32_t lc = links[c], ca = lc >> 16, cb = lc & 0xffffu;
                    uint32_t v = __umulhi(r2, nm1);
                    v += v >= c;
                    if (near) v = a.nbr[c * K + __umulhi(r2, K)];
                    const uint32_t lv = links[v];
                    const bool after = !near || (r2 & 0x100u) != 0;
                    const uint32_t p = after ? v : lv >> 16, q = after ? lv & 0xffffu : v;
                    const float2 xc = xy[c], xp = xy[p], xq = xy[q], xa = xy[ca], xb = xy[cb];
                    // the biases of the six raw distances cancel
                    const int delta = (d(xp, xc) + d(xc, xq) - d(xp, xq)) - (d(xa, xc) + d(xc, xb) - d(xa, xb));
                    const int key = warp_min(p != c && q != c ? (delta - th) * 32 + lane : PSPM_NOKEY);
                    if (key >= 0) continue;  // Metropolis: the winner's delta < th
                    if (move(key & 31, c, p, q, ca, cb)) sum += (key >> 5) + th;
                }
            }
        }
        if (lane == 0) atomicAdd(&moved, (unsigned long long)sum);
        __syncthreads();
        const long long cost = start + (long long)moved;
        int *cur = a.cur + (size_t)b * n, *arch = a.arch + (size_t)b * n;
        for (int x = threadIdx.x; x < n; x += blockDim.x) {
            const int nx = half[2 * x];
            cur[x] = nx;
            if (cost < best) arch[x] = nx;
        }
        if (threadIdx.x == 0) {
            a.curCost[b] = cost;
            if (cost < best) a.archCost[b] = cost;
        }
    }
};

// PSPM_ENTRY gives each layout the C name the host looks up; every
// parameter is 8 bytes wide (the host packs 8-byte slots). Warp kernels run
// at most 8 warps a block (planPSPM), a bound that keeps the loop's values
// in registers.
#define PSPM_ENTRY(NAME, IDX, BOUNDS, ...)                                                                          \
    extern "C" __global__ void BOUNDS NAME(const float2 *xy, long long n, int *cur, long long *curCost, int *arch,  \
                                           long long *archCost, const int *gbest, const long long *gbestCost,       \
                                           long long fromBest, long long iterStart, long long iterEnd,              \
                                           long long itersPerStep, long long iterOrigin, double T0, double alpha,   \
                                           long long tpb, unsigned long long seed, PspmNode<IDX> *gscratch,         \
                                           long long searches, const unsigned short *nbr, long long nnK,            \
                                           long long nnStep, long long nnMix, long long seg) {                                     \
        extern __shared__ __align__(16) unsigned char smem[];                                                      \
        const PspmLaunch<IDX> a{xy,        (int)n,     cur,     curCost,      arch,       archCost,   gbest,       \
                                gbestCost, (int)fromBest, iterStart, iterEnd, itersPerStep, iterOrigin, T0,       \
                                alpha,     (int)tpb,   seed,    gscratch,     (int)searches, nbr,     (int)nnK,    \
                                nnStep,    (uint32_t)nnMix, (int)seg};                                                        \
        __VA_ARGS__                                                                                                 \
    }
#define PSPM_KERNEL(NAME, METRIC, IDX, WARP, M, MODE, NNOK, SEG, BOUNDS)             \
    PSPM_ENTRY(NAME, IDX, BOUNDS, PspmSearch<METRIC, IDX, WARP, M, MODE, NNOK, SEG> search(a); \
               if (!search.load(smem)) return;                                  \
               search.steps();                                                  \
               search.store();)
// A shared-tour search: a block of up to 32 warps (64 registers a thread).
#define PSPM_TOUR(NAME, METRIC) \
    PSPM_ENTRY(NAME, unsigned short, __launch_bounds__(1024, 1), PspmTour<METRIC>{a}.run(smem);)
// Each layout is stamped twice: relocations (NAME) and segment moves
// (NAME_seg, the seg option > 1), the latter held to the former's registers
// (a warp kernel 4 blocks of 8 warps per SM, 3 with two moves per lane).
#define PSPM_WARP(NAME, METRIC, M, MODE)                                                                         \
    PSPM_KERNEL(NAME, METRIC, unsigned short, true, M, MODE, true, false, __launch_bounds__(256))                 \
    PSPM_KERNEL(NAME##_seg, METRIC, unsigned short, true, M, MODE, true, true,                                   \
                __launch_bounds__(256, (M) == 1 ? 4 : 3))
#define PSPM_BLOCK(NAME, METRIC, IDX, MODE)                                           \
    PSPM_KERNEL(NAME, METRIC, IDX, false, 1, MODE, sizeof(IDX) == 2, false, )          \
    PSPM_KERNEL(NAME##_seg, METRIC, IDX, false, 1, MODE, sizeof(IDX) == 2, true, __launch_bounds__(1024))
// The layouts (the same list as gpu pspmLayouts): a search per warp of one
// move per lane (w) or two (t32x2), a search per block (b), or PspmTour
// (tour); u16 with the neighbour draw, u32 without; the digit is MODE.
#define PSPM_METRIC(M, METRIC)                                                       \
    PSPM_WARP(pspm_anneal_##M##_u16_w7, METRIC, 1, 7)                               \
    PSPM_WARP(pspm_anneal_##M##_u16_w3, METRIC, 1, 3)                               \
    PSPM_WARP(pspm_anneal_##M##_u16_w1, METRIC, 1, 1)                               \
    PSPM_WARP(pspm_anneal_##M##_u16_w0, METRIC, 1, 0)                               \
    PSPM_WARP(pspm_anneal_##M##_u16_t32x27, METRIC, 2, 7)                           \
    PSPM_WARP(pspm_anneal_##M##_u16_t32x23, METRIC, 2, 3)                           \
    PSPM_KERNEL(pspm_anneal_##M##_u32_w0, METRIC, int, true, 1, 0, false, false, __launch_bounds__(256)) \
    PSPM_KERNEL(pspm_anneal_##M##_u32_w0_seg, METRIC, int, true, 1, 0, false, true, __launch_bounds__(256, 4)) \
    PSPM_BLOCK(pspm_anneal_##M##_u16_b3, METRIC, unsigned short, 3)                 \
    PSPM_BLOCK(pspm_anneal_##M##_u16_b1, METRIC, unsigned short, 1)                 \
    PSPM_BLOCK(pspm_anneal_##M##_u16_b0, METRIC, unsigned short, 0)                 \
    PSPM_BLOCK(pspm_anneal_##M##_u32_b0, METRIC, int, 0)                       \
    PSPM_TOUR(pspm_anneal_##M##_u16_tour, METRIC)
PSPM_METRIC(euc, METRIC_EUC_2D)
PSPM_METRIC(ceil, METRIC_CEIL_2D)
PSPM_METRIC(att, METRIC_ATT)

// pspm_sync copies the tour of the search with the lowest archived cost
// (ties: the lowest number) to gbest. PSPM_REDUCE_THREADS (gpu
// pspmReduceThreads) is its and pspm_init's block size, a power of two.
#define PSPM_REDUCE_THREADS 1024

extern "C" __global__ void __launch_bounds__(PSPM_REDUCE_THREADS)
    pspm_sync(const long long *archCost, long long blocks, const int *arch, long long n, int *gbest,
              long long *gbestCost, int *gbestBlock) {
    __shared__ long long sc[PSPM_REDUCE_THREADS];
    __shared__ int sb[PSPM_REDUCE_THREADS];
    long long bc = 0x7fffffffffffffffll;
    int bb = 0x7fffffff;
    for (int k = threadIdx.x; k < (int)blocks; k += blockDim.x) {
        long long v = archCost[k];
        if (v < bc) {
            bc = v;
            bb = k;
        }
    }
    sc[threadIdx.x] = bc;
    sb[threadIdx.x] = bb;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            long long o = sc[threadIdx.x + s];
            int ob = sb[threadIdx.x + s];
            if (o < sc[threadIdx.x] || (o == sc[threadIdx.x] && ob < sb[threadIdx.x])) {
                sc[threadIdx.x] = o;
                sb[threadIdx.x] = ob;
            }
        }
        __syncthreads();
    }
    int w = sb[0];
    const int *src = arch + (size_t)w * n;
    for (int x = threadIdx.x; x < (int)n; x += blockDim.x) gbest[x] = src[x];
    if (threadIdx.x == 0) {
        gbestCost[0] = sc[0];
        gbestBlock[0] = w;
    }
}

// tour_cost writes the integer cost of the block's tour (next array).
template <int METRIC>
__device__ void tour_cost(const float2 *xy, const int *next, int n, long long *out) {
    __shared__ long long red[PSPM_REDUCE_THREADS];
    long long sum = 0;
    for (int x = threadIdx.x; x < n; x += blockDim.x) {
        float2 p = xy[x], q = xy[next[x]];
        sum += int_dist<METRIC>(p.x, p.y, q.x, q.y);
    }
    red[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) red[threadIdx.x] += red[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = red[0];
}

// pspm_init gives every block the tour start, or else a random one
// (Fisher-Yates on the block's stream), its cost, and the archive.
template <int METRIC>
__device__ void pspm_init_impl(const float2 *xy, int n, const int *start, int *cur, long long *curCost, int *arch,
                               long long *archCost, unsigned long long seed) {
    const int b = blockIdx.x;
    int *c = cur + (size_t)b * n, *a = arch + (size_t)b * n;
    if (start) {
        for (int x = threadIdx.x; x < n; x += blockDim.x) c[x] = start[x];
    } else if (threadIdx.x == 0) {
        // arch as scratch: a random order of the cities, then its next array.
        uint32_t key = stream_key(seed ^ 0x9e3779b97f4a7c15ull, (uint32_t)b);
        for (int k = 0; k < n; k++) a[k] = k;
        for (int k = n - 1; k > 0; k--) {
            int r = bounded(ctr_rand(key, (uint32_t)k), k + 1);
            int t = a[k];
            a[k] = a[r];
            a[r] = t;
        }
        for (int k = 0; k < n; k++) c[a[k]] = a[(k + 1) % n];
    }
    __syncthreads();
    for (int x = threadIdx.x; x < n; x += blockDim.x) a[x] = c[x];
    __syncthreads();
    tour_cost<METRIC>(xy, c, n, curCost + b);
    __syncthreads();
    if (threadIdx.x == 0) archCost[b] = curCost[b];
}

// PSPM_INIT stamps pspm_init_M; dist_check_M writes the GPU's integer
// distance of pairs (a[k], b[k]) for the tests to compare with the CPU's.
#define PSPM_INIT(M, METRIC)                                                                                 \
    extern "C" __global__ void __launch_bounds__(PSPM_REDUCE_THREADS)                                        \
        pspm_init_##M(const float2 *xy, long long n, const int *start, int *cur, long long *curCost, int *arch, \
                      long long *archCost, unsigned long long seed) {                                        \
        pspm_init_impl<METRIC>(xy, (int)n, start, cur, curCost, arch, archCost, seed);                       \
    }                                                                                                        \
    extern "C" __global__ void dist_check_##M(const float2 *xy, const int *a, const int *b, long long m, int *out) { \
        long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;                                      \
        if (k < m) {                                                                                         \
            float2 p = xy[a[k]], q = xy[b[k]];                                                               \
            out[k] = int_dist<METRIC>(p.x, p.y, q.x, q.y);                                                   \
        }                                                                                                    \
    }
PSPM_INIT(euc, METRIC_EUC_2D)
PSPM_INIT(ceil, METRIC_CEIL_2D)
PSPM_INIT(att, METRIC_ATT)

// pspm_exchange starts each search's next segment from its island's best:
// the archived tour of the lowest cost (ties: the lowest number) among the
// searches b / island * island .. + island - 1, into cur and curCost. With
// fromGlobal, the first island takes the global best gbest instead (a
// better one handed over from another context).
extern "C" __global__ void __launch_bounds__(256)
    pspm_exchange(const long long *archCost, const int *arch, int *cur, long long *curCost, long long blocks,
                  long long n, long long island, const int *gbest, const long long *gbestCost, long long fromGlobal) {
    __shared__ long long sc[256];
    __shared__ int sb[256];
    const int b = blockIdx.x;
    const long long i0 = (long long)b / island * island, i1 = min(blocks, i0 + island);
    int *to = cur + (size_t)b * n;
    if (fromGlobal && i0 == 0) {
        for (int x = threadIdx.x; x < (int)n; x += blockDim.x) to[x] = gbest[x];
        if (threadIdx.x == 0) curCost[b] = gbestCost[0];
        return;
    }
    long long bc = 0x7fffffffffffffffll;
    int bb = 0x7fffffff;
    for (long long k = i0 + threadIdx.x; k < i1; k += blockDim.x) {
        const long long v = archCost[k];
        if (v < bc) {
            bc = v;
            bb = (int)k;
        }
    }
    sc[threadIdx.x] = bc;
    sb[threadIdx.x] = bb;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            const long long o = sc[threadIdx.x + s];
            const int ob = sb[threadIdx.x + s];
            if (o < sc[threadIdx.x] || (o == sc[threadIdx.x] && ob < sb[threadIdx.x])) {
                sc[threadIdx.x] = o;
                sb[threadIdx.x] = ob;
            }
        }
        __syncthreads();
    }
    const int *from = arch + (size_t)sb[0] * n;
    for (int x = threadIdx.x; x < (int)n; x += blockDim.x) to[x] = from[x];
    if (threadIdx.x == 0) curCost[b] = sc[0];
}
