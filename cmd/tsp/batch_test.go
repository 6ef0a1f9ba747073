package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// circleLines writes a file of k instance lines, each n points on a
// circle (its own radius) in a shuffled order, followed by "output" and
// the circle's order, which is the optimal tour; it returns the path.
func circleLines(t *testing.T, dir string, k, n int) string {
	t.Helper()
	var b strings.Builder
	for i := range k {
		r := 1 + float64(i)
		order := make([]int, n)
		for j := range order {
			order[j] = (j*7 + i) % n // a permutation: 7 and n are coprime in these tests
		}
		pos := make([]int, n) // the line's index of circle point j
		for idx, j := range order {
			pos[j] = idx
			a := 2 * math.Pi * float64(j) / float64(n)
			fmt.Fprintf(&b, "%.9f %.9f ", r*math.Cos(a), r*math.Sin(a))
		}
		b.WriteString("output")
		for j := range n {
			fmt.Fprintf(&b, " %d", pos[j]+1)
		}
		fmt.Fprintf(&b, " %d\n", pos[0]+1)
	}
	return writeTestFile(t, dir, "circles.txt", b.String())
}

// readResults reads a results file's lines.
func readResults(t *testing.T, path string) []batchLine {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []batchLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l batchLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("%s: %v: %q", path, err, sc.Text())
		}
		out = append(out, l)
	}
	return out
}

func keys(ls []batchLine) []string {
	var k []string
	for _, l := range ls {
		k = append(k, l.Key)
	}
	slices.Sort(k)
	return k
}

func TestBatchLinesSolvedAndResumed(t *testing.T) {
	dir := t.TempDir()
	in := circleLines(t, dir, 6, 12)
	res := filepath.Join(dir, "r.jsonl")
	code, out, stderr := tsp(t, "batch", in, "--time-each", "200ms", "--out", res, "--backend", "cpu", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if !strings.Contains(out, "batch: 6 solved") {
		t.Errorf("summary %q", out)
	}
	ls := readResults(t, res)
	if len(ls) != 6 {
		t.Fatalf("%d lines, want 6", len(ls))
	}
	for _, l := range ls {
		if l.N != 12 || l.Reference == nil || l.RefGapPercent == nil || math.Abs(*l.RefGapPercent) > 1e-6 {
			t.Errorf("%s: n %d, reference %v gap %v: want the circle's optimum", l.Key, l.N, l.Reference, l.RefGapPercent)
		}
		line, _ := strconv.Atoi(strings.TrimPrefix(l.Key, in+":"))
		want := 2 * (1 + float64(line-1)) * 12 * math.Sin(math.Pi/12)
		if got, _ := l.Length.Float64(); math.Abs(got-want) > 1e-5*want {
			t.Errorf("%s: length %v in the file's units, want %.6f", l.Key, l.Length, want)
		}
	}

	// a rerun skips every instance
	code, out, stderr = tsp(t, "batch", in, "--time-each", "200ms", "--out", res, "--backend", "cpu", "--quiet")
	if code != 0 || !strings.Contains(out, "batch: 0 solved, 6 skipped") {
		t.Fatalf("rerun: exit %d, %q %s", code, out, stderr)
	}

	// an interrupted write: three whole lines and a part of the fourth
	data, _ := os.ReadFile(res)
	lines := strings.SplitAfter(string(data), "\n")
	cut := strings.Join(lines[:3], "") + lines[3][:len(lines[3])/2]
	if err := os.WriteFile(res, []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = tsp(t, "batch", in, "--time-each", "200ms", "--out", res, "--backend", "cpu", "--quiet")
	if code != 0 || !strings.Contains(out, "batch: 3 solved, 3 skipped") {
		t.Fatalf("resume: exit %d, %q %s", code, out, stderr)
	}
	if got := keys(readResults(t, res)); !slices.Equal(got, keys(ls)) {
		t.Fatalf("after resuming: keys %v, want %v", got, keys(ls))
	}
}

func TestBatchShards(t *testing.T) {
	dir := t.TempDir()
	in := circleLines(t, dir, 7, 8)
	var all []string
	for i := range 3 {
		res := filepath.Join(dir, fmt.Sprintf("s%d.jsonl", i))
		code, _, stderr := tsp(t, "batch", in, "--time-each", "50ms", "--out", res, "--backend", "cpu", "--quiet", "--shard", fmt.Sprintf("%d/3", i))
		if code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, code, stderr)
		}
		k := keys(readResults(t, res))
		if want := (7 - i + 2) / 3; len(k) != want {
			t.Errorf("shard %d: %d instances, want %d", i, len(k), want)
		}
		all = append(all, k...)
	}
	slices.Sort(all)
	if len(all) != 7 || len(slices.Compact(slices.Clone(all))) != 7 {
		t.Fatalf("shards' keys %v: want each of the 7 lines once", all)
	}

	// the index from the environment
	old := getenv
	defer func() { getenv = old }()
	getenv = func(k string) string {
		if k == "SLURM_ARRAY_TASK_ID" {
			return "2"
		}
		return ""
	}
	res := filepath.Join(dir, "env.jsonl")
	code, out, stderr := tsp(t, "batch", in, "--time-each", "50ms", "--out", res, "--backend", "cpu", "--quiet", "--shard", "/3", "--shard-from-env")
	if code != 0 || !strings.Contains(out, "(shard 2/3)") {
		t.Fatalf("from env: exit %d, %q %s", code, out, stderr)
	}
	if k := keys(readResults(t, res)); len(k) != 2 || !strings.HasSuffix(k[0], ":3") {
		t.Fatalf("from env: keys %v, want lines 3 and 6", k)
	}
}

