// Package unionfind is the disjoint-set forest (path halving, union by size; Tarjan, JACM 1975) joining fragments and components.
package unionfind

// Sets is a disjoint-set forest over the elements 0..n-1.
type Sets struct {
	parent []int32
	size   []int32
}

// New returns n singleton sets.
func New(n int) *Sets {
	u := &Sets{parent: make([]int32, n), size: make([]int32, n)}
	u.Reset()
	return u
}

// Reset makes every element a singleton again, keeping the memory.
func (u *Sets) Reset() {
	for i := range u.parent {
		u.parent[i] = int32(i)
		u.size[i] = 1
	}
}

// Find returns the representative of x's set, halving the path to it.
func (u *Sets) Find(x int32) int32 {
	for u.parent[x] != x {
		u.parent[x] = u.parent[u.parent[x]]
		x = u.parent[x]
	}
	return x
}

// Root is Find without path compression, safe concurrently while no Union runs.
func (u *Sets) Root(x int32) int32 {
	for u.parent[x] != x {
		x = u.parent[x]
	}
	return x
}

// Union merges the sets of a and b and reports whether they were apart.
func (u *Sets) Union(a, b int32) bool {
	a, b = u.Find(a), u.Find(b)
	if a == b {
		return false
	}
	if u.size[a] < u.size[b] {
		a, b = b, a
	}
	u.parent[b] = a
	u.size[a] += u.size[b]
	return true
}
