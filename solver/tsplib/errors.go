package tsplib

import (
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
)

// Error is a problem in a TSPLIB file, one line: "FILE:LINE: problem".
type Error struct {
	File string // the file name given to the reader
	Line int    // 1-based line number, 0 when unknown
	Msg  string // what is wrong, without the file and line
}

// Error returns "FILE:LINE: problem".
func (e *Error) Error() string {
	f := strings.NewReplacer("\n", " ", "\r", " ").Replace(e.File)
	if f == "" {
		f = "<input>"
	}
	if e.Line <= 0 {
		return f + ": " + e.Msg
	}
	return f + ":" + strconv.Itoa(e.Line) + ": " + e.Msg
}

// Errorf returns the *Error "FILE:LINE: problem" on one bounded line; every format's reader reports with it.
func Errorf(file string, line int, format string, args ...any) *Error {
	return &Error{File: file, Line: line, Msg: oneLine(fmt.Sprintf(format, args...))}
}

// oneLine keeps a message on one bounded line whatever it quoted.
func oneLine(s string) string {
	const max = 300
	b := make([]rune, 0, len(s))
	for _, r := range s {
		if r == '\n' || r == '\r' {
			r = ' '
		}
		b = append(b, r)
		if len(b) >= max {
			b = append(b, '…')
			break
		}
	}
	return string(b)
}

// Quote shows an input token in a message, shortened when long.
func Quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strconv.Quote(s)
}

// FileError reports a file failure without repeating *fs.PathError's path.
func FileError(path string, err error) *Error {
	var pe *fs.PathError
	if errors.As(err, &pe) && pe.Path == path {
		err = pe.Err
	}
	return &Error{File: path, Msg: oneLine(err.Error())}
}

// BareError drops an *fs.PathError's operation and path.
func BareError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
