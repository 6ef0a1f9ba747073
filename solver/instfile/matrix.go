package instfile

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// MatrixSection is the Section of a cost matrix CSV's Header.
const MatrixSection = "MATRIX"

// matrixSpan bounds the largest scaled cost of a matrix with fractions.
const matrixSpan = pointSpan

// maxCommentNames is how many city names the instance's comment lists.
const maxCommentNames = 12

// maxPointColumns is the most numbers on a point list's line.
const maxPointColumns = 3

// isMatrixCSV tells a cost matrix by head: rows of equal counts of numbers (optional names), longer than a point's
// line, or square with a zero diagonal.
func isMatrixCSV(head []byte, whole bool) bool {
	var rows [][][]byte
	header := false
	for len(head) > 0 {
		line := head
		i := bytes.IndexByte(head, '\n')
		if i >= 0 {
			line, head = head[:i], head[i+1:]
		} else {
			head = nil
		}
		complete := i >= 0 || whole
		line = bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF")))
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		fields := splitFields(line)
		if len(rows) == 0 && !header {
			if bytes.IndexByte(line, ':') >= 0 || isTSPLIBTour(line) {
				return false
			}
			if _, ok := matrixRow(fields); !ok {
				if !complete || !namesHeader(fields) {
					return false
				}
				header = true
				continue
			}
		}
		vals, ok := matrixRow(fields)
		if !ok {
			return false
		}
		if len(rows) == 0 && len(vals) > maxPointColumns+1 {
			return true
		}
		if !complete {
			return false
		}
		rows = append(rows, vals)
	}
	if !whole || len(rows) < 2 {
		return false
	}
	for i, r := range rows {
		if len(r) != len(rows) {
			return false
		}
		if v, err := strconv.ParseFloat(string(r[i]), 64); err != nil || v != 0 {
			return false
		}
	}
	return true
}

// matrixRow returns a matrix row's numbers, without its leading name.
func matrixRow(fields [][]byte) ([][]byte, bool) {
	if len(fields) > 1 && !tsplib.IsNumber(fields[0]) {
		fields = fields[1:]
	}
	for _, f := range fields {
		if !tsplib.IsNumber(f) {
			return nil, false
		}
	}
	return fields, len(fields) > 0
}

// namesHeader reports whether a header names cities rather than columns.
func namesHeader(fields [][]byte) bool {
	if _, err := headerColumns(fields); err == nil {
		return false
	}
	for _, f := range fields {
		n := strings.ToLower(string(f))
		if n == "x" || n == "y" || slices.Contains(latNames, n) || slices.Contains(lonNames, n) {
			return false
		}
	}
	return true
}

// instanceLinesHint ends a malformed matrix's error: such a file is often many instances, a line each.
const instanceLinesHint = " (a file of one instance a line, x1 y1 x2 y2 …, is read by tsp batch)"

// matrixReader reads a cost matrix CSV: the state of ParseMatrixCSV.
type matrixReader struct {
	lr       *lineReader
	file     string
	names    []string // the header's, nil without one
	nameLine int      // the header's line
	rowNames []string
	lines    []int // the line of each row
	vals     []float64
	n        int // numbers a row, 0 until the first row
	integral bool
	max      float64
}

func (m *matrixReader) errf(line int, format string, args ...any) error {
	return tsplib.Errorf(m.file, line, format, args...)
}

// ParseMatrixCSV reads a square symmetric cost matrix (commas, tabs or blanks, 0 diagonal, optional names header and
// column; blank and '#' lines skipped) as an EXPLICIT instance. Fractions are scaled by 10^ScaleExp to keep six
// significant digits. filename names r in errors ("FILE:LINE: problem") and the instance.
func ParseMatrixCSV(r io.Reader, filename string) (*problem.Instance, error) {
	m := &matrixReader{lr: &lineReader{br: bufio.NewReader(tsplib.LineEnds(r)), file: filename}, file: filename, integral: true}
	if err := m.readAll(); err != nil {
		return nil, err
	}
	return m.build()
}

// readAll reads the header, if any, and every row.
func (m *matrixReader) readAll() error {
	for {
		b, err := m.lr.next()
		if err != nil {
			return err
		}
		if b == nil {
			break
		}
		fields := splitFields(b)
		if m.n == 0 && m.names == nil && len(fields) > 0 && !tsplib.IsNumber(fields[len(fields)-1]) {
			m.header(fields)
			m.nameLine = m.lr.line
			continue
		}
		if err := m.row(fields); err != nil {
			return err
		}
	}
	if m.n == 0 {
		return &tsplib.Error{File: m.file, Msg: "no rows (want n rows of n numbers: a cost matrix)"}
	}
	if len(m.lines) != m.n {
		return m.errf(m.lr.line, "%d rows of %d numbers: a cost matrix must be square%s", len(m.lines), m.n, instanceLinesHint)
	}
	if m.names != nil && len(m.names) != m.n {
		return m.errf(m.nameLine, "the header names %d cities, the rows have %d numbers", len(m.names), m.n)
	}
	return m.checkNames()
}

// header keeps the header's names; an empty first name is the corner.
func (m *matrixReader) header(fields [][]byte) {
	for _, f := range fields {
		m.names = append(m.names, string(f))
	}
}

