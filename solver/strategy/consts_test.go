package strategy

import "testing"

// TestBoundBesideCPU: below PartitionMinN the bound beside a CPU run is
// the search's own ascent, from it only on four or more cores, never
// beyond BoundBesideCPUMaxN.
func TestBoundBesideCPU(t *testing.T) {
	for _, c := range []struct {
		n, cores int
		want     bool
	}{
		{PartitionMinN - 1, 1, true},
		{PartitionMinN, 2, false},
		{PartitionMinN, 3, false},
		{PartitionMinN, 4, true},
		{BoundBesideCPUMaxN, 16, true},
		{BoundBesideCPUMaxN + 1, 64, false},
	} {
		if got := BoundBesideCPU(c.n, c.cores); got != c.want {
			t.Errorf("BoundBesideCPU(%d, %d) = %v, want %v", c.n, c.cores, got, c.want)
		}
	}
}
