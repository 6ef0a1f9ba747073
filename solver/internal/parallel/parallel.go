// Package parallel runs a loop over [0,n) on all cores in chunks handed
// out from a shared counter, so that uneven work stays balanced.
package parallel

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
)

// serialBelow is the loop length below which one goroutine does it all.
const serialBelow = 512

// For runs fn over [0,n) in chunks on all cores and returns when all are done.
func For(n int, fn func(lo, hi int)) {
	w := min(runtime.GOMAXPROCS(0), n)
	if w <= 1 || n < serialBelow {
		fn(0, n)
		return
	}
	run(w, n, max(256, n/(w*8)), func() bool { return true }, fn)
}

// ForContext is For in small chunks, stopping with ctx's error within milliseconds of ctx ending.
func ForContext(ctx context.Context, n int, fn func(lo, hi int)) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	w := min(runtime.GOMAXPROCS(0), n)
	if w <= 1 || n < serialBelow {
		fn(0, n)
		return nil
	}
	// Chunks under n/w balance uneven work; the cap keeps cancellation prompt.
	run(w, n, min(max(64, n/(w*8)), 2048), func() bool { return ctx.Err() == nil }, fn)
	return ctx.Err()
}

// run starts w workers taking chunks until [0,n) is covered or more says false.
func run(w, n, chunk int, more func() bool, fn func(lo, hi int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range w {
		wg.Go(func() {
			for more() {
				lo := int(next.Add(int64(chunk))) - chunk
				if lo >= n {
					return
				}
				fn(lo, min(lo+chunk, n))
			}
		})
	}
	wg.Wait()
}
