package solver

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

func TestReportJSON(t *testing.T) {
	in := NewCoordInstance("sq", Euc2D, []float64{0, 10, 10, 0}, []float64{0, 0, 10, 10}, nil)
	r := Result{Tour: []int{0, 2, 1, 3}, Length: TourLength(in, []int{0, 2, 1, 3}), Moves: 500,
		Elapsed: 2 * time.Second, Algorithm: "x", Backend: BackendCPU, Device: "cpu", Params: Params{Seed: 9}}
	var buf bytes.Buffer
	if err := NewReport(in, r).WriteJSON(&buf); err != nil {
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

	in.Optimum = 40
	rep := NewReport(in, r)
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
	in := NewCoordInstance("sq", Euc2D, []float64{0, 10, 10, 0}, []float64{0, 0, 10, 10}, nil)
	r := Result{Tour: []int{0, 1, 2, 3}, Length: 40}
	var buf bytes.Buffer
	if err := NewReport(in, r).WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(buf.Bytes(), []byte(`"schedule"`)) {
		t.Fatalf("no schedule: key present in %s", buf.String())
	}
	r.Schedule = &ScheduleRun{Fitted: true, T0: 100, TEnd: 1, LamAlpha: 0.99, Alpha0: 0.9, Alpha: 0.91, Steps: 120, TLast: 1.01, Sweeps: 10}
	buf.Reset()
	if err := NewReport(in, r).WriteJSON(&buf); err != nil {
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
