package session

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/report"
)

// runBounded runs the fake engine on in with the bound beside it and
// returns the outcome and the bounds OnBound received.
func runBounded(t *testing.T, in *solver.Instance) (Outcome, []bound.Result) {
	t.Helper()
	var pl Pipeline
	plan, _, err := pl.Plan(in, solver.Params{Algorithm: "fake", Backend: solver.BackendCPU, Seed: 1, TimeLimit: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var got []bound.Result
	out, err := plan.Run(context.Background(), Request{Bound: true, OnBound: func(r bound.Result) {
		mu.Lock()
		got = append(got, r)
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	return out, got
}

// TestBoundCacheKeepsTheBestBound: a run keeps the bound it proved in the
// cache under the instance's distances; the next run on the same
// distances starts from the best one kept and says so in its record,
// a lower bound never replaces a higher one, and a damaged cache file is
// ignored and replaced.
func TestBoundCacheKeepsTheBestBound(t *testing.T) {
	dir := t.TempDir()
	t.Setenv(CacheDirEnv, dir)
	in := scatter(150, 21)
	out, _ := runBounded(t, in)
	if out.Bound == nil || out.Report.BoundSource != report.BoundThisRun {
		t.Fatalf("first run: bound %v (%v), source %q", out.Bound, out.BoundErr, out.Report.BoundSource)
	}
	first := out.Bound.Bound
	if c, ok := CachedBound(scatter(150, 21)); !ok || c.Bound != first || !c.Cached {
		t.Fatalf("the same distances read %+v, %v from the cache, want %d", c, ok, first)
	}
	if _, ok := CachedBound(scatter(150, 22)); ok {
		t.Error("other distances found a cached bound")
	}
	if files, _ := filepath.Glob(filepath.Join(dir, "bounds", "*.json")); len(files) != 1 {
		t.Errorf("cache files %v, want one", files)
	}

	// a higher bound kept by an earlier run (here planted above the whole
	// ascent's, which the run's own ascent, stopped by its time or not,
	// never passes; still converging) is where the next run starts and
	// what it reports
	var whole bound.Ascents
	w, err := whole.StopAscent(context.Background(), nil, in, boundOptions(nil, 0))
	if err != nil {
		t.Fatal(err)
	}
	high := max(first, w.Bound) + 7
	StoreBound(in, bound.Result{Bound: high, Stopped: true})
	StoreBound(in, bound.Result{Bound: first - 1})
	out, got := runBounded(t, scatter(150, 21))
	if len(got) == 0 || got[0].Bound != high || !got[0].Cached {
		t.Errorf("OnBound got %+v first, want the cached %d", got, high)
	}
	for _, r := range got[1:] {
		if r.Bound <= high {
			t.Errorf("OnBound got %d after the cached %d", r.Bound, high)
		}
	}
	if out.Bound == nil || out.Bound.Bound != high || *out.Report.LowerBoundScaled != high {
		t.Fatalf("second run: bound %v, want the cached %d", out.Bound, high)
	}
	if out.Report.BoundSource != report.BoundCache || !out.Report.BoundConverging {
		t.Errorf("second run: source %q, converging %v; want cache, true", out.Report.BoundSource, out.Report.BoundConverging)
	}
	var js bytes.Buffer
	if err := out.Report.WriteJSON(&js); err != nil || !strings.Contains(js.String(), `"bound_source": "cache"`) || !strings.Contains(js.String(), `"bound_converging": true`) {
		t.Errorf("the JSON record does not say where the bound came from:\n%s", js.String())
	}
	if note := report.BoundNote(out.Report.BoundSource, out.Report.BoundConverging); !strings.Contains(note, "earlier run") || !strings.Contains(note, "still converging") {
		t.Errorf("the words say %q", note)
	}

	// a damaged file is no bound and no error; the run writes its own
	name := boundFile(in)
	if err := os.WriteFile(name, []byte(`{"n": 150, "bound_scaled": `), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, ok := CachedBound(in); ok {
		t.Fatal("a damaged cache file gave a bound")
	}
	out, _ = runBounded(t, in)
	if out.Bound == nil || out.Report.BoundSource != report.BoundThisRun {
		t.Fatalf("after a damaged cache file: bound %v (%v)", out.Bound, out.BoundErr)
	}
	if c, ok := CachedBound(in); !ok || c.Bound != out.Bound.Bound {
		t.Errorf("the damaged file was not replaced: %+v, %v", c, ok)
	}
	if tmp, _ := filepath.Glob(filepath.Join(dir, "bounds", ".*")); len(tmp) != 0 {
		t.Errorf("temporary files left: %v", tmp)
	}
}

// TestBoundCacheAfterTheRun: a bound computed after the run (tsp solve
// --bound D) is kept too, and a run without a bound of its own reports
// the cached one.
func TestBoundCacheAfterTheRun(t *testing.T) {
	t.Setenv(CacheDirEnv, t.TempDir())
	in := scatter(100, 5)
	var pl Pipeline
	plan, _, err := pl.Plan(in, solver.Params{Algorithm: "fake", Backend: solver.BackendCPU, Seed: 1, TimeLimit: 100 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	out, err := plan.Run(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	plan.BoundAfter(context.Background(), &out, time.Minute)
	if out.Bound == nil {
		t.Fatalf("no bound after the run (%v)", out.BoundErr)
	}
	c, ok := CachedBound(in)
	if !ok || c.Bound != out.Bound.Bound {
		t.Fatalf("cache %+v, %v; want %d", c, ok, out.Bound.Bound)
	}
	StoreBound(in, bound.Result{Bound: c.Bound + 3})
	out, err = plan.Run(context.Background(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	plan.BoundAfter(context.Background(), &out, time.Minute)
	if out.Bound == nil || out.Bound.Bound != c.Bound+3 || out.Report.BoundSource != report.BoundCache || out.Report.BoundConverging {
		t.Errorf("bound after the run %+v, source %q: want the cached %d, converged", out.Bound, out.Report.BoundSource, c.Bound+3)
	}
}

// TestBoundFileKeyOfTheDistances: an EXPLICIT instance's cache key is the
// SHA-256 of its header and its distances as little-endian words, however
// many blocks they fill, and changes with any distance.
func TestBoundFileKeyOfTheDistances(t *testing.T) {
	t.Setenv(CacheDirEnv, t.TempDir())
	n := 101 // 10,201 words: more than one 64-KiB block
	w := make([]int32, n*n)
	for i := range n {
		for j := range n {
			if i != j {
				w[i*n+j] = int32(1 + (i*j)%977 + i + j)
			}
		}
	}
	in := &solver.Instance{Name: "m", N: n, Metric: solver.Explicit, Matrix: w, FixedEdges: [][2]int{{3, 7}}}
	h := sha256.New()
	fmt.Fprintf(h, "tsplab bound v1\n%d %s %d\n", in.N, in.Metric, in.ScaleExp)
	for _, v := range append(append([]uint64{}, words(w)...), 3, 7) {
		var b [8]byte
		binary.LittleEndian.PutUint64(b[:], v)
		h.Write(b[:])
	}
	if got, want := filepath.Base(boundFile(in)), hex.EncodeToString(h.Sum(nil))+".json"; got != want {
		t.Fatalf("key %s, want %s", got, want)
	}
	before := boundFile(in)
	w[n*n-2]++
	if boundFile(in) == before {
		t.Error("the key did not change with the last distances")
	}
}

func words(w []int32) []uint64 {
	out := make([]uint64, len(w))
	for i, d := range w {
		out[i] = uint64(d)
	}
	return out
}
