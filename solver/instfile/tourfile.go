package instfile

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// idColumns are the header names that mark a tour file's id column, in order.
var idColumns = []string{"id", "city", "node", "name"}

// ReadStartTour reads a tour of in from path for a run to start from (ParseRoute), gzipped or not; errors name file and line.
func ReadStartTour(path string, in *problem.Instance) ([]int, error) {
	t, _, err := ReadRoute(path, in)
	return t, err
}

// ReadRoute is ReadStartTour that also reports whether the file says the cities are an open path.
func ReadRoute(path string, in *problem.Instance) (tour []int, isPath bool, err error) {
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return nil, false, tsplib.Errorf(path, 0, "is a folder, not a tour file")
	}
	f, err := tsplib.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	t, isPath, err := ParseRoute(f, path, in)
	if err := f.Check(err); err != nil {
		return nil, false, err
	}
	return t, isPath, nil
}

// ParseRoute reads a tour of in from r: a TSPLIB TOUR file, or city ids in tour order (commas, blanks or lines, up to
// -1), with an optional header (so a point list in tour order reads too). Ids are the file's own, else 1..N; the tour
// must name each city once and keep fixed edges. isPath: the file says it is an open path.
func ParseRoute(r io.Reader, filename string, in *problem.Instance) (tour []int, isPath bool, err error) {
	br := bufio.NewReaderSize(tsplib.LineEnds(r), readerSniffSize)
	head, _ := br.Peek(readerSniffSize)
	var t []int
	if k := structured(head); k != 0 {
		t, isPath, err = parseStructuredTour(br, filename, in, k)
	} else if isTSPLIBTour(head) {
		t, isPath, err = tsplib.ParseRoute(br, filename, in.N)
	} else {
		t, isPath, err = parseIDTour(br, filename, in)
	}
	if err != nil {
		return nil, false, err
	}
	if err := in.CheckFixedEdges(t); err != nil {
		return nil, false, tsplib.Errorf(filename, 0, "%v", err)
	}
	return t, isPath, nil
}

// isTSPLIBTour reports whether head's first data line starts a TSPLIB file.
func isTSPLIBTour(head []byte) bool {
	for line := range bytes.SplitSeq(head, []byte("\n")) {
		line = bytes.TrimSpace(bytes.TrimPrefix(line, []byte("\xEF\xBB\xBF")))
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		if bytes.IndexByte(line, ':') >= 0 {
			return true
		}
		f := bytes.Fields(line)
		first := strings.ToUpper(string(f[0]))
		// a lone "name" is a header of names, "NAME x" a TSPLIB keyword
		return tsplib.IsSpecKeyword(first) && len(f) > 1 || strings.HasSuffix(first, "_SECTION")
	}
	return false
}

// idTour reads a text of city ids: the state of parseIDTour.
type idTour struct {
	file  string
	in    *problem.Instance
	city  map[int64]int  // id -> city, nil when ids are 1..N
	named map[string]int // name -> city, when the point list gave names
	col   int            // the id column under a header, -1 without one
	width int            // the header's columns, 0 without one
	tour  []int
	first []int32 // the line each city was first given on, 0: not yet
	// coords: under a coordinate header without ids, the lines' points name the cities
	coords *columns
	keys   [][2]float64
}

// parseIDTour reads a text or CSV of city ids (see ParseRoute).
func parseIDTour(br *bufio.Reader, filename string, in *problem.Instance) ([]int, bool, error) {
	lr := &lineReader{br: br, file: filename}
	s := &idTour{file: filename, in: in, col: -1, first: make([]int32, in.N)}
	s.named = cityNames(in)
	if in.Points != nil && in.Points.IDs != nil {
		s.city = make(map[int64]int, in.N)
		for i := range in.N {
			s.city[in.Points.ID(i)] = i
		}
	}
	for header := true; ; header = false {
		b, err := lr.next()
		if err != nil {
			return nil, false, err
		}
		if b == nil {
			break
		}
		done, err := s.line(b, header, lr.line)
		if err != nil {
			return nil, false, err
		}
		if done {
			break
		}
	}
	if s.coords != nil {
		t, err := coordTour(s.keys, filename, in)
		return t, lr.path, err
	}
	if len(s.tour) < in.N {
		for c, l := range s.first {
			if l == 0 {
				return nil, false, tsplib.Errorf(filename, max(lr.line, 1), "%d of the %d cities given: city %d (id %s) is missing", len(s.tour), in.N, c+1, s.show(c))
			}
		}
	}
	return s.tour, lr.path, nil
}