// row reads one row of the matrix.
func (m *matrixReader) row(fields [][]byte) error {
	line := m.lr.line
	name := ""
	if len(fields) > 1 && !tsplib.IsNumber(fields[0]) {
		name, fields = string(fields[0]), fields[1:]
	}
	if m.n == 0 {
		m.n = len(fields)
		if m.n > tsplib.MaxExplicitDimension {
			return m.errf(line, "%d numbers on a row: a cost matrix has at most %d cities", m.n, tsplib.MaxExplicitDimension)
		}
		if m.names != nil && len(m.names) == m.n+1 && name != "" {
			m.names = m.names[1:] // the corner above the column of names
		}
		m.vals = make([]float64, 0, m.n*m.n)
	}
	if len(fields) != m.n {
		return m.errf(line, "%d numbers, want %d as on line %d: a cost matrix must be square", len(fields), m.n, m.lines[0])
	}
	if len(m.lines) == m.n {
		return m.errf(line, "more than %d rows of %d numbers: a cost matrix must be square%s", m.n, m.n, instanceLinesHint)
	}
	if name != "" || m.rowNames != nil {
		m.rowNames = append(m.rowNames, name)
	}
	for j, f := range fields {
		v, err := strconv.ParseFloat(string(f), 64)
		switch {
		case err != nil || math.IsNaN(v) || math.IsInf(v, 0):
			return m.errf(line, "column %d: %s is not a number", j+1, tsplib.Quote(string(f)))
		case v < 0:
			return m.errf(line, "column %d: cost %s is negative", j+1, string(f))
		case v > math.MaxInt32:
			return m.errf(line, "column %d: cost %s is above %d", j+1, string(f), math.MaxInt32)
		case j == len(m.lines) && v != 0:
			return m.errf(line, "column %d: a city's cost to itself is %s, want 0%s", j+1, string(f), instanceLinesHint)
		}
		m.integral = m.integral && v == math.Trunc(v)
		m.max = max(m.max, v)
		m.vals = append(m.vals, v)
	}
	m.lines = append(m.lines, line)
	return nil
}

// checkNames checks that a column of names agrees with the header.
func (m *matrixReader) checkNames() error {
	if m.rowNames == nil || m.names == nil {
		return nil
	}
	for i, nm := range m.rowNames {
		if nm != "" && nm != m.names[i] {
			return m.errf(m.lines[i], "row %d is named %s but column %d %s", i+1, tsplib.Quote(nm), i+1, tsplib.Quote(m.names[i]))
		}
	}
	return nil
}

// build scales the costs, checks symmetry and makes the instance.
func (m *matrixReader) build() (*problem.Instance, error) {
	n := m.n
	k := 0
	if !m.integral && m.max > 0 {
		k = max(0, int(math.Floor(math.Log10(matrixSpan/10)-math.Floor(math.Log10(m.max)))))
	}
	scale := math.Pow10(k)
	w := make([]int32, n*n)
	for i, v := range m.vals {
		w[i] = int32(math.Round(v * scale))
	}
	for i := range n {
		for j := range i {
			if w[i*n+j] != w[j*n+i] {
				return nil, m.errf(m.lines[i], "the matrix is not symmetric: row %d column %d is %s but row %d column %d (line %d) is %s; TSP Lab solves the symmetric TSP",
					i+1, j+1, fmtCost(m.vals[i*n+j]), j+1, i+1, m.lines[j], fmtCost(m.vals[j*n+i]))
			}
		}
	}
	name := BaseName(m.file)
	in := &problem.Instance{Name: name, N: n, Metric: problem.Explicit, Matrix: w, ScaleExp: k}
	if m.names != nil {
		in.CityNames = m.names
		in.Comment = "cities: " + strings.Join(m.names[:min(len(m.names), maxCommentNames)], ", ")
		if len(m.names) > maxCommentNames {
			in.Comment += ", …"
		}
	}
	in.Prepare()
	return in, nil
}

// fmtCost shows a cost as the file gave it, near enough.
func fmtCost(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// matrixHeader describes a cost matrix CSV by its row count, unparsed.
func matrixHeader(r io.Reader, filename string) (tsplib.Header, error) {
	lr := &lineReader{br: bufio.NewReader(tsplib.LineEnds(r)), file: filename}
	h := tsplib.Header{Name: BaseName(filename), Type: "TSP", Metric: problem.Explicit.String(), Format: "FULL_MATRIX", Section: MatrixSection}
	first := true
	for {
		b, err := lr.next()
		if err != nil {
			return tsplib.Header{}, err
		}
		if b == nil {
			break
		}
		if first && !tsplib.IsNumber(lastField(b)) {
			first = false
			continue
		}
		first = false
		h.Dimension++
	}
	if h.Dimension == 0 {
		return tsplib.Header{}, &tsplib.Error{File: filename, Msg: "no rows (want n rows of n numbers: a cost matrix)"}
	}
	return h, nil
}

// lastField is the last field of a line.
func lastField(b []byte) []byte {
	f := splitFields(b)
	if len(f) == 0 {
		return nil
	}
	return f[len(f)-1]
}

// sniffMatrix reports whether the start of br reads as a cost matrix.
func sniffMatrix(br *bufio.Reader) bool {
	head, _ := br.Peek(readerSniffSize)
	return isMatrixCSV(head, len(head) < readerSniffSize)
}
