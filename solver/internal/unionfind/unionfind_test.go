package unionfind

import (
	"math/rand/v2"
	"testing"
)

// TestAgainstLabels checks Union, Find and Root against a naive labelling
// of the same random unions.
func TestAgainstLabels(t *testing.T) {
	const n = 200
	rng := rand.New(rand.NewPCG(1, 2))
	u := New(n)
	label := make([]int, n)
	for i := range label {
		label[i] = i
	}
	for range 300 {
		a, b := int32(rng.IntN(n)), int32(rng.IntN(n))
		apart := label[a] != label[b]
		if got := u.Union(a, b); got != apart {
			t.Fatalf("Union(%d, %d) = %v, want %v", a, b, got, apart)
		}
		if apart {
			old := label[b]
			for i := range label {
				if label[i] == old {
					label[i] = label[a]
				}
			}
		}
		for i := range int32(n) {
			for _, j := range []int32{a, b} {
				if same := u.Find(i) == u.Find(j); same != (label[i] == label[j]) {
					t.Fatalf("Find: %d and %d together %v, want %v", i, j, same, label[i] == label[j])
				}
				if u.Root(i) != u.Find(i) {
					t.Fatalf("Root(%d) != Find(%d)", i, i)
				}
			}
		}
	}
	u.Reset()
	for i := range int32(n) {
		if u.Find(i) != i {
			t.Fatalf("after Reset, Find(%d) = %d", i, u.Find(i))
		}
	}
}
