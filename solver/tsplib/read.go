package tsplib

import (
	"fmt"
	"io"
	"math"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver/problem"
)

// Limits on what the reader accepts.
const (
	// MaxDimension is the largest DIMENSION accepted for any instance.
	MaxDimension = math.MaxInt32
	// MaxExplicitDimension is an EXPLICIT instance's largest DIMENSION.
	MaxExplicitDimension = 1 << 14
	// MaxCoord bounds a coordinate so every distance fits an int32 and every tour length an int64.
	MaxCoord = 1 << 28
)

// Read reads the TSPLIB95 instance at path (see Parse), gzip too, its Path set; package instfile reads other formats.
func Read(path string) (*problem.Instance, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	in, err := Parse(f, path)
	if err := f.Check(err); err != nil {
		return nil, err
	}
	in.Path = path
	return in, nil
}

// Parse reads a TSPLIB95 TSP instance from r, any supported metric or EXPLICIT matrix format, with display data and
// fixed edges; filename names it in each *Error and when NAME is absent. The instance is Prepared.
func Parse(r io.Reader, filename string) (*problem.Instance, error) {
	p := newParser(r, filename)
	if err := p.parse(); err != nil {
		return nil, err
	}
	return p.build()
}

func newParser(r io.Reader, filename string) *parser {
	return &parser{lx: newLexer(r, filename), file: filename, dim: -1}
}

// parser holds what the header and sections have said so far.
type parser struct {
	lx   *lexer
	file string
	// headerOnly stops parse at the first section keyword.
	headerOnly bool
	// sectionLine is the line of the first section keyword (0: none yet).
	sectionLine int
	// section is that first section keyword, in capitals.
	firstSection string

	name, typ, comment string
	seen               map[string]int // keyword -> line first given

	dim        int // -1 until DIMENSION
	metric     problem.Metric
	haveMetric bool
	ewf        string // EDGE_WEIGHT_FORMAT
	ewfLine    int
	nodeType   string // NODE_COORD_TYPE
	dispType   string // DISPLAY_DATA_TYPE

	x, y, z  []float64 // node coordinates in node order
	dx, dy   []float64 // display coordinates
	weights  []int32   // EDGE_WEIGHT_SECTION in file order (full matrix for FULL_MATRIX)
	fixed    [][2]int
	fixDeg   map[int]int // fixed edges per node
	fixUF    map[int]int // union–find parent over fixed-edge nodes
	lastLine int
}

func (p *parser) errf(line int, format string, args ...any) error {
	return Errorf(p.file, line, format, args...)
}

// unsupportedTypes are the TSPLIB TYPEs this reader knows but does not solve.
var unsupportedTypes = map[string]string{
	"ATSP": "asymmetric TSP",
	"SOP":  "sequential ordering problem",
	"HCP":  "Hamiltonian cycle problem",
	"CVRP": "capacitated vehicle routing problem",
	"TOUR": "a tour, not an instance: read it with ReadTour",
}

// unsupportedMetrics are EDGE_WEIGHT_TYPEs this reader names but refuses.
var unsupportedMetrics = map[string]bool{
	"XRAY1": true, "XRAY2": true, "SPECIAL": true, "GEOM": true, "GEOM_MEEUS": true,
	"TOR_2D": true, "TOR_3D": true, "EUC_3D_CEIL": true, "ATT_CEIL": true,
}

// knownKeys are the TSPLIB95 specification keywords (KEY : value).
var knownKeys = map[string]bool{
	"NAME": true, "TYPE": true, "COMMENT": true, "DIMENSION": true, "CAPACITY": true,
	"EDGE_WEIGHT_TYPE": true, "EDGE_WEIGHT_FORMAT": true, "EDGE_DATA_FORMAT": true,
	"NODE_COORD_TYPE": true, "DISPLAY_DATA_TYPE": true,
}

