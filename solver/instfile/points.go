package instfile

import (
	"bufio"
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// Extensions are the instance files' extensions Read takes, lower case with the dot.
var Extensions = []string{".tsp", ".csv", ".tsv", ".txt", ".xy"}

// pointExtensions name a point list where the content does not tell.
var pointExtensions = []string{".csv", ".tsv", ".txt", ".xy"}

// HasInstanceExtension reports whether path ends in one of Extensions (or with .gz).
func HasInstanceExtension(path string) bool {
	return slices.Contains(Extensions, strings.ToLower(filepath.Ext(tsplib.TrimGz(path))))
}

// Limits on what the point-list reader accepts.
const (
	// MaxPointLine bounds one line of a point list.
	MaxPointLine = 4096
	// MaxPointCoord bounds the magnitude of a point list's coordinate.
	MaxPointCoord = 1e15
)

// pointSpan bounds a point list's scaled extent: six significant digits, within the GPU engines' float32 and int32 limits.
const pointSpan = 1e7

// readerSniffSize is how much of a file Read looks at to tell its format.
const readerSniffSize = 4096

// isPointList tells a point list from TSPLIB by its first data line: a number or column header, or a comma or tab,
// against a ':' or a keyword; else the extension decides.
func isPointList(head []byte, path string) bool {
	for len(head) > 0 {
		line := head
		if i := bytes.IndexByte(head, '\n'); i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		line = bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF")))
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		fields := splitFields(line)
		if len(fields) == 0 {
			continue
		}
		if tsplib.IsNumber(fields[0]) {
			return true
		}
		if _, err := headerColumns(fields); err == nil {
			return true
		}
		first := strings.ToUpper(string(fields[0]))
		keyword := tsplib.IsSpecKeyword(first) || first == "EOF" || strings.HasSuffix(first, "_SECTION")
		switch {
		case bytes.IndexByte(line, ':') >= 0:
			return false
		case keyword && bytes.IndexByte(line, ',') < 0:
			return false
		case bytes.ContainsAny(line, ",\t"):
			return true
		}
		break
	}
	return slices.Contains(pointExtensions, strings.ToLower(filepath.Ext(tsplib.TrimGz(path))))
}

// pointReader reads a point list line by line.
type pointReader struct {
	br   *bufio.Reader
	file string
	line int // line of the last line read

	cols      columns // where the fields are; width 0 until the header or the first line
	hasHeader bool    // the file has a header line
	first     int     // line of the first data line
	ids       []int64
	labels    []string // every id as written, once one is not an integer
	xy        [2][]float64
	text      problem.CoordText // the coordinates as written
	idLine    []int32           // line of each point, kept only when there are ids
}

// errf returns the *Error "FILE:LINE: problem".
func (p *pointReader) errf(line int, format string, args ...any) error {
	return tsplib.Errorf(p.file, line, format, args...)
}

// nextLine returns the next line that is not blank or a comment, valid until the next call (nil at the end).
func (p *pointReader) nextLine() ([]byte, error) {
	for {
		b, err := p.br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, p.errf(p.line+1, "line longer than %d bytes", MaxPointLine)
		}
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, p.errf(p.line+1, "%v", tsplib.BareError(err))
		}
		if len(b) == 0 && err != nil {
			return nil, nil
		}
		p.line++
		if p.line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
		}
		b = bytes.TrimSpace(b)
		if len(b) > 0 && b[0] != '#' {
			return b, nil
		}
	}
}

// ParsePoints reads a point list from r: "x y" or "id x y" a line (commas, tabs or spaces), an optional header
// (x,y / id,x,y / lat,lon: degrees, great-circle metres), blank and '#' lines skipped. EUC_2D coordinates are shifted
// to 0 and scaled by 10^ScaleExp; Points keep them as written. filename names r in errors and the instance.
func ParsePoints(r io.Reader, filename string) (*problem.Instance, error) {
	p := &pointReader{br: bufio.NewReaderSize(tsplib.LineEnds(r), MaxPointLine), file: filename}
	if err := p.readAll(); err != nil {
		return nil, err
	}
	return p.build()
}

