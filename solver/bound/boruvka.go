package bound

import (
	"math"
	"math/bits"
	"sync"
	"sync/atomic"

	"github.com/tsplab/tsplab/solver/internal/parallel"
	"github.com/tsplab/tsplab/solver/internal/unionfind"
)

// sparseBoruvka computes minimum 1-trees of the candidate graph by Borůvka's algorithm on all cores, as the GPU does.
type sparseBoruvka struct {
	g      *graph
	rev    []int32 // index of the reverse of every edge
	comp   []int32
	best   []atomic.Uint64
	active []int32
	next   []int32
	roots  []int32
	uf     *unionfind.Sets
	deg    []int32
	nbrX   []int32      // xor of the tree neighbours of every city
	quit   *atomic.Bool // as sparseTree.quit
}

func newSparseBoruvka(g *graph) *sparseBoruvka {
	n := len(g.off) - 1
	s := &sparseBoruvka{g: g, comp: make([]int32, n),
		best: make([]atomic.Uint64, n), active: make([]int32, 0, n), next: make([]int32, n),
		roots: make([]int32, 0, n), uf: unionfind.New(n), deg: make([]int32, n), nbrX: make([]int32, n)}
	if g.rev == nil {
		g.rev = reverseEdges(g)
	}
	s.rev = g.rev
	return s
}

const noKey = math.MaxUint64

// run computes a minimum 1-tree under Precision·d + π_i + π_j, degrees in s.deg, weight minus 2·Σπ; ok false when the
// weights do not fit the packed keys (then Prim).
func (s *sparseBoruvka) run(pi []int64) (w int64, ok bool) {
	base, idxBits, ok := s.keyLayout(pi)
	if !ok {
		return 0, false
	}
	n := len(s.comp)
	s.reset()
	var sum int64
	joined := 0
	for joined < n-1 && len(s.active) > 0 {
		if s.quit != nil && s.quit.Load() {
			return 0, true
		}
		s.offer(pi, base, idxBits)
		k, added := s.join(base, idxBits)
		if k == 0 {
			break
		}
		joined += k
		sum += added
		s.relabel()
	}
	if top := s.leafEdge(pi); top.leaf >= 0 {
		sum += top.w
		s.deg[top.leaf]++
		s.deg[top.other]++
	}
	return sum - 2*sumPi(pi), true
}

// keyLayout packs an edge's weight less base above its index (idxBits) in one uint64; ok false when it does not fit.
func (s *sparseBoruvka) keyLayout(pi []int64) (base int64, idxBits uint, ok bool) {
	minPi, maxPi := int64(math.MaxInt64), int64(math.MinInt64)
	for _, p := range pi {
		minPi, maxPi = min(minPi, p), max(maxPi, p)
	}
	var maxD int64
	for _, d := range s.g.d {
		maxD = max(maxD, int64(d))
	}
	idxBits = uint(bits.Len(uint(len(s.g.adj))))
	base = 2 * minPi
	if span := Precision*maxD + 2*maxPi - base; span < 0 || bits.Len64(uint64(span)) > int(64-idxBits) {
		return 0, 0, false
	}
	return base, idxBits, true
}

// reset makes every city its own active root component of degree 0.
func (s *sparseBoruvka) reset() {
	n := len(s.comp)
	s.uf.Reset()
	for i := range n {
		s.comp[i] = int32(i)
		s.deg[i], s.nbrX[i] = 0, 0
		s.best[i].Store(noKey)
	}
	s.active = s.active[:n]
	for i := range s.active {
		s.active[i] = int32(i)
	}
	s.roots = append(s.roots[:0], s.active...)
}

// offer has each active city offer its cheapest edge out of its component; cities without one leave the working set.
func (s *sparseBoruvka) offer(pi []int64, base int64, idxBits uint) {
	g := s.g
	act := s.active
	parallel.For(len(act), func(lo, hi int) {
		out := lo
		for _, u := range act[lo:hi] {
			cu := s.comp[u]
			k := uint64(noKey)
			pu := pi[u] - base
			for e := g.off[u]; e < g.off[u+1]; e++ {
				v := g.adj[e]
				if s.comp[v] == cu {
					continue
				}
				ce := min(e, s.rev[e])
				key := uint64(Precision*int64(g.d[e])+pu+pi[v])<<idxBits | uint64(ce)
				k = min(k, key)
			}
			if k == noKey {
				continue
			}
			s.next[out] = u
			out++
			atomicMin(&s.best[cu], k)
		}
		// mark the end of this chunk's survivors
		for x := out; x < hi; x++ {
			s.next[x] = -1
		}
	})
	na := 0
	for _, u := range s.next[:len(act)] {
		if u >= 0 {
			s.active[na] = u
			na++
		}
	}
	s.active = s.active[:na]
}

// join adds each component's cheapest edge to the tree and returns the joins and their weight.
func (s *sparseBoruvka) join(base int64, idxBits uint) (joined int, sum int64) {
	g := s.g
	mask := uint64(1)<<idxBits - 1
	for _, r := range s.roots {
		k := s.best[r].Load()
		if k == noKey {
			continue
		}
		s.best[r].Store(noKey)
		e := int32(k & mask)
		v := g.adj[e]
		u := s.edgeTail(e)
		if s.uf.Union(u, v) {
			joined++
			sum += int64(k>>idxBits) + base
			s.deg[u]++
			s.deg[v]++
			s.nbrX[u] ^= v
			s.nbrX[v] ^= u
		}
	}
	return joined, sum
}

// relabel keeps the roots still roots and points every city at its root.
func (s *sparseBoruvka) relabel() {
	nr := 0
	for _, r := range s.roots {
		if s.uf.Find(r) == r {
			s.roots[nr] = r
			nr++
		}
	}
	s.roots = s.roots[:nr]
	parallel.For(len(s.comp), func(lo, hi int) {
		for u := lo; u < hi; u++ {
			s.comp[u] = s.uf.Root(int32(u))
		}
	})
}

// leafPick is a leaf's second-cheapest candidate edge to other.
type leafPick struct {
	w           int64
	e           int32
	leaf, other int32
}

// leafEdge is the 1-tree's extra edge: a leaf's dearest second-cheapest edge.
func (s *sparseBoruvka) leafEdge(pi []int64) leafPick {
	g := s.g
	better := func(a, b leafPick) bool { return a.w > b.w || (a.w == b.w && a.e > b.e) }
	none := leafPick{w: math.MinInt64, e: -1, leaf: -1, other: -1}
	top := none
	var mu sync.Mutex
	parallel.For(len(s.comp), func(lo, hi int) {
		b := none
		for v := lo; v < hi; v++ {
			if s.deg[v] != 1 {
				continue
			}
			nbr := s.nbrX[v]
			c := leafPick{w: math.MaxInt64, e: -1, leaf: int32(v), other: -1}
			for e := g.off[v]; e < g.off[v+1]; e++ {
				j := g.adj[e]
				if j == nbr {
					continue
				}
				if ww := Precision*int64(g.d[e]) + pi[v] + pi[j]; ww < c.w {
					c.w, c.e, c.other = ww, e, j
				}
			}
			if c.e >= 0 && better(c, b) {
				b = c
			}
		}
		mu.Lock()
		if b.e >= 0 && better(b, top) {
			top = b
		}
		mu.Unlock()
	})
	return top
}

// edgeTail returns the city whose row holds edge e.
func (s *sparseBoruvka) edgeTail(e int32) int32 {
	return s.g.adj[s.rev[e]]
}
