package batch

import (
	"errors"
	"slices"
	"testing"
)

// TestCutBatch: every instance in one launch, no launch holding more than
// its largest instance's layout allows, sizes ascending, launches of one
// layout evened out, no launch mixing classes, a planning error passed on.
func TestCutBatch(t *testing.T) {
	slotsFor := func(n int) int { return 1000 / n } // larger instances, fewer slots
	for _, c := range []struct {
		name  string
		sizes []int
		lens  []int // the launches' lengths
		split int   // the class changes above split cities (0: one class)
	}{
		{"uniform", repeat(100, 25), []int{8, 8, 9}, 0},
		{"one launch", []int{50, 10, 20}, []int{3}, 0},
		{"mixed", append(append(repeat(10, 150), repeat(100, 12)...), 500, 20), []int{75, 75, 6, 7, 1}, 0},
		{"two classes", []int{50, 10, 20, 60}, []int{2, 2}, 30},
	} {
		t.Run(c.name, func(t *testing.T) {
			idx := make([]int, len(c.sizes))
			for i := range idx {
				idx[i] = i
			}
			size := func(i int) int { return c.sizes[i] }
			class := func(n int) int {
				if c.split > 0 && n > c.split {
					return 1
				}
				return 0
			}
			parts, err := cutBatch(idx, size, func(n int) (int, int, int, error) { return n, slotsFor(n), class(n), nil })
			if err != nil {
				t.Fatal(err)
			}
			var all, lens []int
			last := 0
			for _, p := range parts {
				lens = append(lens, len(p.idx))
				for _, i := range p.idx {
					if class(size(i)) != class(p.layout) {
						t.Fatalf("instance %d (%d cities) in a launch of another class", i, size(i))
					}
					if size(i) < last || size(i) > p.layout {
						t.Fatalf("instance %d (%d cities) in a launch laid out for %d after one of %d", i, size(i), p.layout, last)
					}
					last = size(i)
				}
				if len(p.idx) > slotsFor(p.layout) {
					t.Fatalf("a launch of %d instances, its layout holds %d", len(p.idx), slotsFor(p.layout))
				}
				all = append(all, p.idx...)
			}
			slices.Sort(all)
			if !slices.Equal(all, idx) {
				t.Fatalf("instances %v, want each of %v once", all, idx)
			}
			if !slices.Equal(lens, c.lens) {
				t.Fatalf("launches of %v, want %v", lens, c.lens)
			}
		})
	}
	bad := errors.New("no layout")
	if _, err := cutBatch([]int{0}, func(int) int { return 5 }, func(int) (int, int, int, error) { return 0, 0, 0, bad }); !errors.Is(err, bad) {
		t.Fatalf("error %v, want %v", err, bad)
	}
}

func repeat(v, k int) []int {
	out := make([]int, k)
	for i := range out {
		out[i] = v
	}
	return out
}
