package ils

import "testing"

// TestPathChunks: a sweep's chunks cover the positions off..off+span-1
// once, in order, each within one wave of the device's windows (W·R at
// most the slots, or one window) and each window at most L cities.
func TestPathChunks(t *testing.T) {
	for _, c := range []struct {
		off, span   int64
		L, slots, R int
	}{
		{0, 65, 1024, 528, 16}, {300, 2_000_000, 1024, 528, 1}, {17, 200_000, 1024, 528, 2},
		{5, 5000, 1024, 3, 4}, {0, 1024 * 528, 1024, 528, 1}, {9, 100, 32, 1, 1},
	} {
		at := c.off
		for _, k := range pathChunks(c.off, c.span, c.L, c.slots, c.R) {
			if k.from != at || k.size <= 0 || k.W < 1 {
				t.Fatalf("%+v: chunk %+v, want one from %d", c, k, at)
			}
			if k.W*c.R > max(c.slots, c.R) {
				t.Fatalf("%+v: chunk %+v holds %d windows × %d replicas, more than %d slots", c, k, k.W, c.R, c.slots)
			}
			if (k.size+int64(k.W)-1)/int64(k.W) > int64(c.L) {
				t.Fatalf("%+v: chunk %+v has windows over %d cities", c, k, c.L)
			}
			at += k.size
		}
		if at != c.off+c.span {
			t.Fatalf("%+v: chunks end at %d, want %d", c, at, c.off+c.span)
		}
	}
}
