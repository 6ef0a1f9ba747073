package main

import (
	"os"
	"testing"
	"time"
)

// TestSecondSignal checks that a signal's echo (timeout(1) signalling the
// command and then its group) does not force an exit, and that a later
// second signal does.
func TestSecondSignal(t *testing.T) {
	sigs := make(chan os.Signal, 2)
	done := make(chan struct{})
	sigs <- os.Interrupt
	go func() { time.Sleep(50 * time.Millisecond); close(done) }()
	if why, ok := secondSignal(sigs, done, time.Now()); ok {
		t.Fatalf("an echo of the first signal forced an exit: %s", why)
	}
	sigs <- os.Interrupt
	why, ok := secondSignal(sigs, make(chan struct{}), time.Now().Add(-2*signalEcho))
	if !ok || why != "interrupted again" {
		t.Fatalf("a second signal after the echo window: got %q, %v", why, ok)
	}
}
