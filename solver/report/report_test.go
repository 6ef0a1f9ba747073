package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

func TestReportJSON(t *testing.T) {
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 10, 10, 0}, []float64{0, 0, 10, 10}, nil)
	r := solver.Result{Tour: []int{0, 2, 1, 3}, Length: solver.TourLength(in, []int{0, 2, 1, 3}), Moves: 500,
		Elapsed: 2 * time.Second, Algorithm: "x", Backend: solver.BackendCPU, Device: "cpu", Params: solver.Params{Seed: 9}}
	var buf bytes.Buffer
	if err := New(in, r).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"instance", "dimension", "algorithm", "backend", "device", "seed", "params", "length", "optimum", "gap_percent", "elapsed_seconds", "moves_evaluated", "moves_per_second", "tour"} {
		if _, ok := m[k]; !ok {
			t.Errorf("key %q missing in %s", k, buf.String())
		}
	}
	if m["optimum"] != nil || m["gap_percent"] != nil {
		t.Errorf("unknown optimum: got optimum %v gap %v, want null", m["optimum"], m["gap_percent"])
	}
	if m["moves_per_second"].(float64) != 250 || m["seed"].(float64) != 9 {
		t.Errorf("moves_per_second %v seed %v", m["moves_per_second"], m["seed"])
	}
	tour := m["tour"].([]any)
	if len(tour) != 4 || tour[0].(float64) != 1 || tour[1].(float64) != 3 {
		t.Errorf("tour %v, want 1-based [1 3 2 4]", tour)
	}
	if !bytes.Contains(buf.Bytes(), []byte("\n  \"tour\": [1,3,2,4]\n}\n")) {
		t.Errorf("the tour's ids not on the record's last line: %s", buf.String())
	}
	// the same record as encoding/json's, field for field
	var mine, ref Report
	refJSON, err := json.Marshal(New(in, r))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(buf.Bytes(), &mine); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(refJSON, &ref); err != nil {
		t.Fatal(err)
	}
	if g, w := fmt.Sprintf("%+v", mine), fmt.Sprintf("%+v", ref); g != w {
		t.Errorf("WriteJSON's record\n%s\nencoding/json's\n%s", g, w)
	}
	// a report without a tour keeps its null
	buf.Reset()
	if err := (Report{}).WriteJSON(&buf); err != nil || !bytes.HasSuffix(buf.Bytes(), []byte("\"tour\": null\n}\n")) {
		t.Errorf("no tour: %v %s", err, buf.String())
	}

	in.Optimum = 40
	rep := New(in, r)
	if rep.Optimum == nil || *rep.Optimum != 40 || rep.GapPercent == nil {
		t.Fatalf("known optimum: %+v", rep)
	}
	want := 100 * float64(r.Length-40) / 40
	if *rep.GapPercent != want {
		t.Errorf("gap %v, want %v", *rep.GapPercent, want)
	}
}

// The schedule that ran goes into the report; engines without one leave
// the key out.
func TestReportSchedule(t *testing.T) {
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 10, 10, 0}, []float64{0, 0, 10, 10}, nil)
	r := solver.Result{Tour: []int{0, 1, 2, 3}, Length: 40}
	var buf bytes.Buffer
	if err := New(in, r).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte(`"schedule"`)) {
		t.Fatalf("no schedule: key present in %s", buf.String())
	}
	r.Schedule = &solver.ScheduleRun{Fitted: true, T0: 100, TEnd: 1, LamAlpha: 0.99, Alpha0: 0.9, Alpha: 0.91, Steps: 120, TLast: 1.01, Sweeps: 10}
	buf.Reset()
	if err := New(in, r).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var m struct {
		Schedule map[string]any `json:"schedule"`
	}
	if err := json.Unmarshal(buf.Bytes(), &m); err != nil {
		t.Fatal(err)
	}
	if m.Schedule["fitted"] != true || m.Schedule["alpha_first"] != 0.9 || m.Schedule["steps"] != 120.0 || m.Schedule["sweeps"] != 10.0 {
		t.Fatalf("schedule %v", m.Schedule)
	}
}

func TestReportScale(t *testing.T) {
	in := &solver.Instance{Name: "p", N: 2, ScaleExp: 6, Metric: solver.GreatCircle}
	rep := New(in, solver.Result{Length: 2500000, Tour: []int{0, 1}})
	if rep.ScaleExp != 6 || rep.Length != 2.5 || rep.LengthScaled != 2500000 || rep.Unit != "metres" {
		t.Fatalf("scale %d length %v (%d scaled) unit %q", rep.ScaleExp, rep.Length, rep.LengthScaled, rep.Unit)
	}
	rep.SetLowerBound(in, 2000000)
	if rep.LowerBound == nil || *rep.LowerBound != 2 || *rep.LowerBoundScaled != 2000000 || rep.GapPercent == nil || *rep.GapPercent != 25 || rep.GapAbove != "lower_bound" {
		t.Fatalf("bound %v (%v scaled), gap %v above %q", rep.LowerBound, rep.LowerBoundScaled, rep.GapPercent, rep.GapAbove)
	}
	if rep := New(&solver.Instance{N: 2}, solver.Result{Length: 7, Tour: []int{0, 1}}); rep.Length != 7 || rep.LengthScaled != 7 || rep.Unit != "file units" {
		t.Fatalf("a TSPLIB report: %+v", rep)
	}
}

// A report of a large plane instance without a known optimum carries
// the instance's estimate; one with a known optimum does not.
func TestReportEstimate(t *testing.T) {
	n := solver.EstimateMinN
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = float64(i%100)*40, float64(i/100)*10
	}
	in := solver.NewCoordInstance("grid", solver.Euc2D, x, y, nil)
	est, ok := in.EstimateOptimum()
	if !ok {
		t.Fatal("no estimate")
	}
	rep := New(in, solver.Result{Length: 100, Tour: solver.IdentityTour(n)})
	if rep.OptimumEstimate == nil || *rep.OptimumEstimate != est {
		t.Errorf("report's estimate %v, want %v", rep.OptimumEstimate, est)
	}
	in.Optimum, in.OptimumSource = 1, "test"
	if rep := New(in, solver.Result{Length: 100, Tour: solver.IdentityTour(n)}); rep.OptimumEstimate != nil {
		t.Error("an estimate beside a known optimum")
	}
}
