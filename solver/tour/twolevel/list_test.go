package twolevel

import (
	"math/rand/v2"
	"testing"
)

// arrayFlip reverses the cyclic path from b forward to c of the array
// tour t, pos its positions.
func arrayFlip(t, pos []int32, b, c int32) {
	n := len(t)
	i, j := int(pos[b]), int(pos[c])
	k := (j - i + n) % n
	for x := 0; x < (k+1)/2; x++ {
		p, q := (i+x)%n, (j-x+n)%n
		t[p], t[q] = t[q], t[p]
		pos[t[p]], pos[t[q]] = int32(p), int32(q)
	}
}

// TestFlipsAgreeWithArray makes random flips on the list and on an
// array and checks next, prev, between and the tour after each: flips
// of any length, and from 5,000 cities short ones as LK makes, which
// move cities between segments and grow some past a rebuild.
func TestFlipsAgreeWithArray(t *testing.T) {
	for _, n := range []int{3, 5, 17, 64, 100, 1000, 5000} {
		rng := rand.New(rand.NewPCG(uint64(n), 7))
		arr := make([]int32, n)
		pos := make([]int32, n)
		for i, c := range rng.Perm(n) {
			arr[i] = int32(c)
		}
		for i, c := range arr {
			pos[c] = int32(i)
		}
		l := New(arr)
		for step := 0; step < 3000; step++ {
			b, c := int32(rng.IntN(n)), int32(rng.IntN(n))
			if n >= 5000 {
				c = arr[(int(pos[b])+rng.IntN(200))%n]
			}
			// the list may reverse the other side: flip the array the
			// same way in the list's own direction
			fwd := l.Next(arr[0]) == arr[1%n]
			if fwd {
				arrayFlip(arr, pos, b, c)
			} else {
				arrayFlip(arr, pos, c, b)
			}
			l.Flip(b, c)
			fwd = l.Next(arr[0]) == arr[1%n]
			for i, x := range arr {
				nx, pv := arr[(i+1)%n], arr[(i+n-1)%n]
				if !fwd {
					nx, pv = pv, nx
				}
				if l.Next(x) != nx || l.Prev(x) != pv {
					t.Fatalf("n %d step %d: city %d next/prev %d/%d, want %d/%d", n, step, x, l.Next(x), l.Prev(x), nx, pv)
				}
			}
			for k := 0; k < 20; k++ {
				a, x, c := int32(rng.IntN(n)), int32(rng.IntN(n)), int32(rng.IntN(n))
				pa, px, pc := pos[a], pos[x], pos[c]
				if !fwd {
					pa, px, pc = -pa, -px, -pc
				}
				want := (px-pa+int32(2*n))%int32(n) <= (pc-pa+int32(2*n))%int32(n)
				if l.Between(a, x, c) != want {
					t.Fatalf("n %d step %d: Between(%d,%d,%d) = %v", n, step, a, x, c, !want)
				}
			}
		}
		seen := make([]bool, n)
		for _, c := range l.Tour(nil) {
			if seen[c] {
				t.Fatalf("n %d: city %d twice in Tour", n, c)
			}
			seen[c] = true
		}
	}
}
