//go:build unix

package atomicfile

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// A device or a named pipe is written directly: /dev/null takes the data,
// and a pipe's reader gets all of it, the pipe still a pipe and no
// temporary file left beside it.
func TestWriteSpecialFiles(t *testing.T) {
	if err := Write(os.DevNull, func(w io.Writer) error { _, err := io.WriteString(w, "x"); return err }); err != nil {
		t.Fatalf("%s: %v", os.DevNull, err)
	}
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	got := make(chan string)
	go func() {
		data, err := os.ReadFile(fifo)
		if err != nil {
			t.Error(err)
		}
		got <- string(data)
	}()
	want := string(make([]byte, 200_000)) + "end"
	if err := Write(fifo, func(w io.Writer) error { _, err := io.WriteString(w, want); return err }); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != want {
		t.Fatalf("the reader got %d bytes, want %d", len(s), len(want))
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced: %v %v", st.Mode(), err)
	}
	noTemps(t, dir)
}
