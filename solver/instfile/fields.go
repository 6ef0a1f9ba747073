package instfile

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/tsplab/tsplab/solver/tsplib"
)

// separator is a line's field separator: ';' outside quotes (a comma then decimal), else ',', else 0 (blanks).
func separator(line []byte) byte {
	quoted, comma := false, false
	for _, c := range line {
		switch {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == ';':
			return ';'
		case c == ',':
			comma = true
		}
	}
	if comma {
		return ','
	}
	return 0
}

// splitFields splits a point list's, matrix's or tour's line into trimmed fields at its separator or blanks,
// honouring quotes ("" a quote inside); with ';' a decimal comma reads as a point.
func splitFields(line []byte) [][]byte {
	var out [][]byte
	sep := separator(line)
	if sep == 0 {
		for f := range bytes.FieldsSeq(line) {
			out = append(out, unquote(f))
		}
		return out
	}
	for {
		f, rest, more := cutField(line, sep)
		if sep == ';' {
			f = decimalPoint(f)
		}
		out = append(out, f)
		if !more {
			return out
		}
		line = rest
	}
}

// cutField returns line's first field up to sep, trimmed and unquoted, and the rest.
func cutField(line []byte, sep byte) (field, rest []byte, more bool) {
	line = bytes.TrimLeft(line, " \t")
	if len(line) == 0 || line[0] != '"' {
		j := bytes.IndexByte(line, sep)
		if j < 0 {
			return unquote(bytes.TrimSpace(line)), nil, false
		}
		return unquote(bytes.TrimSpace(line[:j])), line[j+1:], true
	}
	var built []byte // only when the field holds a doubled quote
	start, i := 1, 1
	for ; i < len(line); i++ {
		if line[i] != '"' {
			continue
		}
		if i+1 < len(line) && line[i+1] == '"' {
			built = append(built, line[start:i+1]...)
			i++
			start = i + 1
			continue
		}
		break
	}
	end := min(i, len(line)) // an unclosed quote runs to the end of the line
	field = line[start:end]
	if built != nil {
		field = append(built, field...)
	}
	after := line[min(end+1, len(line)):]
	j := bytes.IndexByte(after, sep)
	if j < 0 {
		return field, nil, false
	}
	return field, after[j+1:], true
}

// decimalPoint makes f's one decimal comma a point where f reads as a number.
func decimalPoint(f []byte) []byte {
	i := bytes.IndexByte(f, ',')
	if i < 0 || bytes.IndexByte(f[i+1:], ',') >= 0 || bytes.IndexByte(f, '.') >= 0 {
		return f
	}
	g := bytes.Clone(f)
	g[i] = '.'
	for k, c := range g {
		if !(c >= '0' && c <= '9' || c == '.' || k == 0 && (c == '-' || c == '+')) {
			return f
		}
	}
	return g
}

// unquote drops the double or single quotes around a field.
func unquote(f []byte) []byte {
	if len(f) >= 2 && (f[0] == '"' && f[len(f)-1] == '"' || f[0] == '\'' && f[len(f)-1] == '\'') {
		return f[1 : len(f)-1]
	}
	return f
}

// Column names a point list's header may use.
var (
	latNames = []string{"lat", "latitude"}
	lonNames = []string{"lon", "lng", "long", "longitude"}
)

// columns is where a point list's id and coordinates are.
type columns struct {
	width  int    // fields a line has
	id     int    // the id's column, -1 without one
	coord  [2]int // the coordinates' columns, in file order
	latLon bool
	latCol int      // which of coord is the latitude
	names  []string // the header's names of the id and the coordinates, nil without a header
	header []string // every name of the header, in lower case
}

// plainColumns are a headerless point list's columns for width fields.
func plainColumns(width int) columns {
	if width == 3 {
		return columns{width: 3, id: 0, coord: [2]int{1, 2}}
	}
	return columns{width: width, id: -1, coord: [2]int{0, 1}}
}

// headerColumns reads a header: x and y, or lat and lon in either order, an id column (id, city, node or name), others ignored.
func headerColumns(fields [][]byte) (columns, error) {
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = strings.ToLower(strings.TrimSpace(string(f)))
	}
	c := columns{width: len(names), id: -1, header: names}
	x, y := slices.Index(names, "x"), slices.Index(names, "y")
	lat, lon := indexAny(names, latNames), indexAny(names, lonNames)
	switch {
	case x >= 0 && y >= 0 && x != y:
		c.coord = [2]int{min(x, y), max(x, y)}
	case lat >= 0 && lon >= 0:
		c.coord, c.latLon = [2]int{min(lat, lon), max(lat, lon)}, true
		if lon < lat {
			c.latCol = 1
		}
	default:
		return columns{}, fmt.Errorf("header %s: want columns x and y, or lat and lon (latitude, longitude), with an id or name column; others are ignored", tsplib.Quote(strings.Join(names, ",")))
	}
	c.id = indexAny(names, idColumns)
	if c.id < 0 && c.coord[0] > 0 {
		c.id = 0
	}
	for _, k := range []int{c.id, c.coord[0], c.coord[1]} {
		if k >= 0 {
			c.names = append(c.names, string(fields[k]))
		}
	}
	return c, nil
}

// indexAny is the first column whose name is one of want, -1 if none.
func indexAny(names, want []string) int {
	for i, n := range names {
		if slices.Contains(want, n) {
			return i
		}
	}
	return -1
}
