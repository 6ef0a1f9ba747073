package solver

import (
	"context"
	"math/rand/v2"
	"slices"
	"sync"
	"time"
)

// Companion is the tour exchange between an engine and a search running
// beside it on other hardware (GPU auto's tour windows beside the CPU
// auto engine). The engine publishes its current tour from time to time
// and, at the same points, takes the companion's newest offer and folds
// it into its own tour (partition crossover: never longer than either);
// the companion goes on from the engine's newest tour and offers what it
// found. Tours are city orders of int32. All methods are safe for
// concurrent use; a nil *Companion is valid and does nothing.
//
// Division of labour: the companion may ask for a claim (SetClaim), a
// fraction of the tour that it searches alone. When the engine honours
// claims (HonourClaims), each publication that follows a request
// (AskClaim), and the first one, picks a new claim: a path of
// consecutive positions of the published tour at a random offset. The
// engine leaves the claim's edges alone (Claim) until the next one, and
// the companion changes nothing but the path's inner cities, its two
// end cities staying where they are: the two sides then improve
// different parts of the tour, and the fold keeps both.
type Companion struct {
	mu sync.Mutex

	pub      []int32 // the engine's newest tour
	pubLen   int64
	pubSeq   uint64 // tours published so far
	pubTaken uint64 // the newest offer the published tour has seen

	offer      []int32 // the companion's newest offer
	offerLen   int64
	offerSeq   uint64 // offers so far
	offerClaim uint64 // the claim the offer improved (0: none)
	taken      uint64 // the newest offer the engine took

	folds  uint64 // offers that shortened the engine's tour
	gained int64  // by how much, in all
	// spent is the engine's time in folds and publications, in all: time
	// its search stood still for the companion
	spent time.Duration

	claimFrac float64    // the fraction of the tour a claim holds (0: none)
	claimRNG  *rand.Rand // the claims' offsets
	honours   bool       // the engine leaves the claim alone
	asked     bool       // the companion asked for a new claim
	claim     []int32    // the current claim: a path of the tour, in order
	claimID   uint64     // claims so far
	prevClaim []int32    // the claim before it (claimID-1)
	// the current claim's place in the newest published tour: its first
	// position (the claim's first city) and direction (+1, or -1 when the
	// tour runs the path backwards); claimAt < 0 when it is not one path
	// there
	claimAt, claimDir int
}

// Claim is a claim's place in a published tour: positions From,
// From+1, ..., From+Len-1 (cyclic), ID the claim's number (0: none).
type Claim struct {
	From, Len int
	ID        uint64
}

type companionKey struct{}

// WithCompanion returns a context carrying x: an engine that can
// exchange tours with a companion search finds it there.
func WithCompanion(ctx context.Context, x *Companion) context.Context {
	return context.WithValue(ctx, companionKey{}, x)
}

// CompanionFrom returns the companion that ctx carries, or nil.
func CompanionFrom(ctx context.Context) *Companion {
	x, _ := ctx.Value(companionKey{}).(*Companion)
	return x
}

// Publish records t (length l) as the engine's newest tour, copying it;
// when a new claim is due (see Companion) it picks one from t.
func (x *Companion) Publish(t []int32, l int64) {
	if x == nil {
		return
	}
	x.mu.Lock()
	x.pub = append(x.pub[:0], t...)
	x.pubLen = l
	x.pubSeq++
	x.pubTaken = x.taken
	x.placeClaim()
	x.mu.Unlock()
}

// SetClaim asks the engine to leave the companion a path of about f·n of
// its tour's n cities (0 < f < 1; 0: no claims), the offsets drawn from
// seed. It takes effect at the next publication.
func (x *Companion) SetClaim(f float64, seed uint64) {
	if x == nil {
		return
	}
	x.mu.Lock()
	x.claimFrac = f
	x.claimRNG = rand.New(rand.NewPCG(seed, 0xc1a1))
	x.mu.Unlock()
}

// HonourClaims records that the engine leaves the companion's claims
// alone; without it no claim is made.
func (x *Companion) HonourClaims() {
	if x == nil {
		return
	}
	x.mu.Lock()
	x.honours = true
	x.mu.Unlock()
}

// AskClaim asks for a new claim at the engine's next publication.
func (x *Companion) AskClaim() {
	if x == nil {
		return
	}
	x.mu.Lock()
	x.asked = true
	x.mu.Unlock()
}

// ClaimLen returns the size of a claim of n cities: f·n, at least
// claimMin and at most n/2 (the engine keeps at least half its tour).
func ClaimLen(f float64, n int) int {
	return min(max(int(f*float64(n)+0.5), claimMin), n/2)
}

// claimMin is the smallest claim: one window of the companion's search
// and its two end cities.
const claimMin = 64

// placeClaim picks a new claim from the newest tour when one is due, and
// finds the current claim in it (x.mu held).
func (x *Companion) placeClaim() {
	n := len(x.pub)
	if x.claimFrac <= 0 || !x.honours || n < 4*claimMin {
		x.claim, x.claimAt = x.claim[:0], -1
		return
	}
	if len(x.claim) == 0 || x.asked {
		m := ClaimLen(x.claimFrac, n)
		from := x.claimRNG.IntN(n)
		x.prevClaim, x.claim = x.claim, x.prevClaim
		x.claim = x.claim[:0]
		for i := range m {
			x.claim = append(x.claim, x.pub[(from+i)%n])
		}
		x.claimID++
		x.asked = false
		x.claimAt, x.claimDir = from, 1
		return
	}
	// the current claim: one path of the tour, either way round
	m := len(x.claim)
	x.claimAt = -1
	for i, c := range x.pub {
		if c != x.claim[0] {
			continue
		}
		switch {
		case x.pub[(i+m-1)%n] == x.claim[m-1]:
			x.claimAt, x.claimDir = i, 1
		case x.pub[(i-(m-1)+n)%n] == x.claim[m-1]:
			x.claimAt, x.claimDir = i, -1
		}
		break
	}
}

