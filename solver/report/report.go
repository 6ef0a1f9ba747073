package report

import (
	"encoding/json"
	"io"
	"math"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/buildinfo"
)

// Report is the record of one run, as `tsp solve --json` writes it and
// the app exports it. Length, Optimum and LowerBound are in the file's
// own units (Unit; metres for lat,lon point lists), what a script
// compares; the *Scaled fields are the instance's integers they come
// from (ten to the ScaleExp times as many). Optimum and LowerBound are
// null when unknown; GapPercent is the gap the CLI prints, above the
// optimum or else above the lower bound (GapAbove says which), null when
// there is neither. Tour holds 1-based node ids, as in TSPLIB files.
type Report struct {
	Instance  string        `json:"instance"`
	Dimension int           `json:"dimension"`
	Algorithm string        `json:"algorithm"`
	Backend   string        `json:"backend"`
	Device    string        `json:"device"`
	Seed      uint64        `json:"seed"`
	Params    solver.Params `json:"params"`
	Length    float64       `json:"length"`
	// Unit names the unit of Length, Optimum and LowerBound: "metres"
	// for lat,lon point lists, "file units" otherwise.
	Unit string `json:"unit"`
	// ScaleExp is the instance's ScaleExp: the *Scaled fields are in
	// units of 10^-ScaleExp of the file's own.
	ScaleExp     int      `json:"scale_exp"`
	LengthScaled int64    `json:"length_scaled"`
	Optimum      *float64 `json:"optimum"`
	// OptimumScaled is Optimum in the instance's units.
	OptimumScaled *int64   `json:"optimum_scaled"`
	GapPercent    *float64 `json:"gap_percent"`
	// GapAbove is what GapPercent is measured from: "optimum" or
	// "lower_bound" (then an upper limit of the gap above the optimum).
	GapAbove string `json:"gap_above,omitempty"`
	// OptimumEstimate is Instance.EstimateOptimum in the file's units
	// when the optimum is unknown and it applies (a large plane instance):
	// an estimate, no bound, so no gap is measured against it.
	OptimumEstimate *float64 `json:"optimum_estimate,omitempty"`
	// LowerBound is a proven lower bound of the optimum (Held–Karp, see
	// solver/bound) when one was computed, null otherwise.
	LowerBound *float64 `json:"lower_bound"`
	// LowerBoundScaled is LowerBound in the instance's units.
	LowerBoundScaled *int64            `json:"lower_bound_scaled"`
	ElapsedSeconds   float64           `json:"elapsed_seconds"`
	MovesEvaluated   int64             `json:"moves_evaluated"`
	MovesPerSecond   float64           `json:"moves_per_second"`
	Stopped          bool              `json:"stopped"`
	StopReason       solver.StopReason `json:"stop_reason,omitempty"`
	// Schedule is the annealing schedule that ran, its temperatures in
	// the file's units, omitted for engines without one.
	Schedule *solver.ScheduleRun `json:"schedule,omitempty"`
	Note     string              `json:"note,omitempty"`
	// Version and Commit name the build that ran (solver/buildinfo).
	Version string `json:"version"`
	Commit  string `json:"commit,omitempty"`
	Tour    []int  `json:"tour"`
}

// New builds the Report of result r on instance in. The optimum is
// taken from in (after any override the caller applied to in.Optimum).
func New(in *solver.Instance, r solver.Result) Report {
	rep := Report{
		Instance:       in.Name,
		Dimension:      in.N,
		Algorithm:      r.Algorithm,
		Backend:        r.Backend,
		Device:         r.Device,
		Seed:           r.Params.Seed,
		Params:         r.Params,
		Length:         in.LengthValue(r.Length),
		Unit:           UnitName(in),
		ScaleExp:       in.ScaleExp,
		LengthScaled:   r.Length,
		ElapsedSeconds: r.Elapsed.Seconds(),
		MovesEvaluated: r.Moves,
		MovesPerSecond: r.MovesPerSecond(),
		Stopped:        r.Stopped,
		StopReason:     r.StopReason,
		Schedule:       r.Schedule.InFileUnits(in),
		Note:           r.Note,
		Version:        buildinfo.Version(),
		Commit:         buildinfo.Commit(),
		Tour:           make([]int, len(r.Tour)),
	}
	for i, c := range r.Tour {
		rep.Tour[i] = c + 1
	}
	if est, ok := in.EstimateOptimum(); ok && !in.HasOptimum() {
		v := est / math.Pow10(in.ScaleExp)
		rep.OptimumEstimate = &v
	}
	if in.HasOptimum() {
		opt, v := in.Optimum, in.LengthValue(in.Optimum)
		rep.OptimumScaled, rep.Optimum = &opt, &v
		if g, ok := in.Gap(r.Length); ok && !math.IsNaN(g) && !math.IsInf(g, 0) {
			rep.GapPercent, rep.GapAbove = &g, "optimum"
		}
	}
	return rep
}

// SetLowerBound records lb, a proven lower bound in in's units, and the
// gap above it when the optimum gives none (replacing an earlier bound's).
func (rep *Report) SetLowerBound(in *solver.Instance, lb int64) {
	v := in.LengthValue(lb)
	rep.LowerBoundScaled, rep.LowerBound = &lb, &v
	if rep.GapAbove != "optimum" && lb > 0 {
		g := 100 * float64(rep.LengthScaled-lb) / float64(lb)
		rep.GapPercent, rep.GapAbove = &g, "lower_bound"
	}
}

// UnitName names the unit of a report's lengths on in: "metres" for lat,lon
// point lists, "file units" otherwise.
func UnitName(in *solver.Instance) string {
	if in.LengthUnit() == "m" {
		return "metres"
	}
	return "file units"
}

// WriteJSON writes the report as indented JSON followed by a newline.
func (rep Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}