func TestBatchFolderWithOptima(t *testing.T) {
	c := genCircle(t, 30)
	dir := filepath.Dir(c)
	res := filepath.Join(t.TempDir(), "r.jsonl")
	code, out, stderr := tsp(t, "batch", dir, "--time-each", "1s", "--out", res, "--backend", "cpu", "--quiet", "--tours")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	ls := readResults(t, res)
	if len(ls) != 1 || ls[0].GapPercent == nil || *ls[0].GapPercent != 0 || len(ls[0].Tour) != 30 {
		t.Fatalf("results %+v (%s)", ls, out)
	}
}

func TestBatchBadInput(t *testing.T) {
	dir := t.TempDir()
	lines := writeTestFile(t, dir, "l.txt", "0.1 0.2 0.3 0.4 0.5 0.6 0.9 0.1\n0.1 0.2 0.3 0.4 0.5 0.6 0.7\n0.5 0.5 0.1 0.1 0.9 0.2 0.3 0.8\n")
	res := filepath.Join(dir, "r.jsonl")
	code, _, stderr := tsp(t, "batch", lines, "--time-each", "20ms", "--out", res, "--backend", "cpu", "--quiet", "--lines")
	if code != 1 || !strings.Contains(stderr, "l.txt:2: 7 numbers") {
		t.Fatalf("exit %d, stderr %q: want the bad line named", code, stderr)
	}
	if n := len(readResults(t, res)); n != 2 {
		t.Fatalf("%d lines written, want the 2 good ones", n)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{lines, "--time-each", "1s"}, "--out FILE is required"},
		{[]string{lines, "--out", res, "--opt", "kicks=0"}, "kicks=0 searches until the time limit"},
		{[]string{lines, "--out", res, "--time-each", "1s", "--shard", "3/3"}, "want an integer from 0 to 2"},
		{[]string{lines, "--out", res, "--time-each", "1s", "--shard", "1/x"}, "want I/N"},
		{[]string{lines, "--out", lines, "--time-each", "1s"}, "is an input file"},
	} {
		if code, _, stderr := tsp(t, append([]string{"batch"}, c.args...)...); code != 2 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q: want usage %q", c.args, code, stderr, c.want)
		}
	}
	if err := os.WriteFile(res, []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := tsp(t, "batch", lines, "--out", res, "--time-each", "10ms", "--lines"); code != 1 || !strings.Contains(stderr, "r.jsonl:1: not a line of 'tsp batch' results") {
		t.Errorf("foreign --out: exit %d, %q", code, stderr)
	}
}

