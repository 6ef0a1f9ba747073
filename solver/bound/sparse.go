package bound

import (
	"math"
	"sync/atomic"
)

// sparseTree computes the candidate graph's minimum 1-trees, reusing its buffers.
type sparseTree struct {
	g      *graph
	parent []int32
	key    []int64
	heap   []int32 // binary min-heap of cities by key
	pos    []int32 // place of each city in heap, -1 outside, -2 done
	deg    []int32
	// quit, when set, abandons a run part-way
	quit *atomic.Bool
}

func newSparseTree(g *graph) *sparseTree {
	n := len(g.off) - 1
	return &sparseTree{g: g, parent: make([]int32, n), key: make([]int64, n),
		heap: make([]int32, 0, n), pos: make([]int32, n), deg: make([]int32, n)}
}

// run computes a minimum 1-tree by Prim's algorithm with a binary heap, degrees in s.deg; it returns the weight minus 2·Σπ.
func (s *sparseTree) run(pi []int64) int64 {
	g := s.g
	n := len(s.key)
	for i := range n {
		s.key[i] = math.MaxInt64
		s.pos[i] = -1
		s.parent[i] = -1
		s.deg[i] = 0
	}
	s.heap = s.heap[:0]
	var sum int64
	s.key[0] = 0
	s.push(0)
	for popped := 1; len(s.heap) > 0; popped++ {
		if popped&16383 == 0 && s.quit != nil && s.quit.Load() {
			return 0
		}
		u := s.pop()
		s.pos[u] = -2
		if p := s.parent[u]; p >= 0 {
			sum += s.key[u]
			s.deg[u]++
			s.deg[p]++
		}
		pu := pi[u]
		for e := g.off[u]; e < g.off[u+1]; e++ {
			v := g.adj[e]
			if s.pos[v] == -2 {
				continue
			}
			w := Precision*int64(g.d[e]) + pu + pi[v]
			if w < s.key[v] {
				s.key[v] = w
				s.parent[v] = u
				if s.pos[v] < 0 {
					s.push(v)
				} else {
					s.up(s.pos[v])
				}
			}
		}
	}
	if top, leaf, other := s.dearestLeaf(pi); leaf >= 0 {
		sum += top
		s.deg[leaf]++
		s.deg[other]++
	}
	return sum - 2*sumPi(pi)
}

// dearestLeaf returns the leaf whose second-cheapest candidate edge is dearest, its weight and other end (-1: none).
func (s *sparseTree) dearestLeaf(pi []int64) (top int64, leaf, other int32) {
	g := s.g
	top, leaf, other = int64(math.MinInt64), -1, -1
	for v := range int32(len(s.key)) {
		if s.deg[v] != 1 {
			continue
		}
		nbr := s.parent[v]
		if nbr < 0 { // the root is a leaf: its one child is its neighbour
			for e := g.off[v]; e < g.off[v+1]; e++ {
				if s.parent[g.adj[e]] == v {
					nbr = g.adj[e]
					break
				}
			}
		}
		best, bj := int64(math.MaxInt64), int32(-1)
		for e := g.off[v]; e < g.off[v+1]; e++ {
			j := g.adj[e]
			if j == nbr {
				continue
			}
			if w := Precision*int64(g.d[e]) + pi[v] + pi[j]; w < best {
				best, bj = w, j
			}
		}
		if bj >= 0 && best > top {
			top, leaf, other = best, v, bj
		}
	}
	return top, leaf, other
}

func (s *sparseTree) push(v int32) {
	s.heap = append(s.heap, v)
	s.pos[v] = int32(len(s.heap) - 1)
	s.up(s.pos[v])
}

func (s *sparseTree) up(i int32) {
	h := s.heap
	v := h[i]
	k := s.key[v]
	for i > 0 {
		p := (i - 1) / 2
		if s.key[h[p]] <= k {
			break
		}
		s.place(i, h[p])
		i = p
	}
	s.place(i, v)
}

// place puts city v at heap index i.
func (s *sparseTree) place(i, v int32) {
	s.heap[i] = v
	s.pos[v] = i
}

func (s *sparseTree) pop() int32 {
	h := s.heap
	top := h[0]
	last := h[len(h)-1]
	h = h[:len(h)-1]
	s.heap = h
	if len(h) == 0 {
		return top
	}
	k := s.key[last]
	i := int32(0)
	n := int32(len(h))
	for {
		c := 2*i + 1
		if c >= n {
			break
		}
		if c+1 < n && s.key[h[c+1]] < s.key[h[c]] {
			c++
		}
		if s.key[h[c]] >= k {
			break
		}
		s.place(i, h[c])
		i = c
	}
	s.place(i, last)
	return top
}
