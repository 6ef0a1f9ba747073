package tour

import (
	"math/rand/v2"
	"testing"
)

// TestQueueFIFOWithoutRepeats drives a Queue and a plain slice model with
// the same random pushes and pops: the same cities come out in the same
// order, a queued city is not queued twice, and wrapping around the ring
// loses nothing.
func TestQueueFIFOWithoutRepeats(t *testing.T) {
	const n = 17
	rng := rand.New(rand.NewPCG(3, 5))
	q := NewQueue(n)
	var model []int32
	queued := map[int32]bool{}
	for step := 0; step < 5000; step++ {
		if rng.IntN(3) > 0 {
			c := int32(rng.IntN(n))
			q.Push(c)
			if !queued[c] {
				queued[c] = true
				model = append(model, c)
			}
		} else if len(model) > 0 {
			got, want := q.Pop(), model[0]
			model = model[1:]
			delete(queued, want)
			if got != want {
				t.Fatalf("step %d: Pop = %d, want %d", step, got, want)
			}
		}
		if q.Len() != len(model) {
			t.Fatalf("step %d: Len = %d, want %d", step, q.Len(), len(model))
		}
	}
}