// matrixFormats are the EDGE_WEIGHT_FORMATs that give an EXPLICIT matrix.
var matrixFormats = map[string]bool{
	"FULL_MATRIX": true, "UPPER_ROW": true, "LOWER_ROW": true, "UPPER_DIAG_ROW": true,
	"LOWER_DIAG_ROW": true, "UPPER_COL": true, "LOWER_COL": true, "UPPER_DIAG_COL": true,
	"LOWER_DIAG_COL": true,
}

func (p *parser) parse() error {
	p.seen = map[string]int{}
	for {
		t, err := p.lx.next()
		if err != nil {
			return err
		}
		p.lastLine = t.line
		if t.eof {
			return nil
		}
		key := strings.ToUpper(t.text)
		if key == ":" {
			return p.errf(t.line, "unexpected ':' where a keyword should be")
		}
		if key == "EOF" {
			return nil
		}
		if strings.HasSuffix(key, "_SECTION") {
			if p.headerOnly {
				p.sectionLine, p.firstSection = t.line, key
				return nil
			}
			if l, dup := p.seen[key]; dup {
				return p.errf(t.line, "%s given twice (first on line %d)", key, l)
			}
			p.seen[key] = t.line
			p.lx.skipColon()
			if err := p.section(key, t.line); err != nil {
				return err
			}
			continue
		}
		if looksBinary(t.text) {
			return p.errf(t.line, "%s", binaryWord(t.text, t.line))
		}
		if IsNumber(t.text) {
			return p.errf(t.line, "unexpected data %s where a keyword should be (more data than DIMENSION declares?)", Quote(t.text))
		}
		rest, err := p.lx.restOfLine()
		if err != nil {
			return err
		}
		val := strings.TrimSpace(rest)
		colon := strings.HasPrefix(val, ":")
		val = strings.TrimSpace(strings.TrimPrefix(val, ":"))
		if !colon && !knownKeys[key] {
			return p.errf(t.line, "unknown keyword %s", Quote(t.text))
		}
		if err := p.header(key, val, t.line); err != nil {
			return err
		}
	}
}

// IsNumber reports whether a word starts like a number (data, not a keyword).
func IsNumber[S string | []byte](s S) bool {
	if len(s) == 0 {
		return false
	}
	c := s[0]
	return c == '-' || c == '+' || c == '.' || (c >= '0' && c <= '9')
}

// found names what ended a section early: a word, or the end of the file.
func found(w []byte, eof bool) string {
	if eof {
		return "end of file"
	}
	return Quote(string(w))
}

func firstField(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return ""
}

// oneOf returns val upper-cased when allowed for key, else an error.
func (p *parser) oneOf(key, val string, line int, allowed ...string) (string, error) {
	t := strings.ToUpper(val)
	if slices.Contains(allowed, t) {
		return t, nil
	}
	return "", p.errf(line, "unknown %s %s (want %s or %s)", key, Quote(val), strings.Join(allowed[:len(allowed)-1], ", "), allowed[len(allowed)-1])
}

// header applies one "KEY : value" line of the specification part.
func (p *parser) header(key, val string, line int) error {
	if err := p.once(key, line); err != nil {
		return err
	}
	switch key {
	case "NAME":
		p.name = val
	case "COMMENT":
		if p.comment != "" {
			p.comment += "\n"
		}
		p.comment += val
	case "TYPE":
		return p.typeHeader(val, line)
	case "DIMENSION":
		return p.dimensionHeader(val, line)
	case "EDGE_WEIGHT_TYPE":
		return p.edgeWeightTypeHeader(val, line)
	case "EDGE_WEIGHT_FORMAT":
		return p.edgeWeightFormatHeader(val, line)
	case "NODE_COORD_TYPE":
		var err error
		p.nodeType, err = p.oneOf(key, val, line, "TWOD_COORDS", "THREED_COORDS", "NO_COORDS")
		return err
	case "DISPLAY_DATA_TYPE":
		var err error
		p.dispType, err = p.oneOf(key, val, line, "COORD_DISPLAY", "TWOD_DISPLAY", "NO_DISPLAY")
		return err
	case "CAPACITY":
		return p.errf(line, "CAPACITY belongs to CVRP files, which are not supported")
	case "EDGE_DATA_FORMAT":
		return p.errf(line, "EDGE_DATA_FORMAT belongs to HCP files, which are not supported")
	default:
		// Other KEY : value lines carry nothing the distances depend on: skipped.
		if !isKeyword(key) {
			return p.errf(line, "unknown keyword %s", Quote(key))
		}
	}
	return nil
}

