package partition

import (
	"github.com/tsplab/tsplab/solver/strategy"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

func TestStitchPaceLimit(t *testing.T) {
	round := 400 * time.Millisecond
	half := 200 * time.Millisecond
	var p stitchPace
	if got := p.limit(round, true); got != half {
		t.Fatalf("unmeasured: limit %v, want half the round %v", got, half)
	}
	// the stitch gains a tenth of the searches' rate: a tenth of the round
	p.record(1_000_000, time.Second, 10_000, 100*time.Millisecond)
	if got := p.limit(round, true); got != 40*time.Millisecond {
		t.Errorf("a tenth of the rate: limit %v, want 40ms", got)
	}
	if got := p.limit(round, false); got != half {
		t.Errorf("unpaced: limit %v, want %v", got, half)
	}
	// a stitch that gained nothing keeps the floor, so that it is measured again
	var z stitchPace
	z.record(1_000_000, time.Second, 0, 50*time.Millisecond)
	if got := z.limit(round, true); got != round/64 {
		t.Errorf("no gain: limit %v, want %v", got, round/64)
	}
	// a stitch as fast as the searches takes the half; the floor of a
	// short round stays partMinTask
	var f stitchPace
	f.record(1_000_000, time.Second, 1_000_000, time.Second)
	if got := f.limit(round, true); got != half {
		t.Errorf("equal rates: limit %v, want %v", got, half)
	}
	if got := f.limit(20*time.Millisecond, true); got != partMinTask {
		t.Errorf("short round: limit %v, want %v", got, partMinTask)
	}
	// the rates decay: after a round where the stitch gained at the
	// searches' rate, the tenth grows towards the half
	p.record(1_000_000, time.Second, 1_000_000, time.Second)
	if got := p.limit(round, true); got != half {
		t.Errorf("after a fast stitch: limit %v, want %v", got, half)
	}
}

func TestStitchPaced(t *testing.T) {
	for _, c := range []struct {
		n         int
		clustered bool
		want      bool
	}{
		{100_000, false, true},
		{strategy.PartitionMinN, false, true},
		{1_000_000, false, true},
		{stitchPaceMaxN, false, true},
		{stitchPaceMaxN + 1, false, false},
		{100_000, true, false},
	} {
		pr := &partRun{env: &Env{In: &solver.Instance{N: c.n}}, clustered: c.clustered}
		if got := pr.paced(); got != c.want {
			t.Errorf("n %d clustered %v: paced %v, want %v", c.n, c.clustered, got, c.want)
		}
	}
}
