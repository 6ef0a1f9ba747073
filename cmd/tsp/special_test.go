//go:build unix

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// --json and --out take a device or a named pipe and write into it,
// where a regular file is replaced whole.
func TestSolveToDevNullAndPipe(t *testing.T) {
	p := genCircle(t, 30)
	code, _, stderr := tsp(t, "solve", p, "--algo", "testclimb", "--json", os.DevNull, "--quiet")
	if code != 0 {
		t.Fatalf("--json %s: exit %d: %s", os.DevNull, code, stderr)
	}
	fifo := filepath.Join(t.TempDir(), "report")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip(err)
	}
	got := make(chan []byte)
	go func() {
		data, err := os.ReadFile(fifo)
		if err != nil {
			t.Error(err)
		}
		got <- data
	}()
	code, _, stderr = tsp(t, "solve", p, "--algo", "testclimb", "--json", fifo, "--out", os.DevNull, "--quiet")
	if code != 0 {
		t.Fatalf("--json FIFO: exit %d: %s", code, stderr)
	}
	var rep map[string]any
	if err := json.Unmarshal(<-got, &rep); err != nil || rep["instance"] != "circle-30" {
		t.Fatalf("the pipe's reader got %v (%v)", rep, err)
	}
	if st, err := os.Lstat(fifo); err != nil || st.Mode()&os.ModeNamedPipe == 0 {
		t.Fatalf("the pipe was replaced")
	}
}
