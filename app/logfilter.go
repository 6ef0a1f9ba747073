package app

import (
	"bytes"
	"io"
	"sync"
)

// quietLog passes log lines to w but for Fyne's "Getting favorite locations" error, logged without XDG user folders.
type quietLog struct {
	mu       sync.Mutex
	w        io.Writer
	dropping bool
}

// QuietLog returns a quietLog writer for log.SetOutput.
func QuietLog(w io.Writer) io.Writer { return &quietLog{w: w} }

func (q *quietLog) Write(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case bytes.Contains(p, []byte("Fyne error: ")) && bytes.Contains(p, []byte("Getting favorite locations")):
		q.dropping = true
		return len(p), nil
	case q.dropping && (bytes.Contains(p, []byte("  Cause: ")) || bytes.Contains(p, []byte("  At: "))):
		return len(p), nil
	}
	q.dropping = false
	return q.w.Write(p)
}
