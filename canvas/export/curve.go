package export

import (
	"encoding/csv"
	"image"
	"image/color"
	"io"
	"math"
	"strconv"
	"time"

	"github.com/tsplab/tsplab/solver/problem"
)

// CurvePoint is one point of a convergence curve: the best tour length known after Elapsed.
type CurvePoint struct {
	Elapsed time.Duration
	Best    int64
}

// CurveStyle is the palette of a convergence plot.
type CurveStyle struct {
	Background, Axis, Line, Optimum color.RGBA
}

// DefaultCurveStyle matches DefaultStyle's best and optimal colours.
func DefaultCurveStyle() CurveStyle {
	s := DefaultStyle()
	return CurveStyle{Background: s.Background, Axis: color.RGBA{R: 110, G: 115, B: 125, A: 255}, Line: s.Best, Optimum: s.Optimal}
}

// CurveRange returns the axes of a plot of pts: time 0..tmax (at least xmax), length
// lo..hi with the optimum, the first point left out.
func CurveRange(pts []CurvePoint, optimum int64, xmax time.Duration) (tmax time.Duration, lo, hi int64) {
	tmax = xmax
	lo, hi = math.MaxInt64, math.MinInt64
	for i, p := range pts {
		tmax = max(tmax, p.Elapsed)
		lo = min(lo, p.Best)
		// The first point, usually far above the rest, is clipped so the descent stays readable.
		if i > 0 || len(pts) <= 2 {
			hi = max(hi, p.Best)
		}
	}
	if optimum > 0 && len(pts) > 0 {
		lo = min(lo, optimum)
	}
	if len(pts) == 0 {
		lo, hi = 0, 1
	}
	if hi <= lo {
		hi = flatTop(lo)
	}
	if tmax <= 0 {
		tmax = time.Second
	}
	return tmax, lo, hi
}

// flatTop is the top of a flat curve's length axis at lo: the next round number about a percent above it.
func flatTop(lo int64) int64 {
	step := int64(1)
	for step <= lo/1000 {
		step *= 10
	}
	return (lo/step + 1) * step
}

// RenderCurveIn draws best length against time as a step line into dst on the given axes, the optimum dashed.
func RenderCurveIn(dst *image.RGBA, pts []CurvePoint, optimum int64, tmax time.Duration, lo, hi int64, st CurveStyle) {
	fill(dst, st.Background)
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	if w < 4 || h < 4 {
		return
	}
	fw, fh := float64(w-1), float64(h-1)
	line(dst, 0, fh, fw, fh, st.Axis, 0)
	line(dst, 0, 0, 0, fh, st.Axis, 0)
	if len(pts) == 0 || tmax <= 0 || hi <= lo {
		return
	}
	pad := 0.06 * fh
	x := func(t time.Duration) float64 { return 1 + (fw-2)*float64(t)/float64(tmax) }
	y := func(v int64) float64 { return pad + (fh-2*pad)*float64(hi-v)/float64(hi-lo) }
	if optimum > 0 {
		line(dst, 1, y(optimum), fw, y(optimum), st.Optimum, 3)
	}
	px, py := x(pts[0].Elapsed), y(pts[0].Best)
	for _, p := range pts[1:] {
		nx, ny := x(p.Elapsed), y(p.Best)
		line(dst, px, py, nx, py, st.Line, 0)
		line(dst, nx, py, nx, ny, st.Line, 0)
		px, py = nx, ny
	}
	dot(dst, int(px+0.5), int(py+0.5), 1, st.Line)
}

// WriteCurveCSV writes pts as CSV "elapsed_s,best_length" ("best_length_m" for metres), lengths in the file's units.
func WriteCurveCSV(w io.Writer, in *problem.Instance, pts []CurvePoint) error {
	cw := csv.NewWriter(w)
	col := "best_length"
	if u := in.LengthUnit(); u != "" {
		col += "_" + u
	}
	if err := cw.Write([]string{"elapsed_s", col}); err != nil {
		return err
	}
	for _, p := range pts {
		if err := cw.Write([]string{strconv.FormatFloat(p.Elapsed.Seconds(), 'f', 3, 64), in.FormatLength(p.Best)}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}
