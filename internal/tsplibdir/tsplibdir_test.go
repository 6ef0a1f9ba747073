package tsplibdir

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeTB records what Need and Instance ask of a test.
type fakeTB struct{ skipped string }

func (f *fakeTB) Helper()                       {}
func (f *fakeTB) Skip(args ...any)              { f.skipped = "skip"; panic(f) }
func (f *fakeTB) Skipf(format string, a ...any) { f.skipped = format; panic(f) }

func call(fn func()) (skipped bool) {
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(*fakeTB); !ok {
				panic(r)
			}
			skipped = true
		}
	}()
	fn()
	return false
}

func TestNeedAndInstance(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "x.tsp"), []byte("NAME: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TSPLIB_DIR", dir)
	before := skipped.Load()
	var got string
	if call(func() { got = Instance(&fakeTB{}, "x") }) || got != filepath.Join(dir, "x.tsp") {
		t.Fatalf("Instance(x) = %q, skipped", got)
	}
	if !call(func() { Instance(&fakeTB{}, "absent") }) {
		t.Fatal("a missing instance did not skip")
	}
	t.Setenv("TSPLIB_DIR", filepath.Join(dir, "nowhere"))
	if TSPLIBDir() != "" {
		t.Fatal("TSPLIBDir names a missing folder")
	}
	if !call(func() { Need(&fakeTB{}) }) {
		t.Fatal("a missing folder did not skip")
	}
	if n := skipped.Load() - before; n != 2 {
		t.Fatalf("counted %d skips, want 2", n)
	}
	var buf bytes.Buffer
	t.Setenv(RequireEnv, "")
	if code := finish(0, &buf); code != 0 || !strings.Contains(buf.String(), "tests skipped") {
		t.Fatalf("finish = %d, %q", code, buf.String())
	}
	t.Setenv(RequireEnv, "1")
	if code := finish(0, &buf); code != 1 {
		t.Fatalf("with %s set, finish = %d, want 1", RequireEnv, code)
	}
	skipped.Add(-2)
}