// readAll reads the header, if any, and every point.
func (p *pointReader) readAll() error {
	for {
		b, err := p.nextLine()
		if err != nil {
			return err
		}
		if b == nil {
			return p.end()
		}
		fields := splitFields(b)
		if p.cols.width == 0 && !tsplib.IsNumber(fields[0]) {
			if err := p.header(fields); err != nil {
				return err
			}
			continue
		}
		if err := p.point(fields); err != nil {
			return err
		}
	}
}

// header applies the header line.
func (p *pointReader) header(fields [][]byte) error {
	c, err := headerColumns(fields)
	if err != nil {
		return p.errf(p.line, "%v", err)
	}
	p.cols, p.hasHeader = c, true
	return nil
}

// end checks what the whole file said once it is read.
func (p *pointReader) end() error {
	if len(p.xy[0]) > 0 {
		return nil
	}
	if p.hasHeader {
		return p.errf(p.line, "a header but no points")
	}
	return &tsplib.Error{File: p.file, Msg: "no points (want one point per line: x y, or id x y)"}
}

// point reads one data line.
func (p *pointReader) point(fields [][]byte) error {
	if p.cols.width == 0 {
		if len(fields) != 2 && len(fields) != 3 {
			return p.errf(p.line, "%d fields, want 2 (x y) or 3 (id x y)", len(fields))
		}
		p.cols, p.first = plainColumns(len(fields)), p.line
	}
	if len(fields) != p.cols.width {
		return p.errf(p.line, "%d fields, want %d as %s", len(fields), p.cols.width, p.shape())
	}
	if len(p.xy[0]) >= tsplib.MaxDimension {
		return p.errf(p.line, "more than %d points", tsplib.MaxDimension)
	}
	if p.cols.id >= 0 {
		if err := p.id(fields[p.cols.id]); err != nil {
			return err
		}
		p.idLine = append(p.idLine, int32(min(p.line, math.MaxInt32)))
	}
	for k, col := range p.cols.coord {
		v, err := p.coord(fields[col], k)
		if err != nil {
			return err
		}
		p.xy[k] = append(p.xy[k], v)
		p.text.Append(fields[col])
	}
	return nil
}

// id reads a point's id: an integer, or a name (then every id is a name).
func (p *pointReader) id(f []byte) error {
	if len(f) == 0 {
		return p.errf(p.line, "empty id")
	}
	if len(f) > tsplib.MaxTokenLength {
		return p.errf(p.line, "id of %d bytes is too long (max %d)", len(f), tsplib.MaxTokenLength)
	}
	if p.labels == nil {
		if id, err := strconv.ParseInt(string(f), 10, 64); err == nil {
			p.ids = append(p.ids, id)
			return nil
		}
		p.labels = make([]string, len(p.ids), cap(p.ids)+1)
		for i, id := range p.ids {
			p.labels[i] = strconv.FormatInt(id, 10)
		}
		p.ids = nil
	}
	p.labels = append(p.labels, string(f))
	return nil
}

// shape names the fields a line must have.
func (p *pointReader) shape() string {
	switch {
	case p.hasHeader:
		return "the header says (" + strings.Join(p.cols.header, ",") + ")"
	case p.cols.width == 3:
		return fmt.Sprintf("on line %d (id x y)", p.first)
	}
	return fmt.Sprintf("on line %d (x y)", p.first)
}

// coord parses coordinate column k (0 or 1) of a line.
func (p *pointReader) coord(f []byte, k int) (float64, error) {
	if len(f) > tsplib.MaxTokenLength {
		return 0, p.errf(p.line, "field of %d bytes is too long (max %d)", len(f), tsplib.MaxTokenLength)
	}
	v, err := strconv.ParseFloat(string(f), 64)
	if err != nil && !errors.Is(err, strconv.ErrRange) {
		return 0, p.errf(p.line, "coordinate %s is not a number", tsplib.Quote(string(f)))
	}
	if math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > MaxPointCoord {
		return 0, p.errf(p.line, "coordinate %s is not a finite number within ±%g", tsplib.Quote(string(f)), MaxPointCoord)
	}
	if p.cols.latLon {
		if k == p.cols.latCol && math.Abs(v) > 90 {
			return 0, p.errf(p.line, "latitude %s is outside -90..90", tsplib.Quote(string(f)))
		}
		if k != p.cols.latCol && math.Abs(v) > 360 {
			return 0, p.errf(p.line, "longitude %s is outside -360..360", tsplib.Quote(string(f)))
		}
	}
	return v, nil
}

