package solver

import "time"

// DefaultSnapshotInterval bounds how often an engine sends snapshots.
const DefaultSnapshotInterval = 50 * time.Millisecond

// Sink sends snapshots to a channel at a bounded rate without ever
// blocking: when the reader has not taken the previous snapshot, the new
// one replaces it, so the reader always sees the newest state. A nil
// channel makes every call a no-op.
type Sink struct {
	ch       chan Snapshot
	interval time.Duration
	next     time.Time
	start    time.Time
	phase    Phase // the last phase sent by SendPhase
}

// NewSink returns a Sink that sends at most one snapshot per interval
// (DefaultSnapshotInterval if interval <= 0). start is the run's start,
// used for Snapshot.Elapsed.
func NewSink(ch chan Snapshot, interval time.Duration, start time.Time) *Sink {
	if interval <= 0 {
		interval = DefaultSnapshotInterval
	}
	return &Sink{ch: ch, interval: interval, start: start}
}

// Due reports whether a snapshot should be built now. It is cheap enough
// for an inner loop that checks it every few thousand moves.
func (s *Sink) Due() bool {
	if s == nil || s.ch == nil {
		return false
	}
	return !time.Now().Before(s.next)
}

// Send offers snap, filling Elapsed, and schedules the next one. It never
// blocks. Call Force to send regardless of the interval (the final state).
func (s *Sink) Send(snap Snapshot) {
	if s == nil || s.ch == nil {
		return
	}
	now := time.Now()
	s.next = now.Add(s.interval)
	snap.Elapsed = now.Sub(s.start)
	if snap.Best != nil && snap.BestElapsed == 0 {
		snap.BestElapsed = snap.Elapsed
	}
	Offer(s.ch, snap)
}

// SendPhase sends a snapshot that carries only the phase and its progress
// (Tour and Best nil: the receiver keeps the tour it has), subject to the
// same rate bound as Send unless the phase differs from the last one sent
// through SendPhase, which always goes out.
func (s *Sink) SendPhase(ph Phase, progress float64) { s.SendStage(ph, progress, nil) }

// SendStage is SendPhase with the run's account so far (nil: none).
func (s *Sink) SendStage(ph Phase, progress float64, acc *Account) {
	if s == nil || s.ch == nil {
		return
	}
	if ph == s.phase && !s.Due() {
		return
	}
	s.phase = ph
	s.Send(Snapshot{Phase: ph, PhaseProgress: progress, Account: acc})
}

// Offer puts snap into ch without blocking, replacing an unread snapshot
// if the buffer is full (snap then carries what that one had and it has
// not: Merge). With an unbuffered channel and no waiting reader, or a nil
// one, it drops snap.
func Offer(ch chan Snapshot, snap Snapshot) {
	select {
	case ch <- snap:
		return
	default:
	}
	// Buffer full: take back what the reader has not read yet, then retry once.
	select {
	case old := <-ch:
		snap = Merge(old, snap)
	default:
	}
	select {
	case ch <- snap:
	default:
	}
}

// Merge is newer as a reader that never sees older must get it: a
// snapshot's nil Tour or Best means "unchanged since the last one", so
// newer takes older's tour where it has none, and older's best tour (with
// its length and time) where it has none or a longer one, and older's
// account where it has none. A throttled
// reader thus sees every change of the best tour, stamped with the time
// it was found.
func Merge(older, newer Snapshot) Snapshot {
	if newer.Tour == nil && older.Tour != nil {
		newer.Tour = older.Tour
		if newer.Length <= 0 {
			newer.Length = older.Length
		}
	}
	if newer.Account == nil {
		newer.Account = older.Account
	}
	if older.Best == nil {
		return newer
	}
	at := older.BestElapsed
	if at == 0 {
		at = older.Elapsed
	}
	switch {
	case newer.Best == nil || older.BestLength < newer.BestLength:
		newer.Best, newer.BestLength, newer.BestElapsed = older.Best, older.BestLength, at
	case older.BestLength == newer.BestLength && (newer.BestElapsed == 0 || at < newer.BestElapsed):
		newer.BestElapsed = at // the same best, found when older says
	}
	return newer
}

// Latest returns a channel suited to Sink: buffered with one slot, so a
// slow reader only ever finds the newest snapshot.
func Latest() chan Snapshot { return make(chan Snapshot, 1) }
