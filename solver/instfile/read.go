package instfile

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"

	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// PointsSection is the Section of a point list's Header.
const PointsSection = "POINTS"

// Read reads the instance at path: TSPLIB95 (tsplib.Parse), a cost matrix CSV or a point list, told by the first
// data lines, else the extension; gzip is read decompressed.
func Read(path string) (*problem.Instance, error) {
	f, br, points, err := openSniffed(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var in *problem.Instance
	switch {
	case sniffMatrix(br):
		in, err = ParseMatrixCSV(br, path)
	case points:
		in, err = ParsePoints(br, path)
	default:
		in, err = tsplib.Parse(br, path)
	}
	if err := f.Check(err); err != nil {
		return nil, err
	}
	in.Path = path
	return in, nil
}

// openSniffed opens path (decompressed when gzip) and reports whether it starts as a point list.
func openSniffed(path string) (*tsplib.Input, *bufio.Reader, bool, error) {
	f, err := tsplib.Open(path)
	if err != nil {
		return nil, nil, false, err
	}
	br, head, err := sniff(f, path)
	if err == nil {
		err = notAnInstance(path, head)
	}
	if err != nil {
		f.Close()
		return nil, nil, false, err
	}
	return f, br, isPointList(head, path), nil
}

// sniff buffers f and returns its first readerSniffSize bytes and the reader.
func sniff(f *tsplib.Input, path string) (*bufio.Reader, []byte, error) {
	br := bufio.NewReaderSize(f, readerSniffSize)
	head, err := br.Peek(readerSniffSize)
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, bufio.ErrBufferFull) {
		if gz := f.GzipError(); gz != nil {
			return nil, nil, gz
		}
		return nil, nil, tsplib.FileError(path, tsplib.BareError(err))
	}
	return br, head, nil
}

// PictureError is Read's error for a PNG, JPEG, GIF, BMP or WebP file, which front ends offer to stipple.
type PictureError struct {
	File   string
	Format string // "PNG", "JPEG", …
}

// Error says what the file is, in one line naming it.
func (e *PictureError) Error() string {
	return (&tsplib.Error{File: e.File, Msg: "a " + e.Format + " picture, not an instance"}).Error()
}

// pictureSignatures are the first bytes of pictures opened by mistake.
var pictureSignatures = []struct{ magic, format string }{
	{"\x89PNG\r\n\x1a\n", "PNG"}, {"\xFF\xD8\xFF", "JPEG"}, {"GIF87a", "GIF"}, {"GIF89a", "GIF"}, {"BM", "BMP"},
}

// notAnInstance tells a file that cannot be an instance by its start.
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
	// No text file has a NUL byte; the readers would quote garbage.
	if bytes.IndexByte(head, 0) >= 0 {
		return &tsplib.Error{File: path, Msg: "the file looks binary, not an instance"}
	}
	return nil
}

// Load reads the instance at path and attaches its known optimum from optimaDirs, then $TSPLIB_OPTIMA.
func Load(path string, optimaDirs ...string) (*problem.Instance, error) {
	in, err := Read(path)
	if err != nil {
		return nil, err
	}
	tsplib.SetOptimum(in, optimaDirs...)
	return in, nil
}

// ReadHeader reads the header of the instance file at path, checked as Read checks it, without the data.
func ReadHeader(path string) (tsplib.Header, error) {
	rf, err := tsplib.OpenRegular(path)
	if err != nil {
		return tsplib.Header{}, err
	}
	f, err := tsplib.NewInput(rf, path)
	if err != nil {
		rf.Close()
		return tsplib.Header{}, err
	}
	defer f.Close()
	br, head, err := sniff(f, path)
	if err == nil {
		err = notAnInstance(path, head) // Read's words for an empty or binary file
	}
	if err != nil {
		return tsplib.Header{}, err
	}
	var h tsplib.Header
	switch {
	case isMatrixCSV(head, len(head) < readerSniffSize):
		h, err = matrixHeader(br, path)
	case isPointList(head, path):
		h, err = pointsHeader(br, path)
	default:
		h, err = tsplib.ParseHeader(br, path)
	}
	return h, f.Err(err)
}

// pointsHeader describes a point list from its header line and line count, its first point read as Read reads it.
func pointsHeader(r io.Reader, filename string) (tsplib.Header, error) {
	p := &pointReader{br: bufio.NewReaderSize(tsplib.LineEnds(r), MaxPointLine), file: filename}
	h := tsplib.Header{Name: BaseName(filename), Type: "TSP", Metric: problem.Euc2D.String(), Section: PointsSection}
	for {
		b, err := p.nextLine()
		if err != nil {
			return tsplib.Header{}, err
		}
		if b == nil {
			break
		}
		if h.Dimension == 0 && !p.hasHeader && !tsplib.IsNumber(b) {
			if err := p.header(splitFields(b)); err != nil {
				return tsplib.Header{}, err
			}
			if p.cols.latLon {
				h.Metric = problem.GreatCircle.String()
			}
			continue
		}
		if h.Dimension == 0 {
			if err := p.point(splitFields(b)); err != nil {
				return tsplib.Header{}, err
			}
		}
		h.Dimension++
	}
	if h.Dimension == 0 {
		return tsplib.Header{}, p.end()
	}
	return h, nil
}

// BaseName is the instance name at path: its base name without .gz and extension.
func BaseName(path string) string {
	base := filepath.Base(tsplib.TrimGz(path))
	return strings.TrimSuffix(base, filepath.Ext(base))
}
