package export

import (
	"bytes"
	"fmt"
	"image/color"
	"regexp"
	"strings"
	"testing"
)

// tourSegments counts the straight segments of the SVG <path> stroked in
// the tour's colour (its L commands and a closing Z) and the rings (arcs)
// of that colour, which mark a path's ends.
func tourSegments(t *testing.T, svg string) (segments, rings int) {
	t.Helper()
	re := regexp.MustCompile(`<path d="([^"]*)" style="fill:none;stroke:` + svgColor(pictureStyle().Tour))
	// the picture is what comes before the title; the legend follows it
	if i := strings.Index(svg, "<text"); i >= 0 {
		svg = svg[:i]
	}
	lines := 0
	for _, m := range re.FindAllStringSubmatch(svg, -1) {
		if strings.Contains(m[1], "A") {
			rings += strings.Count(m[1], "M")
			continue
		}
		lines++
		segments = strings.Count(m[1], "L") + strings.Count(m[1], "Z")
	}
	if lines != 1 {
		t.Fatalf("%d tour-coloured lines in the SVG, want 1", lines)
	}
	return segments, rings
}

// svgColor is c as vgsvg writes it in a style: #RRGGBB.
func svgColor(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

func TestExportSVGPathHasNoClosingEdge(t *testing.T) {
	for _, n := range []int{2, 5, 12, 300} {
		in, tour := ring(n)
		for _, path := range []bool{false, true} {
			var buf bytes.Buffer
			if err := Write(&buf, FormatSVG, Scene{Instance: in, Tour: tour, Best: tour, Path: path}, 400, 0); err != nil {
				t.Fatal(err)
			}
			want, wantRings := n, 0
			if path {
				want, wantRings = n-1, 2
			}
			if got, rings := tourSegments(t, buf.String()); got != want || rings != wantRings {
				t.Errorf("n=%d path=%v: %d segments and %d end rings, want %d and %d", n, path, got, rings, want, wantRings)
			}
		}
	}
}

func TestWriteSVGOpenPath(t *testing.T) {
	in, tour := ring(7)
	var closed, open bytes.Buffer
	if err := WriteSVGPath(&closed, in, tour, 300); err != nil {
		t.Fatal(err)
	}
	if err := WriteSVGOpenPath(&open, in, tour, 300); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(closed.String(), " Z\"") || strings.Contains(open.String(), "Z") {
		t.Errorf("the tour's path should end in Z and the open path's not:\n%s\n%s", closed.String(), open.String())
	}
	if strings.Replace(closed.String(), " Z", "", 1) != open.String() {
		t.Error("the open path differs from the tour's in more than its Z")
	}
}

func TestRasterPathHasNoClosingEdge(t *testing.T) {
	in := square()
	st := DefaultStyle()
	tr := NewTransform(BoundsOf(in), FitView(BoundsOf(in)), 200, 200)
	mid := func(a, b int) (int, int) {
		x0, y0 := tr.Apply(in.X[a], in.Y[a])
		x1, y1 := tr.Apply(in.X[b], in.Y[b])
		return int((x0+x1)/2 + 0.5), int((y0+y1)/2 + 0.5)
	}
	for _, path := range []bool{false, true} {
		// Tour and best differ, so both are drawn; neither path has the
		// edge 4-1, which closes both tours.
		s := Scene{Instance: in, Tour: []int{0, 1, 2, 3}, Best: []int{0, 2, 1, 3}, Path: path}
		img := RenderImage(s, 200, 200, st)
		x, y := mid(3, 0)
		got := at(img, x, y)
		if path && got != st.Background {
			t.Errorf("path: the closing edge 4-1's midpoint is %v, want the background", got)
		}
		if !path && got != st.Tour {
			t.Errorf("tour: the closing edge 4-1's midpoint is %v, want the tour's colour", got)
		}
		// The ends, cities 1 and 4, are marked: a square of the tour's
		// colour around them.
		for _, c := range []int{0, 3} {
			x, y := tr.Apply(in.X[c], in.Y[c])
			dx, dy := EndRadius, EndRadius // towards the square's inside, off its edges
			if x > 100 {
				dx = -dx
			}
			if y > 100 {
				dy = -dy
			}
			ring := at(img, int(x+0.5)+dx, int(y+0.5)+dy)
			if path != (ring == st.Tour) {
				t.Errorf("path=%v: beside city %d %v", path, c+1, ring)
			}
		}
		for _, e := range [][2]int{{0, 1}, {1, 2}, {2, 3}} {
			if x, y := mid(e[0], e[1]); at(img, x, y) != st.Tour {
				t.Errorf("path=%v: edge %v not drawn", path, e)
			}
		}
	}
}
