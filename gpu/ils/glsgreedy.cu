// glsgreedy.cu: a greedy-edge start for 2opt-or built in rounds of parallel
// matching over the neighbour lists of tourls.cu (cities are ranks).
//
// A fragment is a path of cities; each of its ends keeps the other end in
// oth[] (a city of degree 0 is its own fragment, oth[c] == c). A round:
// every end picks its shortest list edge to another end of degree < 2 not
// in its own fragment (edge order: length, then the smaller id, then the
// larger, so that every edge has one place); an edge is added when both
// its ends picked each other, but of a fragment's two ends only one may
// join in a round, the one with the shorter mutual pick (so that the
// other-end pointers stay right). The lists hold GGR_K = GLS_K entries.

#include "common.cuh"

#define GGR_K 8

// ggr_less reports whether edge (a, b) of length da comes before edge
// (c, d) of length dc.
__device__ __forceinline__ bool ggr_less(int da, int a, int b, int dc, int c, int d) {
    if (da != dc) return da < dc;
    if (min(a, b) != min(c, d)) return min(a, b) < min(c, d);
    return max(a, b) < max(c, d);
}

template <int METRIC>
__device__ void ggr_pick_city(int c, const double2* xs, const int* nbr, const int* deg, const int* oth, int* pick, int* pickd) {
    int best = -1, bd = 0;
    double2 p = xs[c];
    for (int u = 0; u < GGR_K; u++) {
        int d = nbr[(long long)c * GGR_K + u];
        if (d < 0 || deg[d] >= 2 || d == oth[c]) continue;
        int l = or_dist<METRIC>(p, xs[d]);
        if (best < 0 || ggr_less(l, c, d, bd, c, best)) {
            best = d;
            bd = l;
        }
    }
    pick[c] = best;
    pickd[c] = bd;
}

// ggr_pick sets every end's pick (-1: none left in its list).
extern "C" __global__ void ggr_pick(long long n, long long metric, const double2* xs, const int* nbr, const int* deg, const int* oth,
                                    int* pick, int* pickd) {
    long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (c >= n) return;
    if (deg[c] >= 2) {
        pick[c] = -1;
        return;
    }
    if (metric == METRIC_EUC_2D) ggr_pick_city<METRIC_EUC_2D>((int)c, xs, nbr, deg, oth, pick, pickd);
    else if (metric == METRIC_CEIL_2D) ggr_pick_city<METRIC_CEIL_2D>((int)c, xs, nbr, deg, oth, pick, pickd);
    else ggr_pick_city<METRIC_ATT>((int)c, xs, nbr, deg, oth, pick, pickd);
}

// ggr_mutual reports whether end c's pick picked c.
__device__ __forceinline__ bool ggr_mutual(const int* pick, int c) {
    int d = pick[c];
    return d >= 0 && pick[d] == c;
}

// ggr_keep sets ok[c] when end c's pick is mutual and stands: the other end
// of its fragment has no mutual pick or a later one.
extern "C" __global__ void ggr_keep(long long n, const int* oth, const int* pick, const int* pickd, unsigned char* ok) {
    long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (c >= n) return;
    bool keep = ggr_mutual(pick, (int)c);
    int o = oth[c];
    if (keep && o != c && ggr_mutual(pick, o)) keep = ggr_less(pickd[c], (int)c, pick[c], pickd[o], o, pick[o]);
    ok[c] = keep ? 1 : 0;
}

// ggr_join adds every edge whose two ends picked each other and stand (the
// thread of the smaller end), links the new fragment's ends and counts the
// edges in cnt[0].
extern "C" __global__ void ggr_join(long long n, const int* pick, const unsigned char* ok, int* deg, int* oth, int* adj,
                                    unsigned long long* cnt) {
    long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (c >= n || !ok[c]) return;
    int d = pick[c];
    if (d <= c || !ok[d] || pick[d] != (int)c) return;
    int oc = oth[c], od = oth[d];
    adj[2 * c + deg[c]] = d;
    adj[2 * (long long)d + deg[d]] = (int)c;
    deg[c]++;
    deg[d]++;
    oth[oc] = od;
    oth[od] = oc;
    atomicAdd(&cnt[0], 1ull);
}

// ggr_init makes every city its own fragment.
extern "C" __global__ void ggr_init(long long n, int* deg, int* oth) {
    long long c = blockIdx.x * (long long)blockDim.x + threadIdx.x;
    if (c >= n) return;
    deg[c] = 0;
    oth[c] = (int)c;
}
