package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestOutFormats: --out writes what its extension names: .txt the cities'
// ids a line each, .json the run report, .csv the points with their
// coordinates as the file wrote them; a picture's extension, or a .json
// beside --json, is refused in one line.
func TestOutFormats(t *testing.T) {
	dir := t.TempDir()
	in := writeTestFile(t, dir, "p.csv", "id,x,y\nA,11.5820,3.10\nB,2.0,1e1\nC,0.500,-0.50\nD,5,5\nE,+1.25,7\nF,\"8.75\",-2\n")
	semi := writeTestFile(t, dir, "s.csv", "id;x;y\nA;11,5820;3,10\nB;2,0;10\nC;0,500;-0,50\nD;5;5\nE;1,25;7\n")
	solve := func(args ...string) (int, string) {
		code, _, stderr := tsp(t, append([]string{"solve", "--time", "0.1", "--quiet"}, args...)...)
		return code, stderr
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if code, stderr := solve(in, "--out", filepath.Join(dir, "t.txt")); code != 0 {
		t.Fatalf("--out t.txt: exit %d: %s", code, stderr)
	}
	ids := strings.Fields(read("t.txt"))
	slices.Sort(ids)
	if strings.Join(ids, "") != "ABCDEF" || !strings.HasPrefix(read("t.txt"), "A\n") {
		t.Errorf("--out t.txt wrote %q, want the 6 ids A..F a line each", read("t.txt"))
	}
	if code, stderr := solve(in, "--out", filepath.Join(dir, "t.json")); code != 0 {
		t.Fatalf("--out t.json: exit %d: %s", code, stderr)
	}
	var rep struct {
		Instance string `json:"instance"`
		Tour     []int  `json:"tour"`
	}
	if err := json.Unmarshal([]byte(read("t.json")), &rep); err != nil || rep.Instance != "p" || len(rep.Tour) != 6 {
		t.Errorf("--out t.json is not the run report: %v, %+v", err, rep)
	}
	for _, c := range []struct {
		args []string
		says string
	}{
		{[]string{"--out", filepath.Join(dir, "u.json"), "--json", filepath.Join(dir, "r.json")}, "is the run report, which --json"},
		{[]string{"--out", filepath.Join(dir, "t.png")}, "tsp render"},
		{[]string{"--out", filepath.Join(dir, "t.SVG")}, "not a picture"},
	} {
		code, stderr := solve(append([]string{in}, c.args...)...)
		if first, _, _ := strings.Cut(stderr, "\n"); code != 2 || !strings.Contains(first, c.says) {
			t.Errorf("%v: exit %d, %q; want exit 2 saying %q", c.args, code, stderr, c.says)
		}
	}
	for file, coords := range map[string][]string{
		in:   {"A,11.5820,3.10", "B,2.0,1e1", "C,0.500,-0.50", "D,5,5", "E,+1.25,7", "F,8.75,-2"},
		semi: {"A,11.5820,3.10", "B,2.0,10", "C,0.500,-0.50", "D,5,5", "E,1.25,7"}, // decimal commas become points
	} {
		out := filepath.Join(dir, "t.csv")
		if code, stderr := solve(file, "--out", out); code != 0 {
			t.Fatalf("--out t.csv: exit %d: %s", code, stderr)
		}
		got := read("t.csv")
		for _, line := range coords {
			if !strings.Contains(got, line+"\n") {
				t.Errorf("%s --out t.csv: no line %q as written in\n%s", filepath.Base(file), line, got)
			}
		}
	}
}
