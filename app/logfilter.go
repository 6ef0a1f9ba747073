package app

import (
	"bytes"
	"io"
	"sync"
)

// quietLog passes log lines on to w, but for Fyne's report that the
// file dialog found no folder for one of its favourites ("Fyne error:
// Getting favorite locations", with its Cause and At lines): on a system
// without XDG user folders (no Videos folder, say) every file dialog
// logged it, and the dialog works the same without those favourites.
type quietLog struct {
	mu       sync.Mutex
	w        io.Writer
	dropping bool
}

// QuietLog returns a writer for log.SetOutput that drops Fyne's reports
// of missing favourite folders of the file dialog and passes everything
// else on to w.
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
