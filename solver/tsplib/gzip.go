package tsplib

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Limits on gzip input: past GzipMinLimit bytes the decompressed data may be at most GzipMaxRatio times the compressed,
// so a gzip bomb costs no more than a plain file that much larger.
const (
	GzipMaxRatio = 100
	GzipMinLimit = 64 << 20
)

// gzipMagic are the first two bytes of every gzip stream.
const gzipMagic = "\x1f\x8b"

// IsGzip reports whether head starts with gzip's magic bytes.
func IsGzip(head []byte) bool { return bytes.HasPrefix(head, []byte(gzipMagic)) }

// TrimGz returns path without a final ".gz".
func TrimGz(path string) string {
	if n := len(path) - len(".gz"); n > 0 && strings.EqualFold(path[n:], ".gz") {
		return path[:n]
	}
	return path
}

// Input reads an instance or tour file, decompressed when it starts with gzip's magic (see Open and NewInput).
type Input struct {
	r  io.Reader
	c  io.Closer
	gz *gzipReader // nil when the data is not gzip-compressed
}

// Open opens path for reading as an Input; errors are *Error naming path.
func Open(path string) (*Input, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, FileError(path, err)
	}
	in, err := NewInput(f, path)
	if err != nil {
		f.Close()
		return nil, err
	}
	return in, nil
}

// NewInput returns an Input reading r, named path in errors, closing r when it closes; only a bad gzip header is an error.
func NewInput(r io.Reader, path string) (*Input, error) {
	in := &Input{}
	if c, ok := r.(io.Closer); ok {
		in.c = c
	}
	var head [2]byte
	n, _ := io.ReadFull(r, head[:])
	// The sniffed bytes are read again first; a read error recurs later
	r = io.MultiReader(bytes.NewReader(head[:n]), r)
	if !IsGzip(head[:n]) {
		in.r = r
		return in, nil
	}
	cr := &countingReader{r: r}
	zr, err := gzip.NewReader(cr)
	if err != nil {
		return nil, gzipError(path, err)
	}
	in.gz = &gzipReader{zr: zr, in: cr, file: path}
	in.r = in.gz
	return in, nil
}

// Read reads the file's bytes, decompressed when it is gzip data.
func (in *Input) Read(p []byte) (int, error) { return in.r.Read(p) }

// Close closes the file.
func (in *Input) Close() error {
	if in.c == nil {
		return nil
	}
	return in.c.Close()
}

// Err returns the gzip stream's failure in place of err when there was one, which would explain err.
func (in *Input) Err(err error) error {
	if err != nil {
		if gz := in.GzipError(); gz != nil {
			return gz
		}
	}
	return err
}

// Check is Err after reading the rest of a gzip stream, so its checksum reports corruption.
func (in *Input) Check(err error) error {
	if in.gz != nil && in.gz.err == nil {
		io.Copy(io.Discard, in.gz)
	}
	if gz := in.GzipError(); gz != nil {
		return gz
	}
	return err
}

// GzipError returns the gzip stream's failure as a one-line *Error, or nil.
func (in *Input) GzipError() error {
	if in.gz == nil || in.gz.err == nil {
		return nil
	}
	return in.gz.err
}

// countingReader counts the bytes read through it.
type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// gzipReader decompresses within GzipMaxRatio, failures as one-line *Errors.
type gzipReader struct {
	zr   *gzip.Reader
	in   *countingReader
	file string
	out  int64
	err  *Error
}

func (g *gzipReader) Read(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n, err := g.zr.Read(p)
	g.out += int64(n)
	if g.out > GzipMinLimit && g.out > GzipMaxRatio*g.in.n {
		g.err = &Error{File: g.file, Msg: fmt.Sprintf("gzip data expands more than %d-fold past %d MiB: not read (a gzip bomb?)", GzipMaxRatio, GzipMinLimit>>20)}
		return 0, g.err
	}
	if err != nil && !errors.Is(err, io.EOF) {
		g.err = gzipError(g.file, err)
		return n, g.err
	}
	return n, err
}

// gzipError says in one line what is wrong with the gzip stream of file.
func gzipError(file string, err error) *Error {
	var corrupt flate.CorruptInputError
	var msg string
	switch {
	case errors.Is(err, gzip.ErrHeader):
		msg = "invalid header"
	case errors.Is(err, gzip.ErrChecksum):
		msg = "checksum mismatch"
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		msg = "the data ends early (a truncated file?)"
	case errors.As(err, &corrupt):
		msg = fmt.Sprintf("invalid data at compressed byte %d", int64(corrupt))
	default:
		return FileError(file, BareError(err))
	}
	return &Error{File: file, Msg: "corrupt gzip stream: " + msg}
}

// looksBinary reports whether a word holds control bytes no text has.
func looksBinary(s string) bool {
	for _, c := range []byte(s) {
		if c < 0x20 && !isSpace(c) || c == 0x7f {
			return true
		}
	}
	return false
}

// binaryWord is the problem of binary data where a keyword should be.
func binaryWord(s string, line int) string {
	switch {
	case line == 1 && IsGzip([]byte(s)):
		return "the file looks binary: it is gzip-compressed data (read it by its path to have it decompressed)"
	case line == 1:
		return "the file looks binary, not a TSPLIB text file"
	}
	return "binary data where a keyword should be"
}
