package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/buildinfo"
)

// Report is the record of one run (`tsp solve --json`, the app's export). Length, Optimum and LowerBound are in the file's
// units (Unit), the *Scaled fields the instance's integers; null when unknown. GapPercent is above the optimum, else the
// lower bound (GapAbove), null with neither. Tour holds 1-based ids.
type Report struct {
	Subject
	Algorithm string        `json:"algorithm"`
	Backend   string        `json:"backend"`
	Device    string        `json:"device"`
	Seed      uint64        `json:"seed"`
	Params    solver.Params `json:"params"`
	// Settings are what the engine chose where its options left it the choice.
	Settings solver.Settings `json:"settings,omitzero"`
	Length   float64         `json:"length"`
	// LengthScaled is Length in the instance's units.
	LengthScaled int64    `json:"length_scaled"`
	GapPercent   *float64 `json:"gap_percent"`
	// GapAbove is what GapPercent is from: "optimum" or "lower_bound".
	GapAbove string `json:"gap_above,omitempty"`
	// BoundSource says where LowerBound came from (empty without one).
	BoundSource BoundSource `json:"bound_source,omitempty"`
	// BoundConverging: LowerBound's ascent stopped before converging.
	BoundConverging bool `json:"bound_converging,omitempty"`
	// OptimumEstimate is Instance.EstimateOptimum in file units when the optimum is unknown: no bound, no gap.
	OptimumEstimate *float64 `json:"optimum_estimate,omitempty"`
	ElapsedSeconds  float64  `json:"elapsed_seconds"`
	// TimeLimitSeconds is the limit asked (the engine's default where none; 0: none) and TimeGrantedSeconds the time the
	// engine was given (0: none), less where the front end spent or kept some.
	TimeLimitSeconds   float64           `json:"time_limit_seconds"`
	TimeGrantedSeconds float64           `json:"time_granted_seconds"`
	MovesEvaluated     int64             `json:"moves_evaluated"`
	MovesPerSecond     float64           `json:"moves_per_second"`
	Stopped            bool              `json:"stopped"`
	StopReason         solver.StopReason `json:"stop_reason,omitempty"`
	// Schedule is the annealing schedule that ran, in file units (omitted without one).
	Schedule *solver.ScheduleRun `json:"schedule,omitempty"`
	// Account is what the search did, lengths in the file's units.
	Account solver.Account `json:"account"`
	// Version and Commit name the build that ran (solver/buildinfo).
	Version string `json:"version"`
	Commit  string `json:"commit,omitempty"`
	Tour    []int  `json:"tour"`
}

// Subject is what every JSON record says of its instance: name, Unit ("metres" for lat,lon, else "file units"),
// ScaleExp of the *Scaled fields, optimum and proven lower bound (null when unknown).
type Subject struct {
	Instance  string   `json:"instance"`
	Dimension int      `json:"dimension"`
	Unit      string   `json:"unit"`
	ScaleExp  int      `json:"scale_exp"`
	Optimum   *float64 `json:"optimum"`
	// OptimumScaled is Optimum in the instance's units.
	OptimumScaled *int64 `json:"optimum_scaled"`
	// LowerBound is a proven Held–Karp lower bound of the optimum when one was computed.
	LowerBound *float64 `json:"lower_bound"`
	// LowerBoundScaled is LowerBound in the instance's units.
	LowerBoundScaled *int64 `json:"lower_bound_scaled"`
}

// NewSubject is the Subject of in, with its optimum when known.
func NewSubject(in *solver.Instance) Subject {
	s := Subject{Instance: in.Name, Dimension: in.N, Unit: UnitName(in), ScaleExp: in.ScaleExp}
	if in.HasOptimum() {
		opt, v := in.Optimum, in.LengthValue(in.Optimum)
		s.OptimumScaled, s.Optimum = &opt, &v
	}
	return s
}

// BoundReport is the record of one lower bound (`tsp bound --json`): the Subject, the bound and the ascent's figures.
type BoundReport struct {
	Subject
	// Estimate is the ascent's best candidate-graph bound, in file units.
	Estimate float64 `json:"ascent_estimate"`
	// Optimal: the final 1-tree is a tour, the bound the optimum.
	Optimal bool `json:"optimal"`
	// BelowOptimum is the bound's shortfall below the known optimum, % (null: none).
	BelowOptimum      *float64 `json:"below_optimum_percent"`
	Backend           string   `json:"backend"`
	Iterations        int      `json:"iterations"`
	ElapsedSeconds    float64  `json:"elapsed_seconds"`
	EvaluationSeconds float64  `json:"evaluation_seconds"`
	Stopped           bool     `json:"stopped"`
}

