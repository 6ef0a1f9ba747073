package problem

import "math"

// CoordText holds a point list's coordinates as written in one buffer, four bytes of offset a point, not a string each.
type CoordText struct {
	buf []byte
	end []uint32 // end[2*i+k]: the end in buf of point i's column k
	// over: the text passed 4 GiB and was dropped (Has is false)
	over bool
}

// Append adds the next coordinate's text, column 0 then 1 of each point.
func (t *CoordText) Append(text []byte) {
	if t.over {
		return
	}
	if len(t.buf)+len(text) > math.MaxUint32 {
		t.buf, t.end, t.over = nil, nil, true
		return
	}
	t.buf = append(t.buf, text...)
	t.end = append(t.end, uint32(len(t.buf)))
}

// Has reports whether t holds the text of all n points' coordinates.
func (t *CoordText) Has(n int) bool { return t != nil && !t.over && len(t.end) == 2*n }

// AppendTo appends point i's column k coordinate text to dst.
func (t *CoordText) AppendTo(dst []byte, i, k int) []byte {
	j := 2*i + k
	var start uint32
	if j > 0 {
		start = t.end[j-1]
	}
	return append(dst, t.buf[start:t.end[j]]...)
}