// once records a once-only header key's line, erring on a repeat.
func (p *parser) once(key string, line int) error {
	switch key {
	case "NAME", "TYPE", "DIMENSION", "EDGE_WEIGHT_TYPE", "EDGE_WEIGHT_FORMAT",
		"NODE_COORD_TYPE", "DISPLAY_DATA_TYPE", "CAPACITY", "EDGE_DATA_FORMAT":
		if l, dup := p.seen[key]; dup {
			return p.errf(line, "%s given twice (first on line %d)", key, l)
		}
		p.seen[key] = line
	}
	return nil
}

// typeHeader applies a TYPE line, accepting only TSP.
func (p *parser) typeHeader(val string, line int) error {
	t := strings.ToUpper(firstField(val))
	if t == "TSP" {
		p.typ = t
		return nil
	}
	if what, ok := unsupportedTypes[t]; ok {
		return p.errf(line, "TYPE %s (%s) is not supported: only TYPE TSP (symmetric) is", t, what)
	}
	return p.errf(line, "unknown TYPE %s (want TSP)", Quote(val))
}

// dimensionHeader applies DIMENSION, an integer in 1..MaxDimension.
func (p *parser) dimensionHeader(val string, line int) error {
	n, err := strconv.ParseInt(val, 10, 64)
	if err != nil {
		if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
			return p.errf(line, "DIMENSION %s is too large (max %d)", Quote(val), MaxDimension)
		}
		return p.errf(line, "DIMENSION %s is not an integer", Quote(val))
	}
	if n < 1 {
		return p.errf(line, "DIMENSION %d must be at least 1", n)
	}
	if n > MaxDimension {
		return p.errf(line, "DIMENSION %d is too large (max %d)", n, MaxDimension)
	}
	p.dim = int(n)
	return nil
}

// edgeWeightTypeHeader applies EDGE_WEIGHT_TYPE, a known metric.
func (p *parser) edgeWeightTypeHeader(val string, line int) error {
	t := strings.ToUpper(val)
	m, ok := problem.ParseMetric(t)
	if !ok {
		if unsupportedMetrics[t] {
			return p.errf(line, "EDGE_WEIGHT_TYPE %s is not supported (supported: EXPLICIT, EUC_2D, CEIL_2D, ATT, GEO, MAN_2D, MAX_2D, EUC_3D, MAN_3D, MAX_3D)", t)
		}
		return p.errf(line, "unknown EDGE_WEIGHT_TYPE %s", Quote(val))
	}
	p.metric, p.haveMetric = m, true
	return nil
}

// edgeWeightFormatHeader applies EDGE_WEIGHT_FORMAT: a matrix format or FUNCTION.
func (p *parser) edgeWeightFormatHeader(val string, line int) error {
	f := strings.ToUpper(val)
	switch {
	case matrixFormats[f], f == "FUNCTION":
	case f == "EDGE_LIST" || f == "ADJ_LIST":
		return p.errf(line, "EDGE_WEIGHT_FORMAT %s is not supported (it is an EDGE_DATA_FORMAT for HCP files)", f)
	default:
		return p.errf(line, "unknown EDGE_WEIGHT_FORMAT %s", Quote(val))
	}
	p.ewf, p.ewfLine = f, line
	return nil
}

// IsSpecKeyword reports whether word is a TSPLIB95 specification keyword.
func IsSpecKeyword(word string) bool { return knownKeys[word] }