// checkIDs rejects an id given twice, naming the later line.
func (p *pointReader) checkIDs() error {
	switch {
	case p.labels != nil:
		return checkDuplicates(p, p.labels, tsplib.Quote)
	case p.ids != nil:
		return checkDuplicates(p, p.ids, func(id int64) string { return strconv.FormatInt(id, 10) })
	}
	return nil
}

// checkDuplicates rejects a repeated id, naming the earliest line repeating one.
func checkDuplicates[T cmp.Ordered](p *pointReader, ids []T, show func(T) string) error {
	order := make([]int32, len(ids))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortFunc(order, func(a, b int32) int {
		if c := cmp.Compare(ids[a], ids[b]); c != 0 {
			return c
		}
		return int(a - b)
	})
	var worst, first int32 = -1, -1
	for k := 1; k < len(order); k++ {
		a, b := order[k-1], order[k]
		if ids[a] == ids[b] && (worst < 0 || p.idLine[b] < p.idLine[worst]) {
			worst, first = b, a
		}
	}
	if worst >= 0 {
		return p.errf(int(p.idLine[worst]), "id %s given twice (first on line %d)", show(ids[worst]), p.idLine[first])
	}
	return nil
}

// build makes the instance: the scale, the metric, the names.
func (p *pointReader) build() (*problem.Instance, error) {
	if err := p.checkIDs(); err != nil {
		return nil, err
	}
	p.idLine = nil
	name := BaseName(p.file)
	pl := &problem.PointList{IDs: p.ids, Labels: p.labels, Cols: p.xy, Names: p.cols.names, Text: p.text}
	in := &problem.Instance{Name: name, N: len(p.xy[0]), Points: pl}
	if p.cols.latLon {
		in.Metric = problem.GreatCircle
		in.X, in.Y = p.xy[1-p.cols.latCol], p.xy[p.cols.latCol]
		in.ScaleExp = scaleExp(sphereExtent(in.X, in.Y))
	} else {
		in.Metric = problem.Euc2D
		x0, x1 := slices.Min(p.xy[0]), slices.Max(p.xy[0])
		y0, y1 := slices.Min(p.xy[1]), slices.Max(p.xy[1])
		in.ScaleExp = scaleExp(math.Max(x1-x0, y1-y0))
		in.X, in.Y = shiftScale(p.xy[0], x0, in.ScaleExp), shiftScale(p.xy[1], y0, in.ScaleExp)
	}
	in.Prepare()
	return in, nil
}

// sphereExtent bounds from above the larger side in metres of the box holding the points.
func sphereExtent(lon, lat []float64) float64 {
	o0, o1 := slices.Min(lon), slices.Max(lon)
	a0, a1 := slices.Min(lat), slices.Max(lat)
	widest := 1.0 // the equator lies within the range
	if a0 > 0 || a1 < 0 {
		widest = math.Cos(math.Min(math.Abs(a0), math.Abs(a1)) * math.Pi / 180)
	}
	deg := math.Min(math.Max((o1-o0)*widest, a1-a0), 180)
	return problem.EarthRadius * deg * math.Pi / 180
}

// scaleExp returns the power of ten that brings extent into [pointSpan/10, pointSpan).
func scaleExp(extent float64) int {
	if extent <= 0 || math.IsNaN(extent) || math.IsInf(extent, 0) {
		return 0
	}
	k := int(math.Floor(math.Log10(pointSpan / extent)))
	for k > -300 && extent*math.Pow10(k) >= pointSpan {
		k--
	}
	for k < 300 && extent*math.Pow10(k+1) < pointSpan {
		k++
	}
	return min(max(k, -300), 300)
}

// shiftScale returns (v - origin) * 10^k for each value.
func shiftScale(v []float64, origin float64, k int) []float64 {
	s := math.Pow10(k)
	out := make([]float64, len(v))
	for i, c := range v {
		out[i] = (c - origin) * s
	}
	return out
}
