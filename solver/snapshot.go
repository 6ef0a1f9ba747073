package solver

import "time"

// DefaultSnapshotInterval bounds how often an engine sends snapshots.
const DefaultSnapshotInterval = 50 * time.Millisecond

// Sink sends snapshots at a bounded rate without blocking, a new one replacing an unread one; a nil channel is a no-op.
type Sink struct {
	ch       chan Snapshot
	interval time.Duration
	next     time.Time
	start    time.Time
	phase    Phase // the last phase sent by SendPhase
}

// NewSink returns a Sink sending at most one snapshot per interval (<= 0: DefaultSnapshotInterval) from start.
func NewSink(ch chan Snapshot, interval time.Duration, start time.Time) *Sink {
	if interval <= 0 {
		interval = DefaultSnapshotInterval
	}
	return &Sink{ch: ch, interval: interval, start: start}
}

// Due reports whether a snapshot should be built now; cheap in inner loops.
func (s *Sink) Due() bool {
	if s == nil || s.ch == nil {
		return false
	}
	return !time.Now().Before(s.next)
}

// Send offers snap, filling Elapsed, and schedules the next; it never blocks.
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

// SendPhase sends the phase and its progress alone, rate-bound unless the phase changed.
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

// Offer puts snap into ch without blocking, merged over an unread snapshot (Merge); without a reader it drops snap.
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

// Merge is newer as a reader that never saw older must get it: nil Tour or Best mean unchanged, so newer takes older's
// tour, shorter best (with its time) and account where it lacks them.
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

// Latest returns a one-slot channel for Sink, so a slow reader finds the newest.
func Latest() chan Snapshot { return make(chan Snapshot, 1) }
