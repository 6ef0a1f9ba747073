package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/tsplab/tsplab/internal/atomicfile"
)

// target is an output file named on the command line: the flag that named
// it, for messages, and its path ("-" is stdout where the flag allows it).
type target struct {
	flag, path string
}

// checkTargets fails before any work is done when an output cannot be
// written: a usage error (exit 2) when a target is one of the inputs or
// another target, a plain error (exit 1) when the file system refuses it
// (missing folder, a folder or device in the way, no permission, /proc).
// Empty paths and "-" are skipped.
func checkTargets(cmd string, inputs []string, targets ...target) error {
	for i, t := range targets {
		if t.path == "" || t.path == "-" {
			continue
		}
		for _, in := range inputs {
			if in != "" && in != "-" && samePath(in, t.path) {
				return usagef(cmd, "%s %s is an input file: name another file for the output", t.flag, t.path)
			}
		}
		for _, u := range targets[:i] {
			if u.path != "" && u.path != "-" && samePath(u.path, t.path) {
				return usagef(cmd, "%s and %s both name %s: give each output its own file", u.flag, t.flag, t.path)
			}
		}
		if err := checkTarget(t); err != nil {
			return err
		}
	}
	return nil
}

// samePath reports whether a and b name the same file: the same cleaned
// absolute path, or the same existing file through a link.
func samePath(a, b string) bool {
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	if err1 == nil && err2 == nil && aa == bb {
		return true
	}
	sa, err1 := os.Stat(a)
	sb, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(sa, sb)
}

// checkTarget checks that t.path is not a folder and that its folder
// exists and takes a new file; an existing device or named pipe is taken
// as it is (written directly, not replaced).
func checkTarget(t target) error {
	path := resolve(t.path)
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: folder %s does not exist", t.flag, t.path, dir)
	case errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%s %s: %s is not a folder", t.flag, t.path, firstNonDir(dir))
	case err != nil:
		return fmt.Errorf("%s %s: %v", t.flag, t.path, err)
	case !st.IsDir():
		return fmt.Errorf("%s %s: %s is not a folder", t.flag, t.path, dir)
	}
	if st, err := os.Stat(path); err == nil {
		switch {
		case st.IsDir():
			return fmt.Errorf("%s %s is a folder: name a file", t.flag, t.path)
		case atomicfile.Special(st):
			return nil
		}
	}
	f, err := os.CreateTemp(dir, atomicfile.TempPattern(path))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s %s: cannot create a file in %s: %v", t.flag, t.path, dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// firstNonDir returns the first component of dir that exists and is not a
// folder, for "/etc/passwd/x.tour": "/etc/passwd is not a folder".
func firstNonDir(dir string) string {
	p := dir
	for {
		parent := filepath.Dir(p)
		if parent == p {
			return dir
		}
		if st, err := os.Stat(parent); err == nil {
			if st.IsDir() {
				return p
			}
		}
		p = parent
	}
}

// writeFile writes path whole or not at all (see atomicfile.Write).
func writeFile(path string, fill func(io.Writer) error) error {
	return atomicfile.Write(path, fill)
}

// removeTemps deletes the temporary files of the outputs being written.
func removeTemps() { atomicfile.RemoveTemps() }

func resolve(path string) string { return atomicfile.Resolve(path) }
