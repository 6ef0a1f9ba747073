package ils

import (
	"testing"

	"github.com/tsplab/tsplab/internal/runctl"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/cpu/partition"
)

// TestPartitionWorkersFollowThePiece: a partition search bounds its
// workers by the memory of the piece each searches, so at ten million
// cities every core works; a whole-tour search by the whole tour.
func TestPartitionWorkersFollowThePiece(t *testing.T) {
	in := uniformInstance(30000, 1)
	for _, c := range []struct {
		name      string
		partition partMode
		want      int
	}{
		{"auto", partOn, partition.PieceCities(in.N, 0)},
		{"auto", partOff, in.N},
		{"2opt-ils", partAuto, in.N},
	} {
		eng, err := solver.Lookup(c.name, solver.BackendCPU)
		if err != nil {
			t.Fatal(err)
		}
		e := eng.(ilsEngine)
		o, err := e.config(in, solver.Params{Config: func(o *ilsOptions) { o.partition = c.partition }})
		if err != nil {
			t.Fatal(err)
		}
		if got := e.searchCities(o, in); got != c.want {
			t.Errorf("%s partition %d: %d cities a search, want %d", c.name, c.partition, got, c.want)
		}
	}
	// the bound that gave 6 workers on 16 cores at 10,000,000 cities
	if whole, piece := runctl.SearchLimit(10_000_000, lsBytesPerCity), runctl.SearchLimit(partition.PieceCities(10_000_000, 0), lsBytesPerCity); whole >= 16 || piece < 64 {
		t.Errorf("searches within the memory bound: %d for the whole tour, %d for a piece", whole, piece)
	}
}