// isKeyword reports whether s looks like a TSPLIB keyword: A-Z, 0-9, _.
func isKeyword(s string) bool {
	if s == "" || len(s) > 64 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

func (p *parser) needDim(section string, line int) error {
	if p.dim < 0 {
		return p.errf(line, "%s before DIMENSION", section)
	}
	return nil
}

func (p *parser) section(key string, line int) error {
	switch key {
	case "NODE_COORD_SECTION":
		if err := p.needDim(key, line); err != nil {
			return err
		}
		d := 0
		switch {
		case p.nodeType == "NO_COORDS":
			return p.errf(line, "NODE_COORD_SECTION with NODE_COORD_TYPE NO_COORDS")
		case p.nodeType == "THREED_COORDS":
			d = 3
		case p.nodeType == "TWOD_COORDS":
			d = 2
		case p.haveMetric && p.metric.Is3D():
			d = 3
		case p.haveMetric:
			d = 2
		default:
			return p.errf(line, "NODE_COORD_SECTION before EDGE_WEIGHT_TYPE or NODE_COORD_TYPE: 2-D or 3-D is unknown")
		}
		if p.haveMetric && p.metric != problem.Explicit && p.metric.Is3D() != (d == 3) {
			return p.errf(line, "NODE_COORD_TYPE %s does not fit EDGE_WEIGHT_TYPE %s", p.nodeType, p.metric)
		}
		xs, err := p.coords(key, d)
		if err != nil {
			return err
		}
		p.x, p.y = xs[0], xs[1]
		if d == 3 {
			p.z = xs[2]
		}
	case "DISPLAY_DATA_SECTION":
		if err := p.needDim(key, line); err != nil {
			return err
		}
		xs, err := p.coords(key, 2)
		if err != nil {
			return err
		}
		p.dx, p.dy = xs[0], xs[1]
	case "EDGE_WEIGHT_SECTION":
		return p.edgeWeights(line)
	case "FIXED_EDGES_SECTION":
		return p.fixedEdges(line)
	case "DEMAND_SECTION", "DEPOT_SECTION":
		return p.errf(line, "%s belongs to CVRP files, which are not supported", key)
	case "EDGE_DATA_SECTION":
		return p.errf(line, "EDGE_DATA_SECTION belongs to HCP files, which are not supported")
	case "TOUR_SECTION":
		return p.errf(line, "TOUR_SECTION in an instance file is not supported: read tours with ReadTour")
	default:
		return p.errf(line, "unknown section %s", Quote(key))
	}
	return nil
}

// coords reads DIMENSION records "id c1 .. cd", ids 1..N in any order.
func (p *parser) coords(section string, d int) ([][]float64, error) {
	n := p.dim
	if n >= parallelMin && !p.lx.peeked {
		if cols, ok, err := p.coordsParallel(d); ok || err != nil {
			return cols, err
		}
	}
	cols := make([][]float64, d)
	var ids []int32
	var lines []int32
	inOrder := true
	count := 0
	for count < n {
		id, line, err := p.coordID(section, count)
		if err != nil {
			return nil, err
		}
		if err := p.coordValues(section, d, id, line, cols); err != nil {
			return nil, err
		}
		if int64(count+1) != id {
			inOrder = false
		}
		ids = append(ids, int32(id))
		lines = append(lines, int32(line))
		count++
	}
	if inOrder {
		return cols, nil
	}
	// Ids came out of order: place each record at its id.
	return p.placeByID(section, cols, ids, lines)
}

// coordID reads a record's node id and its line.
func (p *parser) coordID(section string, count int) (int64, int, error) {
	n := p.dim
	w, line, eof, err := p.lx.nextRaw()
	if err != nil {
		return 0, 0, err
	}
	if eof || !IsNumber(w) {
		return 0, 0, p.errf(line, "%s ended after %d of %d nodes (found %s)", section, count, n, found(w, eof))
	}
	id, err := strconv.ParseInt(string(w), 10, 64)
	if err != nil {
		return 0, 0, p.errf(line, "%s: node id %s is not an integer", section, Quote(string(w)))
	}
	if id < 1 || id > int64(n) {
		return 0, 0, p.errf(line, "%s: node id %d out of range 1..%d", section, id, n)
	}
	return id, line, nil
}

// coordValues reads node id's d coordinates into cols.
func (p *parser) coordValues(section string, d int, id int64, line int, cols [][]float64) error {
	for k := 0; k < d; k++ {
		c, cline, eof, err := p.lx.nextRaw()
		if err != nil {
			return err
		}
		if eof || cline != line {
			return p.errf(line, "%s: node %d has %s, want %d", section, id, problem.Plural(int64(k), "coordinate"), d)
		}
		v, err := strconv.ParseFloat(string(c), 64)
		if err != nil {
			return p.errf(cline, "%s: node %d: coordinate %s is not a number", section, id, Quote(string(c)))
		}
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return p.errf(cline, "%s: node %d: coordinate %s is not a finite number", section, id, Quote(string(c)))
		}
		if math.Abs(v) > MaxCoord {
			return p.errf(cline, "%s: node %d: coordinate %s is out of range (|c| <= %d)", section, id, Quote(string(c)), MaxCoord)
		}
		cols[k] = append(cols[k], v)
	}
	if !p.lx.lineDone() {
		extra, err := p.lx.next()
		if err != nil {
			return err
		}
		return p.errf(line, "%s: node %d has extra field %s (want id and %d coordinates)", section, id, Quote(extra.text), d)
	}
	return nil
}

