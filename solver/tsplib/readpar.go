package tsplib

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"runtime"
	"strconv"
	"sync"
)

// parallelMin is the smallest DIMENSION parsed in parallel (lower in tests).
var parallelMin = 50000

// maxRecordBytes bounds the bytes read ahead per record.
const maxRecordBytes = 64

// parallelChunk is the smallest byte range one goroutine parses.
var parallelChunk = 1 << 20

// parChunk is what one goroutine read of its byte range: the consecutive records from its start.
type parChunk struct {
	lo, hi  int // byte range of the input
	cols    [3][]float64
	firstID int64 // id of the first record (0: none)
	whole   bool  // every line of the range was such a record or blank
	newline int   // newlines in the range
}

// coordsParallel reads a coordinate section of n records with ids 1..n in parallel byte ranges; false leaves the lexer
// for the sequential reader, which reports any problem with its FILE:LINE.
func (p *parser) coordsParallel(d int) ([][]float64, bool, error) {
	lx := p.lx
	// At most maxRecordBytes a record, so memory stays in proportion to DIMENSION.
	rest := lx.r
	limit := int64(p.dim)*maxRecordBytes + 64<<10
	data, err := io.ReadAll(io.LimitReader(rest, limit))
	if err != nil {
		return nil, false, Errorf(lx.file, lx.line, "read error: %v", BareError(err))
	}
	whole := data
	if int64(len(data)) == limit {
		whole = data[:bytes.LastIndexByte(data, '\n')+1] // a cut line is not a record
	}
	chunks := splitLines(whole, max(1, 4*runtime.GOMAXPROCS(0)))
	var wg sync.WaitGroup
	for i := range chunks {
		wg.Go(func() { chunks[i].parse(data, d) })
	}
	wg.Wait()
	cols, end, ok := joinChunks(chunks, whole, p.dim, d)
	if !ok {
		lx.r = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(data), rest), 64<<10)
		return nil, false, nil
	}
	lines := 0
	for _, c := range chunks {
		if c.hi <= end {
			lines += c.newline
		} else {
			lines += bytes.Count(data[c.lo:end], []byte{'\n'})
			break
		}
	}
	lx.lastText = lx.line + lines
	if end > 0 && data[end-1] == '\n' {
		lx.lastText-- // the last record's newline is counted
	}
	lx.line += lines
	lx.r = bufio.NewReaderSize(io.MultiReader(bytes.NewReader(data[end:]), rest), 64<<10)
	return cols, true, nil
}

// splitLines cuts data into about k line-ended ranges of at least parallelChunk bytes.
func splitLines(data []byte, k int) []parChunk {
	size := max(len(data)/k, parallelChunk)
	var out []parChunk
	for lo := 0; lo < len(data); {
		hi := min(lo+size, len(data))
		if j := bytes.IndexByte(data[hi:], '\n'); j >= 0 {
			hi += j + 1
		} else {
			hi = len(data)
		}
		out = append(out, parChunk{lo: lo, hi: hi})
		lo = hi
	}
	return out
}

// joinChunks takes the first n records from the chunks and the offset after the last; false unless consecutive from id 1.
func joinChunks(chunks []parChunk, data []byte, n, d int) ([][]float64, int, bool) {
	avail := 0 // records the chunks may give, so a huge DIMENSION allocates nothing
	for _, c := range chunks {
		avail += len(c.cols[0])
		if !c.whole {
			break
		}
	}
	if avail < n {
		return nil, 0, false
	}
	cols := make([][]float64, d)
	for k := range cols {
		cols[k] = make([]float64, 0, n)
	}
	for _, c := range chunks {
		got := len(cols[0])
		recs := len(c.cols[0])
		if recs > 0 && c.firstID != int64(got+1) {
			return nil, 0, false
		}
		take := min(recs, n-got)
		for k := range cols {
			cols[k] = append(cols[k], c.cols[k][:take]...)
		}
		if len(cols[0]) == n {
			return cols, c.lo + lineEnd(data[c.lo:c.hi], take), true
		}
		if !c.whole {
			return nil, 0, false
		}
	}
	return nil, 0, false
}

// lineEnd returns the offset just after b's recs-th non-blank line.
func lineEnd(b []byte, recs int) int {
	off := 0
	for recs > 0 && off < len(b) {
		j := bytes.IndexByte(b[off:], '\n')
		next := len(b)
		if j >= 0 {
			next = off + j + 1
		}
		for _, c := range b[off:next] {
			if !isSpace(c) {
				recs--
				break
			}
		}
		off = next
	}
	return off
}

// parse reads the chunk's lines as consecutive records "id c1 .. cd".
func (c *parChunk) parse(data []byte, d int) {
	b := data[c.lo:c.hi]
	c.newline = bytes.Count(b, []byte{'\n'})
	c.whole = true
	next := int64(0)
	var f [4][]byte
	for len(b) > 0 {
		j := bytes.IndexByte(b, '\n')
		line := b
		if j >= 0 {
			line, b = b[:j], b[j+1:]
		} else {
			b = nil
		}
		nf, ok := fields(line, f[:])
		if nf == 0 && ok {
			continue
		}
		id, okID := parseID(f[0])
		if !ok || nf != d+1 || !okID || (next != 0 && id != next) {
			c.whole = false
			return
		}
		var v [3]float64
		for k := range d {
			if v[k], ok = parseCoord(f[k+1]); !ok {
				c.whole = false
				return
			}
		}
		if next == 0 {
			c.firstID = id
		}
		next = id + 1
		for k := range d {
			c.cols[k] = append(c.cols[k], v[k])
		}
	}
}

// fields splits line at blanks into f; false with more fields than f holds.
func fields(line []byte, f [][]byte) (int, bool) {
	n := 0
	for i := 0; i < len(line); {
		for i < len(line) && isSpace(line[i]) {
			i++
		}
		if i == len(line) {
			break
		}
		j := i
		for j < len(line) && !isSpace(line[j]) {
			j++
		}
		if n == len(f) || j-i >= MaxTokenLength {
			return n, false
		}
		f[n] = line[i:j]
		n++
		i = j
	}
	return n, true
}

// parseID parses a node id of plain digits.
func parseID(b []byte) (int64, bool) {
	if len(b) == 0 || len(b) > 18 {
		return 0, false
	}
	var v int64
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		v = 10*v + int64(c-'0')
	}
	return v, v >= 1
}

// parseCoord parses a coordinate as the sequential reader accepts it (false for what that reader rejects).
func parseCoord(b []byte) (float64, bool) {
	neg, digits := false, b
	if len(digits) > 0 && (digits[0] == '-' || digits[0] == '+') {
		neg, digits = digits[0] == '-', digits[1:]
	}
	if len(digits) > 0 && len(digits) <= 15 {
		var v int64
		plain := true
		for _, c := range digits {
			if c < '0' || c > '9' {
				plain = false
				break
			}
			v = 10*v + int64(c-'0')
		}
		if plain {
			if neg {
				v = -v
			}
			return float64(v), math.Abs(float64(v)) <= MaxCoord
		}
	}
	v, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || math.Abs(v) > MaxCoord {
		return 0, false
	}
	return v, true
}
