package solver

import (
	"testing"
	"time"
)

// TestOfferKeepsTheBestOfAReplacedSnapshot: a snapshot that replaces an
// unread one whose best tour it does not carry (nil: "unchanged") takes
// that tour, its length and when it was found, so a slow reader never
// loses a best tour.
func TestOfferKeepsTheBestOfAReplacedSnapshot(t *testing.T) {
	ch := Latest()
	sink := NewSink(ch, 0, time.Now().Add(-time.Second))
	sink.Send(Snapshot{Tour: []int{0, 1, 2}, Length: 30, Best: []int{0, 1, 2}, BestLength: 30})
	found := (<-ch).Elapsed
	sink.Send(Snapshot{Tour: []int{0, 2, 1}, Length: 20, Best: []int{0, 2, 1}, BestLength: 20})
	first := Snapshot{}
	select {
	case first = <-ch:
	default:
	}
	ch <- first // unread again
	time.Sleep(time.Millisecond)
	sink.Send(Snapshot{Length: 20, BestLength: 20, Phase: "pool"}) // a phase with no tours
	got := <-ch
	if got.Best == nil || got.BestLength != 20 || got.Tour == nil || got.Phase != "pool" {
		t.Fatalf("the reader got %+v, want the best tour of length 20 with the phase", got)
	}
	if got.BestElapsed != first.Elapsed || got.BestElapsed >= got.Elapsed || got.BestElapsed <= found {
		t.Errorf("best found at %v, elapsed %v; want the time of the snapshot that carried it, %v", got.BestElapsed, got.Elapsed, first.Elapsed)
	}
	// A longer best never replaces a shorter one the reader has not seen.
	m := Merge(Snapshot{Best: []int{0, 1}, BestLength: 5, Elapsed: 2}, Snapshot{Best: []int{1, 0}, BestLength: 7, Elapsed: 3})
	if m.BestLength != 5 || m.BestElapsed != 2 || m.Elapsed != 3 {
		t.Errorf("merge kept %+v", m)
	}
}

// TestMergeKeepsTheAccount: a snapshot that says nothing of the account
// takes the unread one's, and a newer account wins.
func TestMergeKeepsTheAccount(t *testing.T) {
	a := &Account{Search: SearchMerged}
	b := &Account{Search: SearchPartition}
	if got := Merge(Snapshot{Account: a}, Snapshot{Phase: PhaseSearch}); got.Account != a {
		t.Errorf("account %+v, want the older one", got.Account)
	}
	if got := Merge(Snapshot{Account: a}, Snapshot{Account: b}); got.Account != b {
		t.Errorf("account %+v, want the newer one", got.Account)
	}
}
