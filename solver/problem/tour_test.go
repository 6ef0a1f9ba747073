package problem

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func TestCheckFixedEdges(t *testing.T) {
	in := NewCoordInstance("six", Euc2D, []float64{0, 1, 2, 3, 4, 5}, make([]float64, 6), nil)
	if err := in.CheckFixedEdges([]int{3, 1, 0, 2, 5, 4}); err != nil {
		t.Fatalf("no fixed edges: %v", err)
	}
	in.FixedEdges = [][2]int{{0, 1}, {4, 3}}
	for _, c := range []struct {
		tour []int
		ok   bool
	}{
		{[]int{0, 1, 2, 3, 4, 5}, true},
		{[]int{1, 2, 5, 4, 3, 0}, true}, // 0–1 closes the cycle
		{[]int{2, 5, 3, 4, 0, 1}, true},
		{[]int{0, 2, 1, 3, 4, 5}, false},
		{[]int{0, 1, 2, 3, 5, 4}, false},
	} {
		if err := in.CheckFixedEdges(c.tour); (err == nil) != c.ok {
			t.Errorf("%v: %v, want ok=%v", c.tour, err, c.ok)
		}
	}
}

// TestTourLengthOnAllCores checks that a tour long enough to be summed on
// all cores has the length of the edges added one by one, the closing one
// included.
func TestTourLengthOnAllCores(t *testing.T) {
	n := parallelLengthFrom + 1001
	in := &Instance{N: n, Metric: Euc2D, X: make([]float64, n), Y: make([]float64, n)}
	r := rand.New(rand.NewPCG(3, 4))
	for i := range n {
		in.X[i], in.Y[i] = float64(r.IntN(1000000)), float64(r.IntN(1000000))
	}
	tour := r.Perm(n)
	var want int64
	for i, c := range tour {
		want += in.Dist(tour[(i+n-1)%n], c)
	}
	if got := TourLength(in, tour); got != want {
		t.Fatalf("TourLength = %d, want %d", got, want)
	}
}

// FixedPartners lists each city's fixed partners both ways, an edge
// listed twice once, -1 where a city has fewer than two, and nil without
// fixed edges.
func TestFixedPartners(t *testing.T) {
	got := FixedPartners(5, [][2]int{{0, 1}, {1, 2}, {2, 1}, {4, 0}})
	want := []int32{1, 4, 0, 2, 1, -1, -1, -1, 0, -1}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if FixedPartners(5, nil) != nil {
		t.Fatal("no fixed edges: not nil")
	}
}
