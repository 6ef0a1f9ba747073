package main

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/report"
)

// progressWidth is the most columns a progress line takes: an 80-column terminal less one, so that it never wraps.
const progressWidth = 79

// progressBeat is how often a JSON progress line goes out at least, the last state again when the engine sent nothing newer.
const progressBeat = time.Second

// progress shows snapshots on stderr: a redrawn bar on a terminal, a line a second otherwise, or JSON lines.
type progress struct {
	w  io.Writer
	in *solver.Instance
	// length turns an engine's length into the one shown (a path lacks the ends' edge; nil: as is)
	length   func(int64) int64
	limit    time.Duration // the run's time limit, for the bar when the engine gives no progress
	terminal bool
	asJSON   bool
	every    time.Duration

	mu      sync.Mutex
	last    time.Time       // when the last line went out
	snap    solver.Snapshot // the newest snapshot, its best kept when a later one carries none
	seen    time.Time       // when it came
	best    int64           // the best length so far (0: none)
	lb      int64           // the lower bound proven beside the run (0: none yet)
	elapsed time.Duration   // the latest elapsed time a JSON line gave
	drawn   bool
	stop    chan struct{}
	beaten  sync.WaitGroup
}

func newProgress(w io.Writer, in *solver.Instance, limit time.Duration, asJSON bool) *progress {
	p := &progress{w: w, in: in, limit: limit, every: time.Second, asJSON: asJSON}
	if f, ok := w.(*os.File); ok && !asJSON {
		if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
			p.terminal, p.every = true, 100*time.Millisecond
		}
	}
	if asJSON {
		p.stop = make(chan struct{})
		p.beaten.Go(p.beat)
	}
	return p
}

// beat sends the last state again whenever progressBeat passed without a line, so that a script sees the run alive.
func (p *progress) beat() {
	start := time.Now()
	t := time.NewTicker(progressBeat / 4)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			p.mu.Lock()
			if now.Sub(p.last) >= progressBeat-progressBeat/8 {
				s := p.snap
				if p.seen.IsZero() {
					s.Elapsed = now.Sub(start)
				} else {
					s.Elapsed += now.Sub(p.seen)
				}
				p.write(s)
			}
			p.mu.Unlock()
		}
	}
}

// setBound records the lower bound proven beside the run, for the gap.
func (p *progress) setBound(r bound.Result) {
	p.mu.Lock()
	p.lb = r.Bound
	p.mu.Unlock()
}

// end stops the beat and ends the last line on a terminal.
func (p *progress) end() {
	if p.stop != nil {
		close(p.stop)
		p.beaten.Wait()
	}
	if p.drawn && p.terminal {
		fmt.Fprintln(p.w)
	}
}

func (p *progress) show(s solver.Snapshot) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if s.BestLength > 0 && (p.best == 0 || p.shown(s.BestLength) < p.best) {
		p.best = p.shown(s.BestLength)
	}
	p.snap, p.seen = s, time.Now()
	p.write(s)
}

// write sends one line for s; p.mu is held.
func (p *progress) write(s solver.Snapshot) {
	p.last = time.Now()
	switch {
	case p.asJSON:
		b, _ := json.Marshal(p.record(s))
		p.w.Write(append(b, '\n'))
	case p.terminal:
		fmt.Fprintf(p.w, "\r%s\x1b[K", p.line(s))
	default:
		fmt.Fprintln(p.w, p.line(s))
	}
	p.drawn = true
}

// shown is the length shown for an engine's tour of length l (progress.length).
func (p *progress) shown(l int64) int64 {
	if p.length == nil {
		return l
	}
	return p.length(l)
}

// progressLine is one line of --progress json: lengths in the file's units, best null before the first tour, the gap
// above the optimum or the proven bound, account as the engine last said it.
type progressLine struct {
	Elapsed        float64   `json:"elapsed_s"`
	Phase          string    `json:"phase"`
	Progress       float64   `json:"progress"`
	Best           *float64  `json:"best"`
	GapPercent     *float64  `json:"gap_percent,omitempty"`
	GapAbove       string    `json:"gap_above,omitempty"`
	Optimum        *float64  `json:"optimum,omitempty"`
	LowerBound     *float64  `json:"lower_bound,omitempty"`
	MovesPerSecond float64   `json:"moves_per_s"`
	Pool           *poolLine `json:"pool,omitempty"`
	// Status is what the search is doing, in words (report.Status).
	Status  string          `json:"status,omitempty"`
	Account *solver.Account `json:"account,omitempty"`
}

// poolLine is the pool of a population search: the tours in it and how many it holds when full.
type poolLine struct {
	Tours    int `json:"tours"`
	Capacity int `json:"capacity"`
}

// record is the JSON line of s; p.mu is held.
func (p *progress) record(s solver.Snapshot) progressLine {
	// never back in time: a beat's estimate may run ahead of the engine's next snapshot
	p.elapsed = max(p.elapsed, s.Elapsed)
	r := progressLine{Elapsed: round3(p.elapsed.Seconds()), Phase: string(phaseOf(s)), Progress: round3(max(s.Progress, 0)),
		MovesPerSecond: math.Round(solver.MovesPerSecond(s.Moves, s.Elapsed))}
	r.Pool, r.Account, r.Status = poolOf(s.Account), s.Account, report.Status(phaseOf(s), s.Account)
	if p.in.HasOptimum() {
		r.Optimum = ptr(p.in.LengthValue(p.shown(p.in.Optimum)))
	}
	if p.lb > 0 {
		r.LowerBound = ptr(p.in.LengthValue(p.shown(p.lb)))
	}
	if p.best > 0 {
		r.Best = ptr(p.in.LengthValue(p.best))
	}
	if g, above, ok := p.gap(); ok {
		r.GapPercent, r.GapAbove = ptr(round3(g)), above
	}
	return r
}

