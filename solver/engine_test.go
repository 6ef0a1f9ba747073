package solver

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver/problem"
)

// fakeEngine is a registry entry for the tests: it returns its start tour.
type fakeEngine struct {
	name, backend string
	avail         error
}

func (f fakeEngine) Name() string     { return f.name }
func (f fakeEngine) Backend() string  { return f.backend }
func (f fakeEngine) Describe() string { return "test engine" }
func (f fakeEngine) Available() error { return f.avail }
func (f fakeEngine) Solve(ctx context.Context, in *Instance, p Params, snaps chan Snapshot) (Result, error) {
	return Finish(in, f, p, Outcome{Tour: IdentityTour(in.N), Start: time.Now(), Device: "test"})
}

func TestResolveFallsBackAndSaysWhy(t *testing.T) {
	Register(fakeEngine{"zz-test", BackendCPU, nil})
	Register(fakeEngine{"zz-test", BackendGPU, errors.New("no device here")})
	Register(fakeEngine{"zz-gpuonly", BackendGPU, errors.New("no device here")})

	e, note, err := Resolve("zz-test", BackendAuto)
	if err != nil || e.Backend() != BackendCPU || !strings.Contains(note, "no device here") {
		t.Fatalf("auto: %v %q %v", e, note, err)
	}
	if _, _, err := Resolve("zz-test", BackendGPU); err == nil || !strings.Contains(err.Error(), "no device here") {
		t.Fatalf("gpu: want the reason, got %v", err)
	}
	if e, note, err := Resolve("zz-test", BackendCPU); err != nil || note != "" || e.Backend() != BackendCPU {
		t.Fatalf("cpu: %v %q %v", e, note, err)
	}
	if _, _, err := Resolve("zz-gpuonly", BackendAuto); !errors.Is(err, ErrUnknownEngine) {
		t.Fatalf("auto with no CPU engine: %v", err)
	}
	if _, _, err := Resolve("zz-test", "tpu"); err == nil {
		t.Fatal("unknown backend accepted")
	}
	found := false
	for _, a := range Algorithms() {
		found = found || a == "zz-test"
	}
	if !found {
		t.Fatal("Algorithms misses a registered engine")
	}
}

func TestFinishValidatesAndRecomputes(t *testing.T) {
	in := NewCoordInstance("sq", Euc2D, []float64{0, 3, 3, 0}, []float64{0, 0, 4, 4}, nil)
	e := fakeEngine{"zz-finish", BackendCPU, nil}
	r, err := Finish(in, e, Params{}, Outcome{Tour: []int{0, 1, 2, 3}, Moves: 10, Steps: 1, Start: time.Now(), Device: "test"})
	if err != nil || r.Length != 14 {
		t.Fatalf("square 3×4: length %d, err %v (want 14)", r.Length, err)
	}
	if _, err := Finish(in, e, Params{}, Outcome{Tour: []int{0, 1, 1, 3}, Start: time.Now()}); err == nil {
		t.Fatal("a repeated city was accepted")
	}
	if _, err := Finish(in, e, Params{}, Outcome{Tour: []int{0, 1, 2}, Start: time.Now()}); err == nil {
		t.Fatal("a short tour was accepted")
	}
}

func TestSinkKeepsLatestAndNeverBlocks(t *testing.T) {
	ch := Latest()
	s := NewSink(ch, time.Nanosecond, time.Now())
	for i := 1; i <= 1000; i++ { // nobody reads: must not block
		s.Send(Snapshot{Length: int64(i)})
	}
	got := <-ch
	if got.Length != 1000 {
		t.Fatalf("reader found snapshot %d, want the newest (1000)", got.Length)
	}
	if got.Elapsed <= 0 {
		t.Fatal("Elapsed not filled")
	}
	select {
	case extra := <-ch:
		t.Fatalf("stale snapshot %d left behind", extra.Length)
	default:
	}
	// Rate limit: right after a send, the next one is not due.
	slow := NewSink(ch, time.Hour, time.Now())
	if !slow.Due() {
		t.Fatal("first snapshot not due")
	}
	slow.Send(Snapshot{})
	if slow.Due() {
		t.Fatal("due again within the interval")
	}
	var nilSink *Sink
	nilSink.Send(Snapshot{}) // a nil sink is a no-op
	if NewSink(nil, 0, time.Now()).Due() {
		t.Fatal("a sink without a channel is due")
	}
}

func TestDistancesByMetric(t *testing.T) {
	x, y, z := []float64{0, 3}, []float64{0, 4.2}, []float64{0, 12}
	cases := []struct {
		m    Metric
		want int64
	}{
		{Euc2D, 5},  // sqrt(9+17.64)=5.16 -> 5
		{Ceil2D, 6}, // ceil(5.16)
		{Att, 2},    // sqrt(26.64/10)=1.63 -> nint 2 (not below r)
		{Man2D, 7},  // 7.2 -> 7
		{Max2D, 4},  // max(3, 4.2 -> 4)
		{Euc3D, 13}, // sqrt(9+17.64+144)=13.06
		{Man3D, 19}, // 19.2
		{Max3D, 12},
	}
	for _, c := range cases {
		in := NewCoordInstance("t", c.m, x, y, z)
		if got := in.Dist(0, 1); got != c.want || in.Dist(1, 0) != got {
			t.Errorf("%v: %d, want %d (symmetric)", c.m, got, c.want)
		}
	}
	if m, ok := problem.ParseMetric("CEIL_2D"); !ok || m != Ceil2D || m.String() != "CEIL_2D" {
		t.Fatal("ParseMetric/String round trip")
	}
	mat := NewMatrixInstance("m", 2, []int32{0, 7, 7, 0})
	if mat.Dist(0, 1) != 7 || mat.DistMatrix(0)[1] != 7 {
		t.Fatal("explicit matrix")
	}
	in := NewCoordInstance("t", Euc2D, x, y, nil)
	if m := in.DistMatrix(4); m == nil || m[1] != 5 || m[2] != 5 {
		t.Fatalf("DistMatrix: %v", m)
	}
	if in.DistMatrix(3) != nil {
		t.Fatal("DistMatrix ignored its size limit")
	}
}
