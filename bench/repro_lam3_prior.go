package bench

import (
	"encoding/csv"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// lamT3Prior is an instance's row of an earlier Table 3 result (--prior):
// its threshold and its CPU SSPM and GPU PSPM columns, kept as they were,
// so that a later invocation runs only CPU PSSM's trials and the
// convergence runs, with the same caps and times.
type lamT3Prior struct {
	thr                  int64
	thrCell, sspmRuns    string
	tcSSPM, tcPSPM       string // the TC cells as written
	speedup, at          string
	sspmV, pspmV         float64 // their values (10^-2 /s)
	sspmBound, pspmBound bool    // "≤": an upper bound
	sspmMean, convAt     time.Duration
	atBound              bool // "≥": some GPU trial did not reach it
}

// lamT3PriorColumns are the columns a prior row needs, by header name.
var lamT3PriorColumns = []string{"instance", "threshold (SSPM best)", "SSPM runs, mean time", "TC CPU SSPM", "TC GPU PSPM", "GPU speedup", "GPU mean time to threshold s"}

// readLamT3Prior reads the rows of an earlier lam-table3.csv whose
// threshold, CPU SSPM TC and GPU PSPM mean time were measured; other rows
// (the averages, unmeasured cells) are left out. Errors name the file,
// the line and the cell.
func readLamT3Prior(path string) (map[string]*lamT3Prior, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("--prior: %w", err)
	}
	defer f.Close()
	cr := csv.NewReader(f)
	cr.FieldsPerRecord = -1
	recs, err := cr.ReadAll()
	if err != nil {
		return nil, fmt.Errorf("--prior %s: %w", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("--prior %s: empty file", path)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		if _, dup := col[h]; !dup {
			col[h] = i
		}
	}
	for _, c := range lamT3PriorColumns {
		if _, ok := col[c]; !ok {
			return nil, fmt.Errorf("--prior %s: line 1: no column %q (want a lam-table3.csv)", path, c)
		}
	}
	out := map[string]*lamT3Prior{}
	for li, rec := range recs[1:] {
		cell := func(name string) string {
			if i := col[name]; i < len(rec) {
				return strings.TrimSpace(rec[i])
			}
			return ""
		}
		name := cell("instance")
		thr, err := strconv.ParseInt(cell("threshold (SSPM best)"), 10, 64)
		if err != nil {
			continue // the average rows, or a row without a threshold
		}
		p := &lamT3Prior{thr: thr, thrCell: cell("threshold (SSPM best)"), sspmRuns: cell("SSPM runs, mean time"),
			tcSSPM: cell("TC CPU SSPM"), tcPSPM: cell("TC GPU PSPM"), speedup: cell("GPU speedup"), at: cell("GPU mean time to threshold s")}
		var ok bool
		if p.sspmV, p.sspmBound, ok = lamBoundValue(p.tcSSPM, "≤"); !ok || p.sspmV <= 0 {
			return nil, fmt.Errorf("--prior %s: line %d (%s): TC CPU SSPM %q is not a measured TC", path, li+2, name, p.tcSSPM)
		}
		if p.pspmV, p.pspmBound, ok = lamBoundValue(p.tcPSPM, "≤"); !ok || p.pspmV <= 0 {
			return nil, fmt.Errorf("--prior %s: line %d (%s): TC GPU PSPM %q is not a measured TC", path, li+2, name, p.tcPSPM)
		}
		at, atBound, ok := lamBoundValue(p.at, "≥")
		if !ok || at <= 0 {
			return nil, fmt.Errorf("--prior %s: line %d (%s): GPU mean time to threshold %q is not a time", path, li+2, name, p.at)
		}
		p.atBound = atBound
		p.convAt = time.Duration(at * float64(time.Second))
		// TC = 100 / mean time in seconds, so the mean comes back from the
		// printed TC (to its rounding, under 0.5 % here).
		p.sspmMean = time.Duration(100 / p.sspmV * float64(time.Second))
		out[name] = p
	}
	if len(out) == 0 {
		return nil, errors.New("--prior " + path + ": no row with a threshold")
	}
	return out, nil
}

// lamBoundValue reads a cell "v", "mark v" or "mark v (...)": the value and
// whether it carries the mark.
func lamBoundValue(s, mark string) (float64, bool, bool) {
	s = strings.TrimSpace(s)
	bound := strings.HasPrefix(s, mark)
	s = strings.TrimSpace(strings.TrimPrefix(s, mark))
	if i := strings.IndexAny(s, " ["); i >= 0 {
		s = s[:i]
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return 0, false, false
	}
	return v, bound, true
}

// attachPrior gives each instance its row of --prior, when given; an
// instance without one runs whole.
func (s *lamSuite) attachPrior(ins []lamT3In) error {
	if s.opt.Prior == "" {
		return nil
	}
	rows, err := readLamT3Prior(s.opt.Prior)
	if err != nil {
		return err
	}
	for i := range ins {
		if p, ok := rows[ins[i].name]; ok {
			ins[i].prior = p
			s.priorNames = append(s.priorNames, ins[i].name)
		} else {
			s.logf("%s: no row in --prior %s: run whole", ins[i].name, s.opt.Prior)
		}
	}
	return nil
}

// priorNote is Table 3's note on the rows whose columns came from --prior
// ("" when none did).
func (s *lamSuite) priorNote() string {
	if len(s.priorNames) == 0 {
		return ""
	}
	return fmt.Sprintf("Kept from --prior %s, not run here: the threshold, \"SSPM runs, mean time\", TC CPU SSPM, TC GPU PSPM, the GPU speedup and the GPU mean time to the threshold of %s. On those rows CPU PSSM's trials are capped at %gx CPU SSPM's mean time to the threshold read back from its printed TC (100 / TC s, to the TC's rounding), and the convergence runs last the printed GPU mean time.",
		s.opt.Prior, strings.Join(s.priorNames, ", "), s.pssmFactor())
}
