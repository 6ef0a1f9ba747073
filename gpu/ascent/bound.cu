// bound.cu: the Held–Karp lower bound's subgradient ascent on the device
// (solver/bound runs the schedule; gpu/bound_cuda.go drives these kernels).
// Every iteration moves the node penalties along the subgradient, then
// computes a minimum 1-tree of the sparse candidate graph under the weights
// 100·d(i,j) + π_i + π_j by Borůvka's algorithm (Borůvka 1926; the
// parallel formulation of Vineet et al., "Fast minimum spanning tree for
// large graphs on the GPU", HPG 2009: cheapest outgoing edge per component
// by an atomic minimum, hooking with mutual pairs broken by the smaller
// id, pointer jumping). A 64-bit key packs the weight (offset to be
// non-negative) above the edge's canonical index, the smaller of its two
// directions, so keys are distinct and Borůvka's choices never form a
// cycle. Arithmetic is in integers: the result equals the CPU's exactly.
#include "common.cuh"

#define BOUND_PRECISION 100LL
#define BOUND_NOKEY 0xFFFFFFFFFFFFFFFFULL

// BoundState mirrors boundState in gpu/bound_cuda.go.
struct BoundState {
    unsigned long long sum;     // 1-tree weight (two's complement)
    unsigned long long pisum;   // Σπ (two's complement)
    unsigned long long norm;    // Σ(d−2)²
    unsigned long long joined;  // tree edges so far
    unsigned long long leafkey; // packed best second edge of a leaf (max)
    unsigned long long overflow;
};

// bound_step: the subgradient step (t = 0 only resets), then the per-tree
// reset: every city its own component, no degree, no chosen edge.
extern "C" __global__ void bound_step(long long n, long long t, long long *pi, int *deg, int *lastv, int *comp,
                                      unsigned long long *best, int *nbrx, int *done, BoundState *st) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i == 0) {
        st->sum = 0;
        st->pisum = 0;
        st->norm = 0;
        st->joined = 0;
        st->leafkey = 0;
    }
    if (i >= n) return;
    long long v = deg[i] - 2;
    if (t > 0) {
        if (v != 0) pi[i] += t * (7 * v + 3 * (long long)lastv[i]) / 10;
        lastv[i] = (int)v;
    }
    deg[i] = 0;
    nbrx[i] = 0;
    comp[i] = (int)i;
    best[i] = BOUND_NOKEY;
    done[i] = 0;
}

// bound_pisum adds up the penalties (after bound_step, whose first thread
// clears the sum).
extern "C" __global__ void bound_pisum(long long n, const long long *pi, BoundState *st) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long s = i < n ? pi[i] : 0;
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0 && s != 0) atomicAdd(&st->pisum, (unsigned long long)s);
}

// bound_minedge: every city offers its cheapest edge out of its component
// to the component's atomic minimum; a city without one is done for this
// tree (components only grow).
extern "C" __global__ void bound_minedge(long long n, const int *off, const int *adj, const int *dist, const int *rev,
                                         const long long *pi, const int *comp, unsigned long long *best, int *done,
                                         long long offset, long long idxbits, BoundState *st) {
    long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n || done[u]) return;
    int cu = comp[u];
    long long pu = pi[u] + offset;
    long long limit = (long long)1 << (63 - idxbits);
    unsigned long long k = BOUND_NOKEY;
    for (int e = off[u]; e < off[u + 1]; e++) {
        int v = adj[e];
        if (comp[v] == cu) continue;
        long long w = BOUND_PRECISION * dist[e] + pu + pi[v];
        if (w < 0 || w >= limit) {
            st->overflow = 1;
            continue;
        }
        unsigned long long ce = (unsigned long long)min(e, rev[e]);
        unsigned long long key = ((unsigned long long)w << idxbits) | ce;
        if (key < k) k = key;
    }
    if (k == BOUND_NOKEY) {
        done[u] = 1;
        return;
    }
    atomicMin(&best[cu], k);
}

// bound_hook: every component root with a chosen edge points at the
// component across it (ptr), others at themselves.
extern "C" __global__ void bound_hook(long long n, const int *adj, const int *rev, const int *comp,
                                      const unsigned long long *best, int *ptr, long long idxbits) {
    long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= n || comp[c] != c) return;
    unsigned long long k = best[c];
    if (k == BOUND_NOKEY) {
        ptr[c] = (int)c;
        return;
    }
    int e = (int)(k & (((unsigned long long)1 << idxbits) - 1));
    int a = adj[e], b = adj[rev[e]];
    int ca = comp[a], cb = comp[b];
    ptr[c] = ca == c ? cb : ca;
}

