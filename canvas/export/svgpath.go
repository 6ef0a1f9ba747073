package export

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"

	"github.com/tsplab/tsplab/solver/problem"
)

// WriteSVGPath writes tour as one stroked SVG <path> a pen plotter can follow ("M", "L"s, "Z"; no title, dots or background),
// width points wide with a 2 % margin, y up.
func WriteSVGPath(w io.Writer, in *problem.Instance, tour []int, width int) error {
	return writeSVGPath(w, in, tour, width, false)
}

// WriteSVGOpenPath is WriteSVGPath for an open path: no "Z".
func WriteSVGOpenPath(w io.Writer, in *problem.Instance, path []int, width int) error {
	return writeSVGPath(w, in, path, width, true)
}

func writeSVGPath(w io.Writer, in *problem.Instance, tour []int, width int, open bool) error {
	if err := checkSVGPath(in, tour, width); err != nil {
		return err
	}
	b := BoundsOf(in)
	m, scale, height := svgFrame(b, width)
	bw := bufio.NewWriterSize(w, 64<<10)
	fmt.Fprintf(bw, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%dpt\" height=\"%gpt\" viewBox=\"0 0 %d %g\">\n", width, height, width, height)
	fmt.Fprintf(bw, "<path fill=\"none\" stroke=\"black\" stroke-width=\"%g\" stroke-linejoin=\"round\" d=\"", svgStroke(in.N, width))
	buf := make([]byte, 0, 64)
	point := func(cmd string, x, y float64) {
		buf = append(buf[:0], cmd...)
		buf = strconv.AppendFloat(buf, m+(x-b.MinX)*scale, 'f', 2, 64)
		buf = append(buf, ',')
		buf = strconv.AppendFloat(buf, height-m-(y-b.MinY)*scale, 'f', 2, 64)
		bw.Write(buf)
	}
	// the short way round: an edge across a lat,lon map's edge is cut there, and the pen lifted
	cut, moved := false, true
	line := func(x, y float64) { // "L" once after a move, then implied
		if moved {
			point(" L", x, y)
		} else {
			point(" ", x, y)
		}
		moved = false
	}
	edge := func(a, c int) {
		if x0, y0, x1, y1, ok := seamEnds(in, b, a, c); ok {
			line(x0, y0)
			point(" M", x1, y1)
			cut, moved = true, true
		}
		line(WorldXY(in, c))
	}
	x0, y0 := WorldXY(in, tour[0])
	point("M", x0, y0)
	for k, c := range tour[1:] {
		edge(tour[k], c)
	}
	switch {
	case !open && cut:
		edge(tour[len(tour)-1], tour[0])
	case !open:
		bw.WriteString(" Z")
	}
	bw.WriteString("\"/>\n</svg>\n")
	return bw.Flush()
}

// checkSVGPath checks that tour is whole, in has coordinates and width is in range.
func checkSVGPath(in *problem.Instance, tour []int, width int) error {
	if in == nil || !in.HasCoords() {
		return fmt.Errorf("export: no coordinates to draw")
	}
	if err := problem.ValidateTour(tour, in.N); err != nil {
		return fmt.Errorf("export: tour: %v", err)
	}
	if width <= 0 || width > MaxSize {
		return fmt.Errorf("export: width %d out of range 1..%d", width, MaxSize)
	}
	return nil
}

// svgFrame is the margin, scale and height in points of box b drawn width points wide.
func svgFrame(b Bounds, width int) (m, scale, height float64) {
	m = 0.02 * float64(width)
	scale = 1.0
	if span := math.Max(b.Width(), b.Height()); span > 0 {
		scale = math.Max(1, float64(width)-2*m) / span
	}
	return m, scale, math.Ceil(b.Height()*scale + 2*m)
}

// svgStroke is a line width keeping n cities' tour readable width points wide.
func svgStroke(n, width int) float64 {
	s := float64(width) / math.Sqrt(float64(max(n, 1))) / 8
	return math.Round(math.Min(2, math.Max(0.1, s))*100) / 100
}