func TestIsInstanceLines(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name, data string
		want       bool
	}{
		{"coordinates", "0.1 0.2 0.3 0.4 0.5 0.6\n0.7 0.8 0.9 0.1 0.2 0.3\n", true},
		{"with output", "0 0 1 1 2 2 output 1 2 3 1\n", true},
		{"a matrix", "0 1 2 3 4 5\n1 0 1 2 3 4\n", false},
		{"a point list", "1 0.5 0.5\n2 0.1 0.9\n", false},
		{"odd count", "0.1 0.2 0.3 0.4 0.5 0.6 0.7\n", false},
		{"tsplib", "NAME: x\nTYPE: TSP\n", false},
	}
	for _, c := range cases {
		p := writeTestFile(t, dir, strings.ReplaceAll(c.name, " ", "_")+".txt", c.data)
		if got, err := isInstanceLines(p); err != nil || got != c.want {
			t.Errorf("%s: %v %v, want %v", c.name, got, err, c.want)
		}
	}
}

// TestBatchInterruptKeepsWholeLines stops a batch midway: the lines
// written are whole, and the same command finishes the rest.
func TestBatchInterruptKeepsWholeLines(t *testing.T) {
	dir := t.TempDir()
	in := circleLines(t, dir, 40, 20) // above session.ExactMaxN: each run takes its time
	res := filepath.Join(dir, "r.jsonl")
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	code, _, stderr := tspCtx(t, ctx, "batch", in, "--time-each", "100ms", "--opt", "kicks=0", "--out", res, "--backend", "cpu", "--quiet", "--jobs", "2")
	if code != exitInterrupt {
		t.Fatalf("exit %d, want %d: %s", code, exitInterrupt, stderr)
	}
	first := len(readResults(t, res)) // each line parses: none was cut
	if first >= 40 {
		t.Fatalf("%d lines after the interrupt: the batch was not stopped", first)
	}
	code, out, stderr := tsp(t, "batch", in, "--time-each", "20ms", "--out", res, "--backend", "cpu", "--quiet")
	if code != 0 || !strings.Contains(out, fmt.Sprintf("batch: %d solved, %d skipped", 40-first, first)) {
		t.Fatalf("resume: exit %d, %q %s", code, out, stderr)
	}
	if n := len(keys(readResults(t, res))); n != 40 {
		t.Fatalf("%d lines after resuming, want 40", n)
	}
}

// TestBatchBadFilesEachCounted: each input that cannot be read is one
// failure, named, the listing going on past it: three bad files, three
// failed, and the good file after them solved.
func TestBatchBadFilesEachCounted(t *testing.T) {
	dir := t.TempDir()
	empty := writeTestFile(t, dir, "empty.tsp", "")
	garbage := writeTestFile(t, dir, "garbage.tsp", "hello world\n")
	gz := writeTestFile(t, dir, "broken.txt", "\x1f\x8b\x08junk")
	good := writeTestFile(t, dir, "good.txt", "0 0 1 0 1 1 0 1\n")
	res := filepath.Join(dir, "r.jsonl")
	code, out, stderr := tsp(t, "batch", empty, garbage, gz, good, "--out", res, "--backend", "cpu")
	if code != 1 || !strings.Contains(out, "1 solved, 3 failed") || !strings.Contains(stderr, "3 of 4 instances failed") {
		t.Fatalf("exit %d, %q, %q: want 1 solved and 3 failed", code, out, stderr)
	}
	for _, name := range []string{"empty.tsp", "garbage.tsp", "broken.txt"} {
		if !strings.Contains(stderr, name) {
			t.Errorf("stderr %q does not name %s", stderr, name)
		}
	}
	if ls := readResults(t, res); len(ls) != 1 || ls[0].File != good {
		t.Fatalf("results %+v, want good.txt's line", ls)
	}
}

// TestBatchSummaryWords: no rate over less than a second; a mean below
// the data set's tours says below.
func TestBatchSummaryWords(t *testing.T) {
	r := &batchRequest{out: "r.jsonl"}
	st := &batchStats{}
	st.add(batchLine{RefGapPercent: ptr(-63.3636)})
	if s := st.summary(r, time.Millisecond); strings.Contains(s, "instances/s") || !strings.Contains(s, "mean 63.3636 % below the data set's tours") {
		t.Errorf("one instance in 1 ms: %q; want no rate, and below", s)
	}
	for range 99 {
		st.add(batchLine{RefGapPercent: ptr(1.0)})
	}
	if s := st.summary(r, 2*time.Second); !strings.Contains(s, "100 solved in 2.00 s, 50.0 instances/s") || !strings.Contains(s, " above the data set's tours") {
		t.Errorf("100 instances in 2 s: %q; want the rate, and above", s)
	}
}

