package bench

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// LKHLabel is the ttq suite's label of its peer, an LKH-3 binary the user built from Helsgaun's source, run as a process on one core of the same host.
const LKHLabel = "LKH-3, 1 core"

// lkhSetting is LKH-3's parameters for instances of at least minN cities.
type lkhSetting struct {
	minN   int
	params [][2]string // keyword, value; none: LKH's defaults
	about  string      // the settings in words, for the table's notes
}

// lkhSettings are LKH-3's per-size settings, its fastest to a small gap within 10 to 60 s (docs/DECISIONS.md#lkh-settings): its defaults below 3,000 cities; above, the ascent's n² iterations
// delay the first trial (past 20 s on fnl4461), so 5 quadrant neighbours without it and a greedy first tour start at once and stay ahead.
var lkhSettings = []lkhSetting{
	{0, nil, "its defaults (5 alpha-nearness candidates after the subgradient ascent)"},
	{3000, [][2]string{{"CANDIDATE_SET_TYPE", "QUADRANT"}, {"SUBGRADIENT", "NO"}, {"MAX_CANDIDATES", "5"}, {"INITIAL_TOUR_ALGORITHM", "GREEDY"}},
		"CANDIDATE_SET_TYPE = QUADRANT, SUBGRADIENT = NO, MAX_CANDIDATES = 5, INITIAL_TOUR_ALGORITHM = GREEDY"},
}

// lkhSettingFor is the setting for an instance of n cities.
func lkhSettingFor(n int) lkhSetting {
	s := lkhSettings[0]
	for _, x := range lkhSettings {
		if n >= x.minN {
			s = x
		}
	}
	return s
}

// lkhGrace is how long past its TIME_LIMIT the peer may run before it is killed: LKH checks its limit only between trials, which take seconds on large instances.
func lkhGrace(d time.Duration) time.Duration {
	return min(max(d/4, 2*time.Second), 30*time.Second)
}

// lkhEvent is one line of LKH-3's trace that the peer runner reads.
type lkhEvent struct {
	kind  byte    // '*': a trial improved the run's tour; 'R': a run ended; 'P': preprocessing done
	trial int     // the trial ('*') or run ('R') number
	cost  int64   // the tour length ('*', 'R')
	sec   float64 // LKH's own time on the line: since its run started ('*', 'R'), or the preprocessing time ('P')
}

// parseLKHLine reads one line of LKH-3's trace at TRACE_LEVEL = 1 ("* 12: Cost = 20239383, Gap = 1.1527%, Time = 0.52 sec.",
// "Run 1: Cost = 20011000, Time = 19.80 sec. =", "Preprocessing time = 0.04 sec."); other lines are not events.
func parseLKHLine(line string) (lkhEvent, bool) {
	line = strings.TrimSpace(line)
	var ev lkhEvent
	var rest string
	switch {
	case strings.HasPrefix(line, "* "):
		ev.kind, rest = '*', line[2:]
	case strings.HasPrefix(line, "Run "):
		ev.kind, rest = 'R', line[4:]
	case strings.HasPrefix(line, "Preprocessing time = "):
		s, ok := strings.CutSuffix(strings.TrimPrefix(line, "Preprocessing time = "), " sec.")
		if !ok {
			return ev, false
		}
		v, err := strconv.ParseFloat(s, 64)
		if err != nil {
			return ev, false
		}
		ev.kind, ev.sec = 'P', v
		return ev, true
	default:
		return ev, false
	}
	num, rest, ok := strings.Cut(rest, ": ")
	if !ok {
		return ev, false
	}
	var err error
	if ev.trial, err = strconv.Atoi(num); err != nil || ev.trial < 1 {
		return ev, false
	}
	haveCost, haveTime := false, false
	for _, f := range strings.Split(rest, ", ") {
		key, val, ok := strings.Cut(f, " = ")
		if !ok {
			continue
		}
		switch key {
		case "Cost":
			// a penalised problem's "penalty_cost": not a plain tour
			if ev.cost, err = strconv.ParseInt(val, 10, 64); err != nil || ev.cost < 0 {
				return ev, false
			}
			haveCost = true
		case "Time":
			s, _, ok := strings.Cut(val, " sec.")
			if !ok {
				return ev, false
			}
			if ev.sec, err = strconv.ParseFloat(s, 64); err != nil {
				return ev, false
			}
			haveTime = true
		}
	}
	return ev, haveCost && haveTime
}

// lkhResult is one run of the peer.
type lkhResult struct {
	pts     []ttqPoint    // best so far by wall clock from the process's start, within the budget
	length  int64         // the best length within the budget (0: no tour)
	elapsed time.Duration // the process's wall time
	prep    float64       // LKH's preprocessing time in seconds (-1: not reported)
	killed  bool          // the process outran its budget and grace and was killed
	checked bool          // its tour file was read and measured here: a valid tour as long as its last reported cost
}

