package problem

import (
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// ValidateTour checks that t is a permutation of 0..n-1.
func ValidateTour(t []int, n int) error {
	if len(t) != n {
		return fmt.Errorf("tour has %d cities, instance has %d", len(t), n)
	}
	seen := make([]bool, n)
	for i, c := range t {
		if c < 0 || c >= n {
			return fmt.Errorf("tour position %d: city %d out of range 1..%d", i+1, c+1, n)
		}
		if seen[c] {
			return fmt.Errorf("tour position %d: city %d visited twice", i+1, c+1)
		}
		seen[c] = true
	}
	return nil
}

// CheckFixedEdges reports the first fixed edge tour t does not use, or nil.
func (in *Instance) CheckFixedEdges(t []int) error {
	if len(in.FixedEdges) == 0 {
		return nil
	}
	n := len(t)
	pos := make([]int, in.N)
	for i, c := range t {
		if c >= 0 && c < in.N {
			pos[c] = i
		}
	}
	for _, e := range in.FixedEdges {
		a, b := e[0], e[1]
		if a < 0 || a >= in.N || b < 0 || b >= in.N {
			return fmt.Errorf("fixed edge %d-%d: city out of range 1..%d", a+1, b+1, in.N)
		}
		d := pos[a] - pos[b]
		if n < 2 || (d != 1 && d != -1 && d != n-1 && d != 1-n) {
			return fmt.Errorf("tour does not use the fixed edge %d-%d", a+1, b+1)
		}
	}
	return nil
}

// FixedPartners is each city's two fixed partners at [2c] and [2c+1] (-1: none; a repeated edge once); nil without.
func FixedPartners(n int, edges [][2]int) []int32 {
	if len(edges) == 0 {
		return nil
	}
	adj := make([]int32, 2*n)
	for i := range adj {
		adj[i] = -1
	}
	for _, e := range edges {
		for _, ab := range [2][2]int{{e[0], e[1]}, {e[1], e[0]}} {
			a, b := ab[0], int32(ab[1])
			if adj[2*a] < 0 {
				adj[2*a] = b
			} else if adj[2*a+1] < 0 && adj[2*a] != b {
				adj[2*a+1] = b
			}
		}
	}
	return adj
}

// parallelLengthFrom is the tour size from which TourLength sums on all cores (Finish measures every reported tour).
const parallelLengthFrom = 1 << 18

// City is a city's number in a tour: int, or int32 in compact tours.
type City interface{ ~int | ~int32 }

// TourLength returns the exact length of the closed tour t.
func TourLength[C City](in *Instance, t []C) int64 {
	if len(t) < 2 {
		return 0
	}
	if len(t) < parallelLengthFrom {
		return edgeSum(in, t, 0, len(t))
	}
	// Workers take chunks from a shared counter, so a slowed core does not hold the rest.
	n, w := len(t), runtime.GOMAXPROCS(0)
	chunk := max(1<<14, n/(8*w))
	var s, next atomic.Int64
	var wg sync.WaitGroup
	for range w {
		wg.Go(func() {
			for lo := int(next.Add(int64(chunk))) - chunk; lo < n; lo = int(next.Add(int64(chunk))) - chunk {
				s.Add(edgeSum(in, t, lo, min(lo+chunk, n)))
			}
		})
	}
	wg.Wait()
	return s.Load()
}

// PathLength is the length of open path p: its n-1 edges.
func PathLength(in *Instance, p []int) int64 {
	var l int64
	for i := 1; i < len(p); i++ {
		l += in.Dist(p[i-1], p[i])
	}
	return l
}

// edgeSum is the length of closed tour t's edges ending at t[lo:hi].
func edgeSum[C City](in *Instance, t []C, lo, hi int) int64 {
	var s int64
	prev := int(t[(lo+len(t)-1)%len(t)])
	for _, c := range t[lo:hi] {
		s += in.Dist(prev, int(c))
		prev = int(c)
	}
	return s
}

// GapPercent returns 100*(length-optimum)/optimum, or 0 and false when the optimum is unknown (0).
func GapPercent(length, optimum int64) (float64, bool) {
	if optimum <= 0 {
		return 0, false
	}
	return 100 * float64(length-optimum) / float64(optimum), true
}

// IdentityTour returns 0, 1, ..., n-1.
func IdentityTour(n int) []int {
	t := make([]int, n)
	for i := range t {
		t[i] = i
	}
	return t
}

// SameCycle reports whether tours a and b have the same edges, either direction.
func SameCycle(a, b []int) bool {
	n := len(a)
	if n != len(b) {
		return false
	}
	if n < 3 {
		return true
	}
	pos := make([]int, n)
	for i := range pos {
		pos[i] = -1
	}
	for i, c := range b {
		if c < 0 || c >= n {
			return false
		}
		pos[c] = i
	}
	for i, c := range a {
		if c < 0 || c >= n || pos[c] < 0 {
			return false
		}
		next, j := a[(i+1)%n], pos[c]
		if b[(j+1)%n] != next && b[(j+n-1)%n] != next {
			return false
		}
	}
	return true
}