// placeByID moves out-of-order records to their ids, rejecting repeats.
func (p *parser) placeByID(section string, cols [][]float64, ids, lines []int32) ([][]float64, error) {
	n, d := p.dim, len(cols)
	out := make([][]float64, d)
	for k := range out {
		out[k] = make([]float64, n)
	}
	seen := make([]int32, n) // line of the record that gave the id
	for r, id := range ids {
		i := int(id) - 1
		if seen[i] != 0 {
			return nil, p.errf(int(lines[r]), "%s: node id %d given twice (first on line %d)", section, id, seen[i])
		}
		seen[i] = lines[r]
		for k := 0; k < d; k++ {
			out[k][i] = cols[k][r]
		}
	}
	return out, nil
}

// weightCount returns how many weights a matrix format holds for n nodes.
func weightCount(format string, n int) int {
	switch format {
	case "FULL_MATRIX":
		return n * n
	case "UPPER_ROW", "LOWER_ROW", "UPPER_COL", "LOWER_COL":
		return n * (n - 1) / 2
	default: // the DIAG formats
		return n * (n + 1) / 2
	}
}

func (p *parser) edgeWeights(line int) error {
	if err := p.needDim("EDGE_WEIGHT_SECTION", line); err != nil {
		return err
	}
	if !p.haveMetric {
		return p.errf(line, "EDGE_WEIGHT_SECTION before EDGE_WEIGHT_TYPE")
	}
	if p.metric != problem.Explicit {
		return p.errf(line, "EDGE_WEIGHT_SECTION in an instance with EDGE_WEIGHT_TYPE %s (want EXPLICIT)", p.metric)
	}
	if p.ewf == "" {
		return p.errf(line, "EDGE_WEIGHT_SECTION before EDGE_WEIGHT_FORMAT")
	}
	if !matrixFormats[p.ewf] {
		return p.errf(line, "EDGE_WEIGHT_FORMAT %s (line %d) cannot give an EXPLICIT matrix: want FULL_MATRIX, UPPER_ROW, LOWER_ROW, UPPER_DIAG_ROW, LOWER_DIAG_ROW, UPPER_COL, LOWER_COL, UPPER_DIAG_COL or LOWER_DIAG_COL", p.ewf, p.ewfLine)
	}
	n := p.dim
	if n > MaxExplicitDimension {
		return p.errf(line, "EXPLICIT DIMENSION %d is too large (max %d: the full matrix would exceed 2^28 entries)", n, MaxExplicitDimension)
	}
	want := weightCount(p.ewf, n)
	full := p.ewf == "FULL_MATRIX"
	// Non-nil even with no weight due; grown as weights arrive, never by DIMENSION.
	p.weights = make([]int32, 0, min(want, 1<<16))
	for len(p.weights) < want {
		word, line, eof, err := p.lx.nextRaw()
		if err != nil {
			return err
		}
		if eof || !IsNumber(word) {
			return p.errf(line, "EDGE_WEIGHT_SECTION ended after %d of %d weights (%s, DIMENSION %d; found %s)", len(p.weights), want, p.ewf, n, found(word, eof))
		}
		w, err := parseWeight(word)
		if err != nil {
			return p.errf(line, "EDGE_WEIGHT_SECTION: weight %s %v", Quote(string(word)), err)
		}
		k := len(p.weights)
		if full {
			i, j := k/n, k%n
			if j < i && p.weights[j*n+i] != w {
				return p.errf(line, "FULL_MATRIX is not symmetric: w(%d,%d) = %d but w(%d,%d) = %d (TYPE TSP is symmetric)", i+1, j+1, w, j+1, i+1, p.weights[j*n+i])
			}
		}
		p.weights = append(p.weights, w)
	}
	return nil
}