// Claim copies the current claim's cities, in path order, into dst
// (reallocated when too small) and returns them with the claim's number
// (0, and dst[:0]: none).
func (x *Companion) Claim(dst []int32) ([]int32, uint64) {
	if x == nil {
		return dst[:0], 0
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.claim) == 0 {
		return dst[:0], 0
	}
	return append(dst[:0], x.claim...), x.claimID
}

// TakeOffer copies the companion's newest offer that the engine has not
// taken yet into dst (reallocated when too small) and marks it taken. ok
// is false, and dst returned unchanged, when there is none.
func (x *Companion) TakeOffer(dst []int32) (t []int32, l int64, ok bool) {
	if x == nil {
		return dst, 0, false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.offerSeq == x.taken {
		return dst, 0, false
	}
	x.taken = x.offerSeq
	return append(dst[:0], x.offer...), x.offerLen, true
}

// Offer records t (length l as the companion computed it) as its newest
// offer, replacing one the engine has not taken yet, and returns the
// offer's number. The engine checks the tour and its length before it
// uses it.
func (x *Companion) Offer(t []int32, l int64) uint64 {
	return x.OfferClaim(t, l, 0)
}

// OfferClaim is Offer for a tour that differs from the one the companion
// started from only inside claim number id (its inner cities), which
// lets the engine put the claim's new path into its own tour whole.
func (x *Companion) OfferClaim(t []int32, l int64, id uint64) uint64 {
	if x == nil {
		return 0
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.offer = append(x.offer[:0], t...)
	x.offerLen = l
	x.offerSeq++
	x.offerClaim = id
	return x.offerSeq
}

// OfferedClaim returns the cities of the claim the newest offer taken
// improved (the current claim or the one before), in path order, copied
// into dst; ok is false when that offer named none or it is older.
func (x *Companion) OfferedClaim(dst []int32) (c []int32, ok bool) {
	if x == nil {
		return dst[:0], false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	switch {
	case x.offerClaim == 0:
		return dst[:0], false
	case x.offerClaim == x.claimID && len(x.claim) > 0:
		return append(dst[:0], x.claim...), true
	case x.offerClaim+1 == x.claimID && len(x.prevClaim) > 0:
		return append(dst[:0], x.prevClaim...), true
	}
	return dst[:0], false
}

// Latest copies the engine's newest tour into dst (reallocated when too
// small) and returns it with its length, its number (0: none published
// yet, dst unchanged) and the newest offer the engine had taken when it
// published it.
func (x *Companion) Latest(dst []int32) (t []int32, l int64, seq, taken uint64) {
	t, l, seq, taken, _ = x.LatestClaim(dst)
	return t, l, seq, taken
}

// LatestClaim is Latest with the current claim's place in the tour it
// returns (ID 0: no claim, or the claim is not one path of that tour).
// The tour returned runs the claim forwards: a tour the engine published
// the other way round is reversed.
func (x *Companion) LatestClaim(dst []int32) (t []int32, l int64, seq, taken uint64, c Claim) {
	if x == nil {
		return dst, 0, 0, 0, Claim{}
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.pubSeq == 0 {
		return dst, 0, 0, 0, Claim{}
	}
	t = append(dst[:0], x.pub...)
	if len(x.claim) > 0 && x.claimAt >= 0 {
		c = Claim{From: x.claimAt, Len: len(x.claim), ID: x.claimID}
		if x.claimDir < 0 {
			slices.Reverse(t)
			c.From = len(t) - 1 - x.claimAt
		}
	}
	return t, x.pubLen, x.pubSeq, x.pubTaken, c
}

// Published returns the number of the engine's newest tour (0: none
// yet), its length, and the newest offer the engine had taken when it
// published it, without copying the tour.
func (x *Companion) Published() (seq uint64, l int64, taken uint64) {
	if x == nil {
		return 0, 0, 0
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.pubSeq, x.pubLen, x.pubTaken
}

// Folded records that folding an offer in shortened the engine's tour by
// gain.
func (x *Companion) Folded(gain int64) {
	if x == nil {
		return
	}
	x.mu.Lock()
	x.folds++
	x.gained += gain
	x.mu.Unlock()
}

// Spent adds d to the engine's time in folds and publications.
func (x *Companion) Spent(d time.Duration) {
	if x == nil {
		return
	}
	x.mu.Lock()
	x.spent += d
	x.mu.Unlock()
}

// SpentTime returns the engine's time in folds and publications so far.
func (x *Companion) SpentTime() time.Duration {
	if x == nil {
		return 0
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.spent
}

// Stats returns the offers made, those the engine took, those that
// shortened its tour and the length they gained in all.
func (x *Companion) Stats() (offers, taken, folds uint64, gained int64) {
	if x == nil {
		return 0, 0, 0, 0
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return x.offerSeq, x.taken, x.folds, x.gained
}
