//go:build cuda

package gpu

import (
	"testing"

	"github.com/tsplab/tsplab/gpu/ils"

	"github.com/tsplab/tsplab/solver"
)

// TestOrOptionsWindowSegment reads GPU auto's kick segment for its
// windows from its settings (host only, no device needed).
func TestOrOptionsWindowSegment(t *testing.T) {
	for _, c := range []struct {
		extra map[string]string
		seg   int
		ok    bool
	}{
		{nil, 30, true},
		{map[string]string{ils.OptWindowSegment: "50"}, 50, true},
		{map[string]string{ils.OptWindowSegment: "0"}, 30, false},
	} {
		o, err := autoOrOptions(solver.Params{Extra: c.extra}, 50000)
		if (err == nil) != c.ok {
			t.Fatalf("%v: error %v, want ok=%v", c.extra, err, c.ok)
		}
		if c.ok && o.Segment != c.seg {
			t.Fatalf("%v: segment %d, want %d", c.extra, o.Segment, c.seg)
		}
	}
}