// parseWeight parses an integer weight without allocating in the common case.
func parseWeight(b []byte) (int32, error) {
	if v, ok := parseSmallInt(b); ok {
		return v, nil
	}
	s := string(b)
	v, err := strconv.ParseInt(s, 10, 32)
	if err == nil {
		return int32(v), nil
	}
	if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
		return 0, fmt.Errorf("is out of the int32 range")
	}
	// Some writers print integral weights as floats ("12.0").
	f, ferr := strconv.ParseFloat(s, 64)
	if ferr != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("is not a number")
	}
	if f != math.Trunc(f) {
		return 0, fmt.Errorf("is not an integer")
	}
	if f < math.MinInt32 || f > math.MaxInt32 {
		return 0, fmt.Errorf("is out of the int32 range")
	}
	return int32(f), nil
}

// fixedEdges reads pairs of node ids up to -1 (or the next keyword / EOF).
func (p *parser) fixedEdges(line int) error {
	if err := p.needDim("FIXED_EDGES_SECTION", line); err != nil {
		return err
	}
	n := p.dim
	for {
		t, err := p.lx.peek()
		if err != nil {
			return err
		}
		if t.eof || !IsNumber(t.text) {
			return nil // tolerate a missing -1
		}
		p.lx.next()
		a, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return p.errf(t.line, "FIXED_EDGES_SECTION: node id %s is not an integer", Quote(t.text))
		}
		if a == -1 {
			return nil
		}
		u, err := p.lx.next()
		if err != nil {
			return err
		}
		if u.eof || !IsNumber(u.text) {
			return p.errf(t.line, "FIXED_EDGES_SECTION: edge from node %d has no second node", a)
		}
		b, err := strconv.ParseInt(u.text, 10, 64)
		if err != nil {
			return p.errf(u.line, "FIXED_EDGES_SECTION: node id %s is not an integer", Quote(u.text))
		}
		for _, v := range [2]struct {
			id   int64
			line int
		}{{a, t.line}, {b, u.line}} {
			if v.id < 1 || v.id > int64(n) {
				return p.errf(v.line, "FIXED_EDGES_SECTION: node id %d out of range 1..%d", v.id, n)
			}
		}
		if a == b {
			return p.errf(u.line, "FIXED_EDGES_SECTION: edge %d-%d is a loop", a, b)
		}
		p.fixed = append(p.fixed, [2]int{int(a - 1), int(b - 1)})
		if err := p.checkFixed(u.line); err != nil {
			return err
		}
	}
}

