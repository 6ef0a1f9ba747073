package atomicfile

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func noTemps(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.Contains(e.Name(), ".tmp-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

func TestWriteReplacesWholeOrNotAtAll(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := Write(p, func(w io.Writer) error { _, err := io.WriteString(w, "first\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if st, err := os.Stat(p); err != nil || st.Mode().Perm() != 0o644 {
		t.Fatalf("new file: %v %v", st, err)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	// A fill that fails half-way leaves the previous content.
	boom := errors.New("boom")
	err := Write(p, func(w io.Writer) error {
		io.WriteString(w, strings.Repeat("partial ", 100000))
		return boom
	})
	if err == nil || !strings.Contains(err.Error(), p) || !strings.Contains(err.Error(), "boom") {
		t.Fatalf("failed fill: %v", err)
	}
	if data, _ := os.ReadFile(p); string(data) != "first\n" {
		t.Fatalf("after a failed write the file holds %d bytes, want the previous content", len(data))
	}
	// A replacement keeps the file's permissions.
	if err := Write(p, func(w io.Writer) error { _, err := io.WriteString(w, "second\n"); return err }); err != nil {
		t.Fatal(err)
	}
	if data, _ := os.ReadFile(p); string(data) != "second\n" {
		t.Fatalf("replaced content %q", data)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != 0o600 {
		t.Errorf("replaced file mode %v, want 0600", st.Mode().Perm())
	}
	noTemps(t, dir)
}

func TestWriteThroughLinkAndErrors(t *testing.T) {
	dir := t.TempDir()
	real := filepath.Join(dir, "real.txt")
	link := filepath.Join(dir, "link.txt")
	os.WriteFile(real, []byte("old"), 0o644)
	if err := os.Symlink(real, link); err != nil {
		t.Skip(err)
	}
	if err := Write(link, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	if data, _ := os.ReadFile(real); string(data) != "new" {
		t.Errorf("link target holds %q", data)
	}
	if err := Write(filepath.Join(dir, "missing", "x"), func(io.Writer) error { return nil }); err == nil {
		t.Error("a missing folder was accepted")
	}
	if err := Write(dir, func(io.Writer) error { return nil }); err == nil {
		t.Error("a folder was replaced")
	}
	noTemps(t, dir)
}

// TestWriteAfterRemoveTemps: once RemoveTemps has run (a process exiting on
// a second interrupt), Write creates no temporary file and leaves the
// target as it was.
func TestWriteAfterRemoveTemps(t *testing.T) {
	t.Cleanup(func() {
		temps.Lock()
		temps.closed = false
		temps.Unlock()
	})
	dir := t.TempDir()
	path := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	RemoveTemps()
	err := Write(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err })
	if !errors.Is(err, errClosed) {
		t.Fatalf("Write after RemoveTemps: %v, want errClosed", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "old" {
		t.Errorf("target is %q, want the old content", b)
	}
	noTemps(t, dir)
}