// line takes one line: a header, a city's line, a point under a coordinate header, or ids; done at a -1.
func (s *idTour) line(b []byte, header bool, line int) (done bool, err error) {
	fields := splitFields(b)
	_, isName := s.named[string(fields[0])]
	if c, ok := s.named[string(unquote(b))]; ok && s.width <= 1 {
		// a whole line that names a city, blanks and commas included
		return false, s.put(c, tsplib.Quote(string(unquote(b))), line)
	}
	if header && !tsplib.IsNumber(fields[0]) && !isName {
		if c, err := headerColumns(fields); err == nil && c.id < 0 {
			s.coords = &c // a point list in tour order without ids
		}
		s.col, s.width = headerIDColumn(fields), len(fields)
		return false, nil
	}
	if s.coords != nil {
		k, err := pointKey(fields, *s.coords)
		if err != nil {
			return false, tsplib.Errorf(s.file, line, "%v", err)
		}
		s.keys = append(s.keys, k)
		return false, nil
	}
	if s.col >= 0 {
		if s.col >= len(fields) {
			return false, tsplib.Errorf(s.file, line, "%d fields, the header names the id in column %d", len(fields), s.col+1)
		}
		fields = fields[s.col : s.col+1]
	}
	return s.add(fields, line)
}

// headerIDColumn is a header's id column (idColumns), else the first.
func headerIDColumn(fields [][]byte) int {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = strings.ToLower(string(f))
	}
	for _, want := range idColumns {
		if i := slices.Index(names, want); i >= 0 {
			return i
		}
	}
	return 0
}

// show is how the file names city c: its name, or its id.
func (s *idTour) show(c int) string {
	switch {
	case s.named != nil:
		return tsplib.Quote(s.in.CityLabel(c))
	case s.city == nil:
		return strconv.Itoa(c + 1)
	}
	return strconv.FormatInt(s.in.Points.ID(c), 10)
}

// add takes the ids of one line; done is true at a -1.
func (s *idTour) add(fields [][]byte, line int) (done bool, err error) {
	for _, f := range fields {
		if s.named != nil && string(f) != "-1" {
			c, ok := s.named[string(f)]
			if !ok {
				return false, tsplib.Errorf(s.file, line, "%s is not a city of %s (the names its file gives)", tsplib.Quote(string(f)), s.in.Name)
			}
			if err := s.put(c, tsplib.Quote(string(f)), line); err != nil {
				return false, err
			}
			continue
		}
		id, perr := strconv.ParseInt(string(f), 10, 64)
		if perr != nil {
			return false, tsplib.Errorf(s.file, line, "%s is not a city id (an integer)", tsplib.Quote(string(f)))
		}
		if id == -1 {
			return true, nil
		}
		c, ok := s.cityOf(id)
		if !ok {
			return false, tsplib.Errorf(s.file, line, "id %d is not a city of %s%s", id, s.in.Name, s.idRange())
		}
		if err := s.put(c, strconv.FormatInt(id, 10), line); err != nil {
			return false, err
		}
	}
	return false, nil
}

// put appends city c, given as what on line, unless it was given before.
func (s *idTour) put(c int, what string, line int) error {
	if l := s.first[c]; l != 0 {
		return tsplib.Errorf(s.file, line, "city %s given twice (first on line %d)", what, l)
	}
	s.first[c] = int32(max(1, min(line, 1<<31-1)))
	s.tour = append(s.tour, c)
	return nil
}

// cityNames maps the names of in's cities where its file named them (nil otherwise).
func cityNames(in *problem.Instance) map[string]int {
	if !in.Named() {
		return nil
	}
	m := make(map[string]int, in.N)
	for i := range in.N {
		m[in.CityLabel(i)] = i
	}
	return m
}

// cityOf is the city an id names.
func (s *idTour) cityOf(id int64) (int, bool) {
	if s.city != nil {
		c, ok := s.city[id]
		return c, ok
	}
	if id < 1 || id > int64(s.in.N) {
		return 0, false
	}
	return int(id - 1), true
}

// idRange says which ids are the instance's, when they are 1..N.
func (s *idTour) idRange() string {
	if s.city != nil {
		return " (ids as its file gives them)"
	}
	return fmt.Sprintf(" (ids 1..%d)", s.in.N)
}

// lineReader reads a file's lines that are not blank or comments.
type lineReader struct {
	br   *bufio.Reader
	file string
	line int  // the line of the last line read
	path bool // a comment said the cities are an open path (tsplib.PathNote)
}

// next returns the next data line, trimmed (nil at the end).
func (r *lineReader) next() ([]byte, error) {
	for {
		b, err := r.br.ReadBytes('\n')
		if err != nil && err != io.EOF {
			return nil, tsplib.Errorf(r.file, r.line+1, "%v", tsplib.BareError(err))
		}
		if len(b) == 0 && err != nil {
			return nil, nil
		}
		r.line++
		if r.line == 1 {
			b = bytes.TrimPrefix(b, []byte("\xEF\xBB\xBF"))
		}
		b = bytes.TrimSpace(b)
		if len(b) > 0 && b[0] != '#' {
			return b, nil
		}
		if len(b) > 0 && tsplib.IsPathNote(string(b[1:])) {
			r.path = true
		}
	}
}
