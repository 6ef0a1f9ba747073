package parallel

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
)

// TestForCoversOnce checks that every index is visited exactly once, for
// lengths below and above the serial threshold.
func TestForCoversOnce(t *testing.T) {
	for _, n := range []int{0, 1, 511, 512, 5000, 100_003} {
		seen := make([]atomic.Int32, n)
		visit := func(lo, hi int) {
			for i := lo; i < hi; i++ {
				seen[i].Add(1)
			}
		}
		For(n, visit)
		for i := range seen {
			if c := seen[i].Swap(0); c != 1 {
				t.Fatalf("For n=%d: index %d visited %d times", n, i, c)
			}
		}
		if err := ForContext(context.Background(), n, visit); err != nil {
			t.Fatalf("ForContext n=%d: %v", n, err)
		}
		for i := range seen {
			if c := seen[i].Load(); c != 1 {
				t.Fatalf("ForContext n=%d: index %d visited %d times", n, i, c)
			}
		}
	}
}

// TestForContextStops checks that a cancelled context stops the loop
// before it starts and that one cancelled midway returns its error
// without visiting every chunk.
func TestForContextStops(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	called := false
	if err := ForContext(ctx, 10, func(lo, hi int) { called = true }); !errors.Is(err, context.Canceled) || called {
		t.Fatalf("cancelled before: err %v, called %v", err, called)
	}

	ctx, cancel = context.WithCancel(context.Background())
	defer cancel()
	const n = 1 << 20
	var done atomic.Int64
	err := ForContext(ctx, n, func(lo, hi int) {
		cancel()
		done.Add(int64(hi - lo))
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled midway: err %v", err)
	}
	if done.Load() >= n {
		t.Fatalf("cancelled midway: all %d indices were visited", n)
	}
}
