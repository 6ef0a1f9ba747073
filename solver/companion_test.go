package solver

import (
	"context"
	"slices"
	"testing"
)

// TestCompanionType checks the exchange's bookkeeping: offers replace
// each other until taken, each is taken once, a published tour records
// the newest offer taken before it, and a nil companion does nothing.
func TestCompanionType(t *testing.T) {
	x := &Companion{}
	if _, _, seq, _ := x.Latest(nil); seq != 0 {
		t.Fatal("a tour before any was published")
	}
	if _, _, ok := x.TakeOffer(nil); ok {
		t.Fatal("an offer before any was made")
	}
	x.Offer([]int32{0, 1, 2}, 3)
	k := x.Offer([]int32{2, 1, 0}, 2)
	got, l, ok := x.TakeOffer(nil)
	if !ok || l != 2 || !slices.Equal(got, []int32{2, 1, 0}) || k != 2 {
		t.Fatalf("took %v (%d, %v), offer number %d", got, l, ok, k)
	}
	if _, _, ok := x.TakeOffer(nil); ok {
		t.Fatal("an offer taken twice")
	}
	pub := []int32{1, 0, 2}
	x.Publish(pub, 7)
	pub[0] = 2 // the companion holds a copy
	got, l, seq, taken := x.Latest(nil)
	if !slices.Equal(got, []int32{1, 0, 2}) || l != 7 || seq != 1 || taken != 2 {
		t.Fatalf("latest %v (%d), number %d, offers seen %d", got, l, seq, taken)
	}
	var nilX *Companion
	nilX.Publish(pub, 1)
	nilX.Offer(pub, 1)
	nilX.Folded(3)
	if _, _, ok := nilX.TakeOffer(nil); ok || CompanionFrom(context.Background()) != nil {
		t.Fatal("a nil companion is not empty")
	}
	if CompanionFrom(WithCompanion(context.Background(), x)) != x {
		t.Fatal("the context does not carry the companion")
	}
}
