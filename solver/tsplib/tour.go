package tsplib

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// ReadTour reads the TSPLIB TOUR file at path (gzip too) for an instance of n cities (ParseTour).
func ReadTour(path string, n int) ([]int, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	t, err := ParseTour(f, path, n)
	if err := f.Check(err); err != nil {
		return nil, err
	}
	return t, nil
}

// PathMark begins the comment that marks a tour file's cities as an open path (a TOUR COMMENT or a '#' line).
const PathMark = "open path"

// PathNote is the comment marking an open path between the cities labelled from and to (from "": free ends).
func PathNote(from, to string) string {
	if from == "" {
		return PathMark + ", ends free: no edge from the last city back to the first"
	}
	return fmt.Sprintf("%s from %s to %s: no edge from the last city back to the first", PathMark, from, to)
}

// IsPathNote reports whether comment marks an open path (PathNote).
func IsPathNote(comment string) bool {
	return strings.HasPrefix(strings.ToLower(strings.TrimSpace(comment)), PathMark)
}

// ParseTour reads r's first tour as 0-based cities, each of the n (≤ 0: DIMENSION's) once; errors name filename and line.
func ParseTour(r io.Reader, filename string, n int) ([]int, error) {
	t, _, err := ParseRoute(r, filename, n)
	return t, err
}

// ParseRoute is ParseTour also reporting a PathNote COMMENT's open path.
func ParseRoute(r io.Reader, filename string, n int) (tour []int, path bool, err error) {
	lx := newLexer(r, filename)
	dim := -1
	seen := map[string]int{}
	for {
		t, err := lx.next()
		if err != nil {
			return nil, false, err
		}
		if t.eof {
			return nil, false, Errorf(filename, t.line, "missing TOUR_SECTION")
		}
		key := strings.ToUpper(t.text)
		if key == "TOUR_SECTION" {
			lx.skipColon()
			if n <= 0 {
				if dim < 0 {
					return nil, false, Errorf(filename, t.line, "TOUR_SECTION before DIMENSION and no instance size given")
				}
				n = dim
			}
			tour, err := tourSection(lx, filename, n)
			return tour, path && err == nil, err
		}
		if strings.HasSuffix(key, "_SECTION") {
			return nil, false, Errorf(filename, t.line, "%s in a tour file is not supported", Quote(t.text))
		}
		if looksBinary(t.text) {
			return nil, false, Errorf(filename, t.line, "%s", binaryWord(t.text, t.line))
		}
		if key == ":" || IsNumber(key) || !isKeyword(key) {
			return nil, false, Errorf(filename, t.line, "unexpected %s where a keyword should be", Quote(t.text))
		}
		if key == "EOF" {
			return nil, false, Errorf(filename, t.line, "missing TOUR_SECTION")
		}
		val, err := tourKeyword(lx, filename, t.line, t.text, key, n, &dim, seen)
		if err != nil {
			return nil, false, err
		}
		path = path || key == "COMMENT" && IsPathNote(val)
	}
}

// tourKeyword reads and checks a tour file's keyword: TYPE TOUR, DIMENSION equal to n, no repeats but COMMENT.
func tourKeyword(lx *lexer, filename string, line int, text, key string, n int, dim *int, seen map[string]int) (string, error) {
	rest, err := lx.restOfLine()
	if err != nil {
		return "", err
	}
	rest = strings.TrimSpace(rest)
	if !strings.HasPrefix(rest, ":") && !knownKeys[key] {
		return "", Errorf(filename, line, "unexpected %s where a keyword should be", Quote(text))
	}
	val := strings.TrimSpace(strings.TrimPrefix(rest, ":"))
	if key != "COMMENT" {
		if l, dup := seen[key]; dup {
			return "", Errorf(filename, line, "%s given twice (first on line %d)", key, l)
		}
		seen[key] = line
	}
	switch key {
	case "TYPE":
		if ty := strings.ToUpper(firstField(val)); ty != "TOUR" {
			return "", Errorf(filename, line, "TYPE %s is not a tour (want TYPE TOUR)", Quote(val))
		}
	case "DIMENSION":
		d, err := strconv.ParseInt(val, 10, 64)
		if err != nil || d < 1 || d > MaxDimension {
			return "", Errorf(filename, line, "DIMENSION %s is not an integer in 1..%d", Quote(val), MaxDimension)
		}
		if n > 0 && int(d) != n {
			return "", Errorf(filename, line, "tour DIMENSION %d does not match the instance's %d cities", d, n)
		}
		*dim = int(d)
	}
	return val, nil
}

// tourSection reads node ids up to -1, EOF or a keyword.
func tourSection(lx *lexer, file string, n int) ([]int, error) {
	var tour []int
	var lines []int32
	last := 0
	for {
		t, err := lx.next()
		if err != nil {
			return nil, err
		}
		if t.eof || !IsNumber(t.text) {
			if !t.eof {
				last = t.line
			}
			break
		}
		last = t.line
		id, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return nil, Errorf(file, t.line, "TOUR_SECTION: node id %s is not an integer", Quote(t.text))
		}
		if id == -1 {
			break
		}
		if id < 1 || id > int64(n) {
			return nil, Errorf(file, t.line, "TOUR_SECTION: node id %d out of range 1..%d", id, n)
		}
		if len(tour) >= n {
			return nil, Errorf(file, t.line, "TOUR_SECTION has more than %d nodes", n)
		}
		tour = append(tour, int(id-1))
		lines = append(lines, int32(t.line))
	}
	if len(tour) != n {
		return nil, Errorf(file, last, "TOUR_SECTION has %d nodes, want %d", len(tour), n)
	}
	first := make([]int32, n)
	for i, c := range tour {
		if first[c] != 0 {
			return nil, Errorf(file, int(lines[i]), "TOUR_SECTION: node %d visited twice (first on line %d)", c+1, first[c])
		}
		first[c] = lines[i]
	}
	return tour, nil
}

// WriteTour writes tour as a TSPLIB TOUR file (NAME, COMMENT lines, TYPE, DIMENSION, 1-based TOUR_SECTION, -1, EOF).
func WriteTour(w io.Writer, name, comment string, tour []int) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "NAME : %s\n", oneLine(name))
	writeComment(bw, comment)
	fmt.Fprintf(bw, "TYPE : TOUR\nDIMENSION : %d\nTOUR_SECTION\n", len(tour))
	var buf []byte
	for _, c := range tour {
		buf = strconv.AppendInt(buf[:0], int64(c)+1, 10)
		buf = append(buf, '\n')
		bw.Write(buf)
	}
	bw.WriteString("-1\nEOF\n")
	return bw.Flush()
}

func writeComment(bw *bufio.Writer, comment string) {
	if comment == "" {
		return
	}
	for _, l := range strings.Split(strings.ReplaceAll(comment, "\r\n", "\n"), "\n") {
		fmt.Fprintf(bw, "COMMENT : %s\n", strings.ReplaceAll(l, "\r", " "))
	}
}
