package instfile

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// PointsSection is the Section of a point list's Header.
const PointsSection = "POINTS"

// Read reads the instance in the file at path: a TSPLIB95 file (see
// tsplib.Parse), a cost matrix CSV (see ParseMatrixCSV) or a point list
// (see ParsePoints), told apart by the first lines that are not blank (a
// matrix by isMatrixCSV), and by the extension when those say neither.
func Read(path string) (*solver.Instance, error) {
	f, br, points, err := openSniffed(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var in *solver.Instance
	switch {
	case sniffMatrix(br):
		in, err = ParseMatrixCSV(br, path)
	case points:
		in, err = ParsePoints(br, path)
	default:
		in, err = tsplib.Parse(br, path)
	}
	if err != nil {
		return nil, err
	}
	in.Path = path
	return in, nil
}

// openSniffed opens the file at path for reading and reports whether its
// start reads as a point list rather than TSPLIB (see isPointList).
func openSniffed(path string) (*os.File, *bufio.Reader, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, false, tsplib.FileError(path, err)
	}
	br := bufio.NewReaderSize(f, readerSniffSize)
	head, err := br.Peek(readerSniffSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		f.Close()
		return nil, nil, false, tsplib.FileError(path, bareError(err))
	}
	if err := notAnInstance(path, head); err != nil {
		f.Close()
		return nil, nil, false, err
	}
	return f, br, isPointList(head, path), nil
}

// PictureError is Read's error for a picture: a file whose first bytes
// are a PNG, JPEG, GIF, BMP or WebP signature. Front ends offer to
// stipple it into an instance (TSP art) instead.
type PictureError struct {
	File   string
	Format string // "PNG", "JPEG", …
}

// Error says what the file is, in one line naming it.
func (e *PictureError) Error() string {
	return (&tsplib.Error{File: e.File, Msg: "a " + e.Format + " picture, not an instance"}).Error()
}

// pictureSignatures are the first bytes of the picture formats a user
// may open by mistake.
var pictureSignatures = []struct{ magic, format string }{
	{"\x89PNG\r\n\x1a\n", "PNG"}, {"\xFF\xD8\xFF", "JPEG"}, {"GIF87a", "GIF"}, {"GIF89a", "GIF"}, {"BM", "BMP"},
}

// notAnInstance tells a file that cannot be an instance by its start
// head: empty (or blank), or a picture.
func notAnInstance(path string, head []byte) error {
	if len(bytes.TrimSpace(head)) == 0 && len(head) < readerSniffSize {
		return &tsplib.Error{File: path, Msg: "the file is empty"}
	}
	for _, s := range pictureSignatures {
		if bytes.HasPrefix(head, []byte(s.magic)) && (s.format != "BMP" || len(head) >= 26 && bytes.IndexByte(head[:26], 0) >= 0) {
			return &PictureError{File: path, Format: s.format}
		}
	}
	if len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP" {
		return &PictureError{File: path, Format: "WebP"}
	}
	return nil
}

// Load reads the instance at path (see Read) and attaches its known
// optimum (see tsplib.SetOptimum), searching optimaDirs and then the
// directory named by $TSPLIB_OPTIMA.
func Load(path string, optimaDirs ...string) (*solver.Instance, error) {
	in, err := Read(path)
	if err != nil {
		return nil, err
	}
	tsplib.SetOptimum(in, optimaDirs...)
	return in, nil
}

// ReadHeader reads the header of the instance file at path (for a point
// list, see pointsHeader; for a cost matrix, matrixHeader): its keywords
// up to the first section, checked as Read checks them (the same
// FILE:LINE errors), without reading the data.
func ReadHeader(path string) (tsplib.Header, error) {
	f, err := tsplib.OpenRegular(path)
	if err != nil {
		return tsplib.Header{}, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, readerSniffSize)
	head, err := br.Peek(readerSniffSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		return tsplib.Header{}, tsplib.FileError(path, bareError(err))
	}
	if isMatrixCSV(head, len(head) < readerSniffSize) {
		return matrixHeader(br, path)
	}
	if isPointList(head, path) {
		return pointsHeader(br, path)
	}
	return tsplib.ParseHeader(br, path)
}

// pointsHeader describes a point list without parsing its numbers: the
// header line (when it has one) gives the metric, the count of lines that
// are not blank or comments the dimension.
func pointsHeader(r io.Reader, filename string) (tsplib.Header, error) {
	p := &pointReader{br: bufio.NewReaderSize(tsplib.LineEnds(r), MaxPointLine), file: filename}
	h := tsplib.Header{Name: strings.TrimSuffix(filepath.Base(filename), filepath.Ext(filename)), Type: "TSP", Metric: solver.Euc2D.String(), Section: PointsSection}
	for {
		b, err := p.nextLine()
		if err != nil {
			return tsplib.Header{}, err
		}
		if b == nil {
			break
		}
		if h.Dimension == 0 && p.names == nil && !isNumber(b) {
			if err := p.header(splitFields(b)); err != nil {
				return tsplib.Header{}, err
			}
			if p.latLon {
				h.Metric = solver.GreatCircle.String()
			}
			continue
		}
		h.Dimension++
	}
	if h.Dimension == 0 {
		return tsplib.Header{}, p.end()
	}
	return h, nil
}

// errorf returns the *tsplib.Error "FILE:LINE: problem".
func errorf(file string, line int, format string, args ...any) *tsplib.Error {
	return tsplib.Errorf(file, line, format, args...)
}

// quote shows an input token in a message, shortened when long.
func quote(s string) string {
	if len(s) > 40 {
		s = s[:40] + "..."
	}
	return strconv.Quote(s)
}

// bareError drops the operation and path of an *fs.PathError: the
// *tsplib.Error around it names the file already.
func bareError(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// isNumber reports whether s starts as a number does.
func isNumber[S string | []byte](s S) bool {
	if len(s) == 0 {
		return false
	}
	c := s[0]
	return c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')
}