// NewBound is the BoundReport of lb, a proven lower bound of in, with the ascent's figures.
func NewBound(in *solver.Instance, lb int64, est float64) BoundReport {
	rep := BoundReport{Subject: NewSubject(in), Estimate: est / math.Pow10(in.ScaleExp)}
	v := in.LengthValue(lb)
	rep.LowerBoundScaled, rep.LowerBound = &lb, &v
	if in.HasOptimum() && in.Optimum > 0 {
		below := 100 * float64(in.Optimum-lb) / float64(in.Optimum)
		rep.BelowOptimum = &below
	}
	return rep
}

// New builds result r's Report on in, the optimum taken from in.
func New(in *solver.Instance, r solver.Result) Report {
	rep := Report{
		Subject:            NewSubject(in),
		Algorithm:          r.Algorithm,
		Backend:            r.Backend,
		Device:             r.Device,
		Seed:               r.Params.Seed,
		Params:             r.Params,
		Settings:           r.Settings,
		Length:             in.LengthValue(r.Length),
		LengthScaled:       r.Length,
		ElapsedSeconds:     r.Elapsed.Seconds(),
		TimeLimitSeconds:   r.Limit.Seconds(),
		TimeGrantedSeconds: r.Granted.Seconds(),
		MovesEvaluated:     r.Moves,
		MovesPerSecond:     r.MovesPerSecond(),
		Stopped:            r.Stopped,
		StopReason:         r.StopReason,
		Schedule:           r.Schedule.InFileUnits(in),
		Account:            r.Account,
		Version:            buildinfo.Version(),
		Commit:             buildinfo.Commit(),
		Tour:               make([]int, len(r.Tour)),
	}
	for i, c := range r.Tour {
		rep.Tour[i] = c + 1
	}
	if est, ok := in.EstimateOptimum(); ok && !in.HasOptimum() {
		v := est / math.Pow10(in.ScaleExp)
		rep.OptimumEstimate = &v
	}
	if g, above := GapOf(in, r.Length, 0); above != "" {
		rep.GapPercent, rep.GapAbove = &g, above
	}
	return rep
}

// GapOf is the record's gap of a tour of length on in in percent, and above what: "optimum", "lower_bound" (lb > 0), or "".
func GapOf(in *solver.Instance, length, lb int64) (g float64, above string) {
	if in.HasOptimum() {
		if g, ok := in.Gap(length); ok && !math.IsNaN(g) && !math.IsInf(g, 0) {
			return g, "optimum"
		}
	}
	if lb > 0 {
		return 100 * float64(length-lb) / float64(lb), "lower_bound"
	}
	return 0, ""
}

// SetLowerBound records lb, proven in in's units, and the gap above it without an optimum.
func (rep *Report) SetLowerBound(in *solver.Instance, lb int64) {
	v := in.LengthValue(lb)
	rep.LowerBoundScaled, rep.LowerBound = &lb, &v
	if rep.GapAbove != "optimum" && lb > 0 {
		g := 100 * float64(rep.LengthScaled-lb) / float64(lb)
		rep.GapPercent, rep.GapAbove = &g, "lower_bound"
	}
}

// BoundSource says where a run's lower bound came from.
type BoundSource string

const (
	// BoundThisRun is a bound proven beside or after the run.
	BoundThisRun BoundSource = "this_run"
	// BoundCache is a bound an earlier run proved on the same distances (solver/session).
	BoundCache BoundSource = "cache"
)

// BoundNote says where a lower bound came from and whether it still converges ("" for this run's converged one).
func BoundNote(src BoundSource, converging bool) string {
	var parts []string
	if src == BoundCache {
		parts = append(parts, "proven by an earlier run")
	}
	if converging {
		parts = append(parts, "still converging")
	}
	return strings.Join(parts, ", ")
}

// UnitName names a report's length unit on in: "metres" or "file units".
func UnitName(in *solver.Instance) string {
	if in.LengthUnit() == "m" {
		return "metres"
	}
	return "file units"
}

// WriteJSON writes the report as indented JSON followed by a newline, the tour's ids on one line: indented one a line
// they made ten million cities' report 128 MB, a second to write.
func (rep Report) WriteJSON(w io.Writer) error {
	tour := rep.Tour
	rep.Tour = nil
	head, err := json.MarshalIndent(rep, "", "  ")
	if err != nil {
		return err
	}
	// the tour is the last field: head ends with its null, which the ids replace
	const tail = "null\n}"
	if !bytes.HasSuffix(head, []byte(`"tour": `+tail)) {
		return errors.New("report: the tour is not the JSON record's last field")
	}
	bw := bufio.NewWriterSize(w, 1<<16)
	bw.Write(head[:len(head)-len(tail)])
	if tour == nil {
		bw.WriteString("null")
	} else {
		buf := make([]byte, 0, 24)
		bw.WriteByte('[')
		for i, c := range tour {
			buf = buf[:0]
			if i > 0 {
				buf = append(buf, ',')
			}
			bw.Write(strconv.AppendInt(buf, int64(c), 10))
		}
		bw.WriteByte(']')
	}
	bw.WriteString("\n}\n")
	return bw.Flush()
}