// TestBatchCPUInputOrder: on the CPU the lines keep the input order
// though a slow first instance ends after the quick ones behind it.
func TestBatchCPUInputOrder(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := range 400 { // a slow first instance
		fmt.Fprintf(&b, "%.6f %.6f ", math.Mod(float64(i)*0.618034, 1), math.Mod(float64(i)*0.414214, 1))
	}
	b.WriteString("\n")
	for range 5 {
		b.WriteString("0 0 1 0 1 1 0 1\n")
	}
	in := writeTestFile(t, dir, "order.txt", b.String())
	res := filepath.Join(dir, "r.jsonl")
	code, _, stderr := tsp(t, "batch", in, "--lines", "--out", res, "--backend", "cpu", "--jobs", "2", "--quiet")
	if code != 0 {
		t.Fatalf("exit %d, %s", code, stderr)
	}
	var lines []int
	for _, l := range readResults(t, res) {
		lines = append(lines, l.Line)
	}
	if !slices.Equal(lines, []int{1, 2, 3, 4, 5, 6}) {
		t.Fatalf("lines %v, want 1 to 6 in input order", lines)
	}
}

// TestBatchDefaultWork: without --time-each the batch runs on the work
// its sizes give and says it in each line (CPU auto: pop's population
// search, its ga, kicks and rounds; --opt kicks=N: auto's N kicks), each
// tour a tour of its instance of the length the line says; the same
// seed gives the same tours, whatever --chunk.
func TestBatchDefaultWork(t *testing.T) {
	dir := t.TempDir()
	in := circleLines(t, dir, 6, 37)
	var ins []*solver.Instance
	batchItems(context.Background(), []string{in}, true, func(it batchItem) bool {
		x, _, _, err := it.load(nil)
		if err != nil {
			t.Fatal(err)
		}
		ins = append(ins, x)
		return true
	})
	run := func(args ...string) [][]int64 {
		res := filepath.Join(dir, strings.Join(args, "")+".jsonl")
		args = append([]string{"batch", in, "--out", res, "--backend", "cpu", "--jobs", "1", "--tours", "--seed", "5", "--quiet"}, args...)
		if code, _, stderr := tsp(t, args...); code != 0 {
			t.Fatalf("%v: exit %d, %s", args, code, stderr)
		}
		ls := readResults(t, res)
		if len(ls) != len(ins) {
			t.Fatalf("%v: %d lines, want %d", args, len(ls), len(ins))
		}
		var out [][]int64
		for i, l := range ls {
			tour := make([]int, len(l.Tour))
			for k, id := range l.Tour {
				tour[k] = int(id) - 1
			}
			if err := solver.ValidateTour(tour, ins[i].N); err != nil {
				t.Fatalf("%v: line %d: %v", args, l.Line, err)
			}
			if want := ins[i].FormatLength(solver.TourLength(ins[i], tour)); string(l.Length) != want {
				t.Errorf("%v: line %d says length %s, its tour has %s", args, l.Line, l.Length, want)
			}
			out = append(out, l.Tour)
		}
		work := map[string]string{"ga": popBatchGA, "kicks": popBatchKicks, "rounds": popBatchRounds}
		if slices.Contains(args, "--opt") {
			work = map[string]string{"kicks": "300"}
		}
		if !maps.Equal(ls[0].Options, work) {
			t.Errorf("%v: the line's options %v, want %v", args, ls[0].Options, work)
		}
		return out
	}
	a, b := run("--chunk", "1"), run("--chunk", "4")
	if !slices.EqualFunc(a, b, slices.Equal[[]int64]) {
		t.Fatalf("--chunk 1 gave %v, --chunk 4 %v: want the same 6 tours", a, b)
	}
	run("--opt", "kicks=300")
}
