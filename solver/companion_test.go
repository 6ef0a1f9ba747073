package solver

import (
	"context"
	"slices"
	"testing"
	"time"
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
	x.Spent(3 * time.Millisecond)
	x.Spent(4 * time.Millisecond)
	if d := x.SpentTime(); d != 7*time.Millisecond {
		t.Fatalf("the engine's time on the companion: %v, want 7ms", d)
	}
	var nilX *Companion
	nilX.Publish(pub, 1)
	nilX.Offer(pub, 1)
	nilX.Folded(3)
	nilX.Spent(time.Second)
	if _, _, ok := nilX.TakeOffer(nil); ok || nilX.SpentTime() != 0 || CompanionFrom(context.Background()) != nil {
		t.Fatal("a nil companion is not empty")
	}
	if CompanionFrom(WithCompanion(context.Background(), x)) != x {
		t.Fatal("the context does not carry the companion")
	}
}

// TestClaimPlacement checks the companion's claims: none before the
// engine honours them, a new one at the first publication and after
// every request, the same one (found again, either way round) otherwise,
// and the tour LatestClaim returns running the claim forwards.
func TestClaimPlacement(t *testing.T) {
	n := 1000
	tr := make([]int32, n)
	for i := range tr {
		tr[i] = int32(i)
	}
	x := &Companion{}
	x.SetClaim(0.25, 1)
	x.Publish(tr, 1)
	if _, id := x.Claim(nil); id != 0 {
		t.Fatal("a claim before the engine honours them")
	}
	x.HonourClaims()
	x.Publish(tr, 1)
	c1, id1 := x.Claim(nil)
	if id1 == 0 || len(c1) != 250 {
		t.Fatalf("claim %d of %d cities", id1, len(c1))
	}
	rev := slices.Clone(tr)
	slices.Reverse(rev)
	x.Publish(rev, 1)
	c2, id2 := x.Claim(nil)
	if id2 != id1 || !slices.Equal(c1, c2) {
		t.Fatal("the claim changed without a request")
	}
	got, _, _, _, c := x.LatestClaim(nil)
	if c.ID != id1 || c.Len != 250 {
		t.Fatalf("claim in the reversed tour: %+v", c)
	}
	for j := range c.Len {
		if got[(c.From+j)%n] != c1[j] {
			t.Fatalf("position %d of the claim: %d, want %d", j, got[(c.From+j)%n], c1[j])
		}
	}
	x.AskClaim()
	x.Publish(tr, 1)
	if _, id3 := x.Claim(nil); id3 == id1 {
		t.Fatal("no new claim after a request")
	}
	// a companion that ends gives the claim back at the next publication
	x.SetClaim(0, 0)
	x.Publish(tr, 1)
	if c, id := x.Claim(nil); id != 0 || len(c) != 0 {
		t.Fatalf("claim %d of %d cities after the companion ended", id, len(c))
	}
}
