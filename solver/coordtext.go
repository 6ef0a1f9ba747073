package solver

// CoordText holds the text of a point list's coordinates as its file wrote
// them, both columns of every point in one buffer: a million points cost
// their bytes and one offset each, not a string each.
type CoordText struct {
	buf []byte
	end []int // end[2*i+k]: the end in buf of point i's column k
}

// Append adds the text of the next coordinate, column 0 then column 1 of
// each point in turn.
func (t *CoordText) Append(text []byte) {
	t.buf = append(t.buf, text...)
	t.end = append(t.end, len(t.buf))
}

// Has reports whether t holds the text of all n points' coordinates.
func (t *CoordText) Has(n int) bool { return t != nil && len(t.end) == 2*n }

// AppendTo appends the text of point i's coordinate in column k (0 or 1)
// to dst.
func (t *CoordText) AppendTo(dst []byte, i, k int) []byte {
	j := 2*i + k
	start := 0
	if j > 0 {
		start = t.end[j-1]
	}
	return append(dst, t.buf[start:t.end[j]]...)
}