// lkhBinary resolves path to an absolute executable (the peer runs in a temporary folder), or says why it cannot run.
func lkhBinary(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("peer LKH %s: %v", path, err)
	}
	fi, err := os.Stat(abs)
	if err != nil {
		return "", fmt.Errorf("peer LKH: %v", err)
	}
	if fi.IsDir() {
		return "", fmt.Errorf("peer LKH %s: a folder, want the LKH executable", path)
	}
	if _, err := exec.LookPath(abs); err != nil {
		return "", fmt.Errorf("peer LKH %s: not executable", path)
	}
	return abs, nil
}

// lastLine is msg's last line, or alt's when msg is empty: what a failed run said last.
func lastLine(msg, alt string) string {
	msg = strings.TrimSpace(msg)
	if msg == "" {
		msg = alt
	}
	if i := strings.LastIndexByte(msg, '\n'); i >= 0 {
		msg = msg[i+1:]
	}
	return msg
}

// runLKH runs bin on in for d with seed (RUNS = 1, trials until TIME_LIMIT = d, TRACE_LEVEL = 1), timing improvements by wall clock as their lines arrive (LKH's own clock is
// its user CPU time); it kills the process when ctx ends or grace after d, and when LKH ends by itself checks the tour it wrote against its last reported cost.
func runLKH(ctx context.Context, bin string, in *solver.Instance, d, grace time.Duration, seed uint64) (lkhResult, error) {
	res := lkhResult{prep: -1}
	dir, err := os.MkdirTemp("", "tsplab-lkh-")
	if err != nil {
		return res, err
	}
	defer os.RemoveAll(dir)
	if err := lkhProblem(dir, in); err != nil {
		return res, err
	}
	if err := lkhParams(dir, in, d, seed); err != nil {
		return res, err
	}

	runCtx, cancel := context.WithTimeout(ctx, d+grace)
	defer cancel()
	cmd := exec.CommandContext(runCtx, bin, "run.par")
	cmd.Dir = dir
	cmd.WaitDelay = time.Second // a child holding the pipes does not hold us past the kill
	var stderr tailBuffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return res, err
	}
	t0 := time.Now()
	if err := cmd.Start(); err != nil {
		return res, fmt.Errorf("peer LKH: %v", err)
	}
	last, best, lastOut := lkhScan(stdout, t0, d, &res)
	// the scanner stops at EOF or a read error (the kill): the process's status says which
	io.Copy(io.Discard, stdout)
	werr := cmd.Wait()
	res.elapsed = time.Since(t0)
	if best > 0 {
		res.length = best
	}
	if err := ctx.Err(); err != nil {
		return res, err
	}
	if runCtx.Err() != nil {
		res.killed = true
		return res, nil
	}
	if werr != nil {
		return res, fmt.Errorf("peer LKH on %s: %v: %s", in.Name, werr, lastLine(stderr.String(), lastOut))
	}
	if last < 0 {
		return res, nil
	}
	if err := lkhCheckTour(dir, in, last); err != nil {
		return res, err
	}
	res.checked = true
	return res, nil
}

// lkhParams writes LKH-3's parameter file run.par into dir for a run on in with time limit d and seed seed.
func lkhParams(dir string, in *solver.Instance, d time.Duration, seed uint64) error {
	var par strings.Builder
	kv := func(k, v string) { fmt.Fprintf(&par, "%s = %s\n", k, v) }
	kv("PROBLEM_FILE", "problem.tsp")
	kv("TOUR_FILE", "best.tour")
	kv("RUNS", "1")
	// trials until the time limit (the default, n trials, ends early on small instances)
	kv("MAX_TRIALS", "1000000000")
	kv("TIME_LIMIT", strconv.FormatFloat(d.Seconds(), 'f', 3, 64))
	kv("SEED", strconv.FormatUint(seed%(1<<31), 10))
	kv("TRACE_LEVEL", "1")
	if in.Optimum > 0 {
		// stop at it, as a search that has nothing left to find
		kv("OPTIMUM", strconv.FormatInt(in.Optimum, 10))
	}
	for _, p := range lkhSettingFor(in.N).params {
		kv(p[0], p[1])
	}
	return os.WriteFile(filepath.Join(dir, "run.par"), []byte(par.String()), 0o644)
}

