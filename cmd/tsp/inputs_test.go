package main

import (
	"bytes"
	"compress/gzip"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/internal/seconds"
)

// Files a user opens by mistake get a line that says what they are: a
// picture (with the command that turns it into an instance), an empty
// file.
func TestPictureAndEmptyFiles(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 4, 4))); err != nil {
		t.Fatal(err)
	}
	pic := filepath.Join(dir, "picture.png")
	if err := os.WriteFile(pic, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := tsp(t, "solve", pic, "--time", "1s")
	if code != 1 {
		t.Errorf("solve picture.png: exit %d", code)
	}
	oneErrorLine(t, stderr, pic+": a PNG picture, not an instance", "tsp gen --kind image --image "+pic)
	for _, text := range []string{"", "\n  \n"} {
		empty := writeTestFile(t, dir, "empty.tsp", text)
		for _, cmd := range [][]string{{"info", empty}, {"solve", empty}, {"bound", empty}} {
			code, _, stderr := tsp(t, cmd...)
			if code != 1 {
				t.Errorf("%v: exit %d", cmd, code)
			}
			oneErrorLine(t, stderr, empty+": the file is empty")
		}
	}
}

// A bare number is seconds wherever a duration is read, as in the app's
// time field.
func TestDurationsInSeconds(t *testing.T) {
	for in, want := range map[string]time.Duration{"10": 10 * time.Second, "2.5": 2500 * time.Millisecond, "0": 0, "10s": 10 * time.Second, "1m30s": 90 * time.Second, "500ms": 500 * time.Millisecond} {
		if got, err := seconds.Parse(in); err != nil || got != want {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	for _, in := range []string{"abc", "1e99", "NaN", "10 s"} {
		if _, err := seconds.Parse(in); err == nil {
			t.Errorf("%q: no error", in)
		}
	}
	p := genCircle(t, 20)
	code, out, stderr := tsp(t, "solve", p, "--algo", "testclimb", "--time", "1", "--quiet", "--json", "-")
	if code != 0 || !strings.Contains(out, `"length"`) {
		t.Errorf("--time 1: exit %d %s", code, stderr)
	}
	if code, _, stderr := tsp(t, "bound", p, "--time", "2", "--quiet"); code != 0 {
		t.Errorf("bound --time 2: exit %d %s", code, stderr)
	}
	if code, _, stderr := tsp(t, "solve", p, "--time", "abc"); code != 2 || !strings.Contains(stderr, "want seconds (10) or a duration") {
		t.Errorf("--time abc: exit %d %s", code, stderr)
	}
}

// tsp gen's usage, in its own help and in tsp's list, names every kind.
func TestGenUsageNamesEveryKind(t *testing.T) {
	_, top, _ := tsp(t, "help")
	_, _, stderr := tsp(t, "gen")
	for _, text := range []string{top, stderr} {
		for _, kind := range []string{"uniform", "clustered", "circle", "grid", "portgen", "portcgen", "image"} {
			if !strings.Contains(text, kind) || !strings.Contains(text, "--image FILE") {
				t.Errorf("usage lacks %s:\n%s", kind, text)
			}
		}
	}
}

// A gzip-compressed instance reads wherever an instance is read (solve,
// info, bound, a batch folder), with its optimum from a sibling
// .opt.tour.gz and a start tour gzip-compressed too; a corrupt stream or
// a binary file is one error line naming the file.
func TestGzipInputs(t *testing.T) {
	src := genCircle(t, 20)
	dir := t.TempDir()
	gz := func(from, name string) string {
		data, err := os.ReadFile(from)
		if err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		zw := gzip.NewWriter(&b)
		zw.Write(data)
		zw.Close()
		return writeTestFile(t, dir, name, b.String())
	}
	p := gz(src, "circle-20.tsp.gz")
	tour := gz(strings.TrimSuffix(src, ".tsp")+".opt.tour", "circle-20.opt.tour.gz")
	cases := []struct {
		args []string
		want string
	}{
		{[]string{"info", p}, "optimum: 6,260 (from " + tour + ")"},
		{[]string{"solve", p, "--algo", "2opt-climb", "--time", "1", "--quiet", "--json", "-"}, `"optimum": 6260`},
		{[]string{"solve", p, "--time", "1", "--start", tour}, "length 6,260"},
		{[]string{"bound", p, "--time", "1", "--quiet"}, "6260"},
		{[]string{"batch", dir, "--time-each", "200ms", "--out", filepath.Join(t.TempDir(), "r.jsonl"), "--backend", "cpu", "--quiet"}, "1 solved"},
	}
	for _, c := range cases {
		code, out, stderr := tsp(t, c.args...)
		if code != 0 || !strings.Contains(out+stderr, c.want) {
			t.Errorf("%v: exit %d, want %q in\n%s%s", c.args, code, c.want, out, stderr)
		}
	}
	data, _ := os.ReadFile(p)
	bad := []struct{ name, data, want string }{
		{"cut.tsp.gz", string(data[:len(data)/2]), ": corrupt gzip stream: the data ends early (a truncated file?)"},
		{"bin.tsp", "\x7fELF\x02\x01\x01\x00", ": the file looks binary, not an instance"},
	}
	for _, c := range bad {
		f := writeTestFile(t, t.TempDir(), c.name, c.data)
		for _, args := range [][]string{{"solve", f, "--time", "1"}, {"info", f}, {"bound", f, "--time", "1"}} {
			code, _, stderr := tsp(t, args...)
			if code != 1 {
				t.Errorf("%s %s: exit %d", args[0], c.name, code)
			}
			oneErrorLine(t, stderr, f+c.want)
		}
	}
}