// gap is how far the best lies above the optimum or else the proven bound, as the lengths are shown (p.mu held).
func (p *progress) gap() (g float64, above string, ok bool) {
	switch {
	case p.best <= 0:
	case p.in.HasOptimum():
		g, ok = solver.GapPercent(p.best, p.shown(p.in.Optimum))
		return g, "optimum", ok
	case p.lb > 0:
		g, ok = solver.GapPercent(p.best, p.shown(p.lb))
		return g, "lower_bound", ok
	}
	return 0, "", false
}

func round3(v float64) float64 { return math.Round(v*1000) / 1000 }

// phaseOf is s's phase, the search when the engine names none.
func phaseOf(s solver.Snapshot) solver.Phase { return cmp.Or(s.Phase, solver.PhaseSearch) }

// poolOf is the pool of a population search's account, nil for another.
func poolOf(acc *solver.Account) *poolLine {
	if acc == nil || acc.Pool == nil {
		return nil
	}
	return &poolLine{Tours: acc.Pool.Tours, Capacity: acc.Pool.Capacity}
}

// line formats one progress line within progressWidth columns (p.mu held).
func (p *progress) line(s solver.Snapshot) string {
	var head, tail strings.Builder
	if p.terminal {
		const width = 12
		frac := s.Progress
		if frac <= 0 && p.limit > 0 {
			frac = s.Elapsed.Seconds() / p.limit.Seconds()
		}
		full := max(0, min(width, int(frac*width+0.5)))
		head.WriteString("[" + strings.Repeat("#", full) + strings.Repeat(".", width-full) + "] ")
	} else {
		head.WriteString("tsp: ")
	}
	switch {
	case p.best > 0:
		fmt.Fprintf(&tail, "best %s", p.in.HumanLength(p.best))
		switch g, above, ok := p.gap(); {
		case ok && above == "optimum":
			fmt.Fprintf(&tail, "  gap %s%%", percent(g))
		case ok:
			fmt.Fprintf(&tail, "  gap ≤%s%%", percent(g))
		}
	case s.Length > 0:
		fmt.Fprintf(&tail, "length %s", p.in.HumanLength(p.shown(s.Length)))
	default:
		tail.WriteString("no tour yet") // a phase-only snapshot
	}
	fmt.Fprintf(&tail, "  %s moves/s  %.1fs", siCount(solver.MovesPerSecond(s.Moves, s.Elapsed)), s.Elapsed.Seconds())
	if st := shortStatus(phaseOf(s), s.Account); st != "" {
		// bracketed: "bound  length 379512" read as a bound above the optimum; the bar gives way to the status's first clause
		room := progressWidth - len([]rune(tail.String())) - len("[]  ")
		fit := fitStatus(st, room-len([]rune(head.String())))
		if fit == "" && p.terminal && fitStatus(st, room) != "" {
			head.Reset()
			fit = fitStatus(st, room)
		}
		if fit != "" {
			head.WriteString("[" + fit + "]  ")
		}
	}
	line := head.String() + tail.String()
	if len([]rune(line)) > progressWidth && p.terminal {
		line = tail.String() // the bar gives way first
	}
	return clip(line, progressWidth)
}

// shortStatus is report.Status without the last improvement's source, for a 79-column line.
func shortStatus(ph solver.Phase, acc *solver.Account) string {
	s, _, _ := strings.Cut(report.Status(ph, acc), ";")
	return s
}

// fitStatus is status within room runes: whole, else its longest first clause that fits, else nothing.
func fitStatus(status string, room int) string {
	if len([]rune(status)) <= room {
		return status
	}
	fit := ""
	for i := range status {
		if len([]rune(status[:i])) > room {
			break
		}
		if strings.HasPrefix(status[i:], ", ") || strings.HasPrefix(status[i:], ": ") || strings.HasPrefix(status[i:], " (") {
			fit = status[:i]
		}
	}
	return fit
}

// percent writes a gap in percent for people: two decimals, digits grouped (a weak bound's 140,965.64).
func percent(g float64) string { return solver.GroupDigits(fmt.Sprintf("%.2f", g)) }

// clip cuts s to at most n runes, marking the cut with an ellipsis.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	if n <= 1 {
		return "…"
	}
	return string(r[:n-1]) + "…"
}

// siCount writes a rate with an SI prefix and three digits: 950, 12.3k, 1.69M.
func siCount(v float64) string {
	for _, u := range []struct {
		f float64
		s string
	}{{1e12, "T"}, {1e9, "G"}, {1e6, "M"}, {1e3, "k"}} {
		if v >= u.f {
			return fmt.Sprintf("%.3g%s", v/u.f, u.s)
		}
	}
	return fmt.Sprintf("%.3g", v)
}

// progressDoc is the help of --progress on solve and batch.
const progressDoc = "progress on stderr: `text` (a bar on a terminal, else a line a second) or json (one JSON object a line, at least one a second: elapsed_s, phase, progress, best, gap_percent and gap_above, optimum or lower_bound, moves_per_s, pool, status, account)"

// checkProgress refuses a --progress other than text or json.
func checkProgress(cmd, mode string) error {
	if mode != "text" && mode != "json" {
		return usagef(cmd, "--progress %q: want text or json", mode)
	}
	return nil
}