// bound_link: a mutual pair (both chose the same edge) keeps the smaller
// id as root and adds the edge once; every other chosen edge is added by
// its component. ptr2 receives the new parent pointers.
extern "C" __global__ void bound_link(long long n, const int *adj, const int *rev, const int *comp,
                                      const unsigned long long *best, const int *ptr, int *ptr2, int *deg, int *nbrx,
                                      long long offset, long long idxbits, BoundState *st) {
    long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= n || comp[c] != c) return;
    int p = ptr[c];
    if (p == c) {
        ptr2[c] = (int)c;
        return;
    }
    if (ptr[p] == c && c < p) {
        ptr2[c] = (int)c;
        return;
    }
    ptr2[c] = p;
    unsigned long long k = best[c];
    int e = (int)(k & (((unsigned long long)1 << idxbits) - 1));
    int a = adj[e], b = adj[rev[e]];
    long long w = (long long)(k >> idxbits) - offset;
    atomicAdd(&st->sum, (unsigned long long)w);
    atomicAdd(&st->joined, 1ULL);
    atomicAdd(&deg[a], 1);
    atomicAdd(&deg[b], 1);
    atomicXor(&nbrx[a], b);
    atomicXor(&nbrx[b], a);
}

// bound_jump: every old root follows the new pointers to its new root.
extern "C" __global__ void bound_jump(long long n, const int *comp, const int *ptr2, int *ptr) {
    long long c = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= n || comp[c] != c) return;
    int r = ptr2[c];
    while (ptr2[r] != r) r = ptr2[r];
    ptr[c] = r;
}

// bound_relabel: every city takes its component's new root; chosen edges
// are cleared for the next round.
extern "C" __global__ void bound_relabel(long long n, int *comp, const int *ptr, unsigned long long *best) {
    long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n) return;
    comp[u] = ptr[comp[u]];
    best[u] = BOUND_NOKEY;
}

// bound_leaf: every leaf offers its second-cheapest edge (its cheapest
// other than its tree edge) to an atomic maximum: the 1-tree's extra edge
// is the dearest of them (as in LKH).
extern "C" __global__ void bound_leaf(long long n, const int *off, const int *adj, const int *dist, const long long *pi,
                                      const int *deg, const int *nbrx, long long offset, long long idxbits, BoundState *st) {
    long long u = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (u >= n || deg[u] != 1) return;
    int nb = nbrx[u];
    long long bw = -1;
    int be = -1;
    for (int e = off[u]; e < off[u + 1]; e++) {
        int v = adj[e];
        if (v == nb) continue;
        long long w = BOUND_PRECISION * dist[e] + pi[u] + pi[v] + offset;
        if (be < 0 || w < bw) {
            bw = w;
            be = e;
        }
    }
    if (be < 0) return;
    atomicMax(&st->leafkey, ((unsigned long long)bw << idxbits) | (unsigned long long)be);
}

// bound_addleaf (one thread): adds the leaf's extra edge to the 1-tree.
extern "C" __global__ void bound_addleaf(const int *adj, const int *rev, int *deg, long long offset, long long idxbits,
                                         BoundState *st) {
    unsigned long long k = st->leafkey;
    if (k == 0) return;
    int e = (int)(k & (((unsigned long long)1 << idxbits) - 1));
    long long w = (long long)(k >> idxbits) - offset;
    st->sum += (unsigned long long)w;
    deg[adj[e]] += 1;
    deg[adj[rev[e]]] += 1;
}

// bound_norm: the norm Σ(d−2)² of the 1-tree's degrees.
extern "C" __global__ void bound_norm(long long n, const int *deg, BoundState *st) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    long long v = i < n ? deg[i] - 2 : 0;
    unsigned long long s = (unsigned long long)(v * v);
    for (int o = 16; o > 0; o >>= 1) s += __shfl_down_sync(0xffffffffu, s, o);
    if ((threadIdx.x & 31) == 0 && s != 0) atomicAdd(&st->norm, s);
}
