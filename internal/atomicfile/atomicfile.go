// Package atomicfile writes output files whole or not at all: the content
// goes to a temporary file in the target's folder, which is synced and
// renamed over the target. A reader, a crash, a full disk or a second
// Ctrl-C then finds either the previous file or the complete new one.
// A target that exists and is neither a regular file nor a folder (a
// device such as /dev/null, a named pipe) is written directly: renaming
// over it would replace it, and its reader expects the data in it.
package atomicfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

// Resolve follows a link to its file, so replacing the file keeps the link (else path).
func Resolve(path string) string {
	if r, err := filepath.EvalSymlinks(path); err == nil {
		return r
	}
	return path
}

// TempPattern is the hidden temporary name pattern beside path.
func TempPattern(path string) string { return "." + filepath.Base(path) + ".tmp-*" }

// temps are the temporary files being written, removed by a second interrupt; closed stops new ones.
var temps struct {
	sync.Mutex
	names  map[string]bool
	closed bool
}

// errClosed is returned by Write once RemoveTemps has run.
var errClosed = errors.New("not written: the process is exiting")

// createTemp creates and registers a temporary file for path in dir.
func createTemp(dir, path string) (*os.File, error) {
	temps.Lock()
	defer temps.Unlock()
	if temps.closed {
		return nil, fmt.Errorf("%s: %w", path, errClosed)
	}
	f, err := os.CreateTemp(dir, TempPattern(path))
	if err != nil {
		return nil, err // *PathError names the file
	}
	if temps.names == nil {
		temps.names = map[string]bool{}
	}
	temps.names[f.Name()] = true
	return f, nil
}

func dropTemp(name string) {
	temps.Lock()
	defer temps.Unlock()
	delete(temps.names, name)
}

// RemoveTemps deletes the temporary files being written and makes later Write calls fail (a second interrupt).
func RemoveTemps() {
	temps.Lock()
	defer temps.Unlock()
	temps.closed = true
	for n := range temps.names {
		os.Remove(n)
	}
}

// Write writes path atomically: fill writes a synced temporary file renamed over path (a special file is written
// directly). An existing file keeps its permissions, a new one gets 0644; any error names the file.
func Write(path string, fill func(io.Writer) error) (err error) {
	real := Resolve(path)
	mode := fs.FileMode(0o644)
	if st, err := os.Stat(real); err == nil {
		switch {
		case st.IsDir():
			return fmt.Errorf("%s is a folder", path)
		case Special(st):
			return writeDirect(path, real, fill)
		}
		mode = st.Mode().Perm()
	}
	dir := filepath.Dir(real)
	f, err := createTemp(dir, real)
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(tmp)
		}
		dropTemp(tmp)
	}()
	w := bufio.NewWriterSize(f, 1<<16)
	steps := []func() error{
		func() error { return fill(w) }, w.Flush, func() error { return f.Chmod(mode) },
		f.Sync, f.Close, func() error { return os.Rename(tmp, real) },
	}
	for _, step := range steps {
		if err := step(); err != nil {
			return fmt.Errorf("%s: %v", path, unwrapPath(err))
		}
	}
	// The rename is durable once the folder is synced (where it can be).
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// Special reports whether Write writes st directly: a device or named pipe.
func Special(st fs.FileInfo) bool { return !st.Mode().IsRegular() && !st.IsDir() }

// writeDirect writes fill's output to the existing special file real (named path in errors).
func writeDirect(path, real string, fill func(io.Writer) error) error {
	f, err := os.OpenFile(real, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("%s: %v", path, unwrapPath(err))
	}
	w := bufio.NewWriterSize(f, 1<<16)
	err = fill(w)
	if err == nil {
		err = w.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %v", path, unwrapPath(err))
	}
	return nil
}

// unwrapPath drops the temporary file's name from a *PathError.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	var le *os.LinkError
	if errors.As(err, &le) {
		return le.Err
	}
	return err
}
