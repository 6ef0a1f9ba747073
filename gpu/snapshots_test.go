package gpu

import (
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// TestMergeSnapshots: snapshots from two searches reach the channel with
// the best tour either has sent so far, never a longer one after a
// shorter, each keeping its own current tour, the second's times made
// later by the delay it started with.
func TestMergeSnapshots(t *testing.T) {
	out := make(chan solver.Snapshot, 16)
	const late = 3 * time.Second
	a, b, wait := mergeSnapshots(out, late)
	send := func(ch chan solver.Snapshot, cur int64, best int64) {
		ch <- solver.Snapshot{Tour: []int{int(cur)}, Length: cur, Best: []int{int(best)}, BestLength: best, Elapsed: time.Duration(cur) * time.Millisecond}
		// let the merger forward it before the next one, so none is
		// replaced unread
		for len(ch) > 0 {
		}
	}
	send(a, 100, 90)
	send(b, 80, 70)
	send(a, 95, 85)
	send(b, 75, 60)
	send(a, 50, 50)
	wait()
	close(out)
	var got []solver.Snapshot
	for s := range out {
		got = append(got, s)
	}
	want := []int64{90, 70, 70, 60, 50}
	if len(got) != len(want) {
		t.Fatalf("%d snapshots forwarded, want %d", len(got), len(want))
	}
	for i, s := range got {
		if s.BestLength != want[i] || s.Best[0] != int(want[i]) {
			t.Errorf("snapshot %d: best %d (tour %v), want %d", i, s.BestLength, s.Best, want[i])
		}
		if s.Tour[0] != int(s.Length) {
			t.Errorf("snapshot %d: current tour changed", i)
		}
		at := time.Duration(s.Length) * time.Millisecond
		if i%2 == 1 { // b's
			at += late
		}
		if s.Elapsed != at {
			t.Errorf("snapshot %d: elapsed %v, want %v", i, s.Elapsed, at)
		}
	}
	if a, b, wait := mergeSnapshots(nil, late); a != nil || b != nil {
		t.Error("a nil channel gave channels")
	} else {
		wait()
	}
}
