package solver

import (
	"encoding/json"
	"io"
	"math"
)

// Report is the record of one run, as `tsp solve --json` writes it and
// the app exports it. Optimum and GapPercent are null when the optimum is
// unknown; Tour holds 1-based node ids, as in TSPLIB files.
type Report struct {
	Instance  string `json:"instance"`
	Dimension int    `json:"dimension"`
	Algorithm string `json:"algorithm"`
	Backend   string `json:"backend"`
	Device    string `json:"device"`
	Seed      uint64 `json:"seed"`
	Params    Params `json:"params"`
	Length    int64  `json:"length"`
	// ScaleExp is the instance's ScaleExp: Length, Optimum and LowerBound
	// are in units of 10^-ScaleExp of the file's own. Omitted (0) for
	// TSPLIB files.
	ScaleExp int `json:"scale_exp,omitempty"`
	// LengthValue is Length in the file's own units (metres for
	// GREAT_CIRCLE), present when ScaleExp is not 0.
	LengthValue *float64 `json:"length_value,omitempty"`
	Optimum     *int64   `json:"optimum"`
	GapPercent  *float64 `json:"gap_percent"`
	// LowerBound is a proven lower bound of the optimum (Held–Karp, see
	// solver/bound) when one was computed, null otherwise.
	LowerBound     *int64     `json:"lower_bound"`
	ElapsedSeconds float64    `json:"elapsed_seconds"`
	MovesEvaluated int64      `json:"moves_evaluated"`
	MovesPerSecond float64    `json:"moves_per_second"`
	Stopped        bool       `json:"stopped"`
	StopReason     StopReason `json:"stop_reason,omitempty"`
	// Schedule is the annealing schedule that ran, its temperatures in
	// the file's units, omitted for engines without one.
	Schedule *ScheduleRun `json:"schedule,omitempty"`
	Note     string       `json:"note,omitempty"`
	Tour     []int        `json:"tour"`
}

// NewReport builds the Report of result r on instance in. The optimum is
// taken from in (after any override the caller applied to in.Optimum).
func NewReport(in *Instance, r Result) Report {
	rep := Report{
		Instance:       in.Name,
		Dimension:      in.N,
		Algorithm:      r.Algorithm,
		Backend:        r.Backend,
		Device:         r.Device,
		Seed:           r.Params.Seed,
		Params:         r.Params,
		Length:         r.Length,
		ElapsedSeconds: r.Elapsed.Seconds(),
		MovesEvaluated: r.Moves,
		MovesPerSecond: r.MovesPerSecond(),
		Stopped:        r.Stopped,
		StopReason:     r.StopReason,
		Schedule:       r.Schedule.InFileUnits(in),
		Note:           r.Note,
		Tour:           make([]int, len(r.Tour)),
	}
	for i, c := range r.Tour {
		rep.Tour[i] = c + 1
	}
	if in.ScaleExp != 0 {
		v := in.LengthValue(r.Length)
		rep.ScaleExp, rep.LengthValue = in.ScaleExp, &v
	}
	if in.HasOptimum() {
		opt := in.Optimum
		rep.Optimum = &opt
		if g, ok := in.Gap(r.Length); ok && !math.IsNaN(g) && !math.IsInf(g, 0) {
			rep.GapPercent = &g
		}
	}
	return rep
}

// WriteJSON writes the report as indented JSON followed by a newline.
func (rep Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