// checkFixed checks the newest fixed edge: degree at most two, no repeat, no cycle short of a full tour.
func (p *parser) checkFixed(line int) error {
	if p.fixDeg == nil {
		p.fixDeg, p.fixUF = map[int]int{}, map[int]int{}
	}
	e := p.fixed[len(p.fixed)-1]
	a, b := e[0], e[1]
	p.fixDeg[a]++
	p.fixDeg[b]++
	for _, v := range e {
		if p.fixDeg[v] > 2 {
			return p.errf(line, "FIXED_EDGES_SECTION: node %d is in more than two fixed edges", v+1)
		}
	}
	ra, rb := p.find(a), p.find(b)
	if ra == rb {
		if len(p.fixed) == p.dim && p.dim >= 3 {
			return nil // the fixed edges are a whole tour
		}
		return p.errf(line, "FIXED_EDGES_SECTION: edge %d-%d closes a cycle that is not a whole tour", a+1, b+1)
	}
	p.fixUF[ra] = rb
	return nil
}

func (p *parser) find(v int) int {
	root := v
	for {
		r, ok := p.fixUF[root]
		if !ok {
			break
		}
		root = r
	}
	for v != root {
		next := p.fixUF[v]
		p.fixUF[v] = root
		v = next
	}
	return root
}

// build checks that everything needed is present and assembles the instance.
func (p *parser) build() (*problem.Instance, error) {
	end := p.lastLine
	if p.dim < 0 {
		return nil, p.errf(end, "missing DIMENSION")
	}
	if !p.haveMetric {
		return nil, p.errf(end, "missing EDGE_WEIGHT_TYPE")
	}
	name := strings.TrimSpace(p.name)
	if name == "" {
		name = filepath.Base(p.file)
	}
	name = strings.TrimSuffix(TrimGz(name), ".tsp")
	in := &problem.Instance{
		Name:       name,
		Comment:    p.comment,
		N:          p.dim,
		Metric:     p.metric,
		FixedEdges: p.fixed,
	}
	if p.metric == problem.Explicit {
		if p.weights == nil {
			return nil, p.errf(end, "missing EDGE_WEIGHT_SECTION (EDGE_WEIGHT_TYPE EXPLICIT)")
		}
		in.Matrix = fullMatrix(p.ewf, p.dim, p.weights)
		switch {
		case p.dx != nil:
			in.X, in.Y = p.dx, p.dy
		case p.x != nil:
			in.X, in.Y = p.x, p.y
		}
	} else {
		if p.x == nil {
			return nil, p.errf(end, "missing NODE_COORD_SECTION (EDGE_WEIGHT_TYPE %s)", p.metric)
		}
		if p.metric.Is3D() != (p.z != nil) {
			d := 2
			if p.z != nil {
				d = 3
			}
			return nil, p.errf(p.seen["EDGE_WEIGHT_TYPE"], "EDGE_WEIGHT_TYPE %s does not fit the %d-D NODE_COORD_SECTION (line %d)", p.metric, d, p.seen["NODE_COORD_SECTION"])
		}
		in.X, in.Y, in.Z = p.x, p.y, p.z
	}
	in.Prepare()
	return in, nil
}

// fullMatrix expands a matrix format's weights into the full symmetric matrix (column-wise formats are the other
// triangle's row-wise: UPPER_COL = LOWER_ROW).
func fullMatrix(format string, n int, w []int32) []int32 {
	if format == "FULL_MATRIX" {
		return w
	}
	m := make([]int32, n*n)
	upper := strings.HasPrefix(format, "UPPER") == strings.HasSuffix(format, "ROW")
	diag := strings.Contains(format, "DIAG")
	k := 0
	for i := range n {
		lo, hi := 0, i // row i's columns: j < i, or j > i for upper
		switch {
		case upper && diag:
			lo, hi = i, n
		case upper:
			lo, hi = i+1, n
		case diag:
			hi = i + 1
		}
		for j := lo; j < hi; j++ {
			m[i*n+j], m[j*n+i] = w[k], w[k]
			k++
		}
	}
	return m
}

// parseSmallInt parses an optional sign and at most 9 decimal digits.
func parseSmallInt(b []byte) (int32, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	var v int32
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int32(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}