// lkhScan reads LKH-3's trace from stdout, recording the preprocessing time and the improvements within budget d into res, and returns the last improvement's cost (after the budget too), the best within the budget and the last non-blank line.
func lkhScan(stdout io.Reader, t0 time.Time, d time.Duration, res *lkhResult) (last, best int64, lastOut string) {
	last, best = -1, -1
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		t := time.Since(t0)
		line := sc.Text()
		if strings.TrimSpace(line) != "" {
			lastOut = line
		}
		ev, ok := parseLKHLine(line)
		if !ok {
			continue
		}
		switch ev.kind {
		case 'P':
			res.prep = ev.sec
		case '*', 'R':
			if last < 0 || ev.cost < last {
				last = ev.cost
			}
			if t <= d && (best < 0 || ev.cost < best) {
				best = ev.cost
				res.pts = append(res.pts, ttqPoint{t, ev.cost})
			}
		}
	}
	return last, best, lastOut
}

// lkhCheckTour reads LKH-3's best.tour from dir and checks that it is a tour of in measuring last here.
func lkhCheckTour(dir string, in *solver.Instance, last int64) error {
	tour, err := tsplib.ReadTour(filepath.Join(dir, "best.tour"), in.N)
	if err != nil {
		return fmt.Errorf("peer LKH on %s: its tour: %v", in.Name, err)
	}
	if err := solver.ValidateTour(tour, in.N); err != nil {
		return fmt.Errorf("peer LKH on %s: its tour: %v", in.Name, err)
	}
	if l := solver.TourLength(in, tour); l != last {
		return fmt.Errorf("peer LKH on %s: its tour measures %d here, it reported %d (the distance functions differ)", in.Name, l, last)
	}
	return nil
}

// lkhProblem puts the instance into dir as problem.tsp: a link to its file, else written out.
func lkhProblem(dir string, in *solver.Instance) error {
	dst := filepath.Join(dir, "problem.tsp")
	if in.Path != "" {
		if abs, err := filepath.Abs(in.Path); err == nil {
			if err := os.Symlink(abs, dst); err == nil {
				return nil
			}
		}
	}
	return atomicfile.Write(dst, func(w io.Writer) error { return tsplib.WriteInstance(w, in) })
}

// tailBuffer keeps the last 4 KiB written to it (a process's stderr, for its error message).
type tailBuffer struct {
	mu sync.Mutex
	b  []byte
}

func (t *tailBuffer) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.b = append(t.b, p...)
	if len(t.b) > 4096 {
		t.b = append(t.b[:0], t.b[len(t.b)-4096:]...)
	}
	return len(p), nil
}

func (t *tailBuffer) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return string(t.b)
}

// ttqRunLKH is the ttq suite's run of the peer: its curve, and a Result with its best length within the budget and its wall time.
func ttqRunLKH(ctx context.Context, r *repro, bin string, in *solver.Instance, d time.Duration, seed uint64) ([]ttqPoint, solver.Result, error) {
	res, err := runLKH(ctx, bin, in, d, lkhGrace(d), seed)
	if err != nil {
		return nil, solver.Result{}, err
	}
	var what []string
	if res.prep >= 0 {
		what = append(what, fmt.Sprintf("preprocessing %.2f s by its clock", res.prep))
	}
	switch {
	case res.killed:
		what = append(what, fmt.Sprintf("killed %v past its time limit, its tour not checked", lkhGrace(d)))
	case res.checked:
		what = append(what, "its tour file checked (valid, its reported length)")
	}
	r.logf("%s on %s, seed %d: %s", LKHLabel, in.Name, seed, strings.Join(what, "; "))
	return res.pts, solver.Result{Length: res.length, Elapsed: res.elapsed, Algorithm: "LKH-3"}, nil
}

// lkhNote is the ttq table's note on the peer.
func lkhNote() string {
	var s []string
	for i, x := range lkhSettings {
		switch {
		case i+1 < len(lkhSettings):
			s = append(s, fmt.Sprintf("below %s cities %s", fmtCities(lkhSettings[i+1].minN), x.about))
		default:
			s = append(s, fmt.Sprintf("from %s cities %s", fmtCities(x.minN), x.about))
		}
	}
	return LKHLabel + ": the LKH-3 binary given with --peer-lkh (built from Helsgaun's source), one process on the same host after or before the engines, never beside them: RUNS = 1, trials until TIME_LIMIT = the budget, SEED = the run's seed; " +
		strings.Join(s, "; ") + ". Its times are wall clock from its process's start (reading the file included), each improvement timed as its trace line arrives (LKH's own clock, which its TIME_LIMIT uses, is its user CPU time); improvements after the budget are left out, " +
		"and a process still running a grace period after it is killed; the tour it writes at its end is checked and measured here."
}

// fmtCities writes n with thousands separators (10,000).
func fmtCities(n int) string { return solver.GroupDigits(strconv.Itoa(n)) }
