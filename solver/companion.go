package solver

import (
	"context"
	"sync"
)

// Companion is the tour exchange between an engine and a search running
// beside it on other hardware (GPU auto's tour windows beside the CPU
// auto engine). The engine publishes its current tour from time to time
// and, at the same points, takes the companion's newest offer and folds
// it into its own tour (partition crossover: never longer than either);
// the companion goes on from the engine's newest tour and offers what it
// found. Tours are city orders of int32. All methods are safe for
// concurrent use; a nil *Companion is valid and does nothing.
type Companion struct {
	mu sync.Mutex

	pub      []int32 // the engine's newest tour
	pubLen   int64
	pubSeq   uint64 // tours published so far
	pubTaken uint64 // the newest offer the published tour has seen

	offer    []int32 // the companion's newest offer
	offerLen int64
	offerSeq uint64 // offers so far
	taken    uint64 // the newest offer the engine took

	folds  uint64 // offers that shortened the engine's tour
	gained int64  // by how much, in all
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

// Publish records t (length l) as the engine's newest tour, copying it.
func (x *Companion) Publish(t []int32, l int64) {
	if x == nil {
		return
	}
	x.mu.Lock()
	x.pub = append(x.pub[:0], t...)
	x.pubLen = l
	x.pubSeq++
	x.pubTaken = x.taken
	x.mu.Unlock()
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
	if x == nil {
		return 0
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	x.offer = append(x.offer[:0], t...)
	x.offerLen = l
	x.offerSeq++
	return x.offerSeq
}

// Latest copies the engine's newest tour into dst (reallocated when too
// small) and returns it with its length, its number (0: none published
// yet, dst unchanged) and the newest offer the engine had taken when it
// published it.
func (x *Companion) Latest(dst []int32) (t []int32, l int64, seq, taken uint64) {
	if x == nil {
		return dst, 0, 0, 0
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.pubSeq == 0 {
		return dst, 0, 0, 0
	}
	return append(dst[:0], x.pub...), x.pubLen, x.pubSeq, x.pubTaken
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
