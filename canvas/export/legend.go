package export

import (
	"image/color"
	"math"
	"slices"

	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/vg"
)

// Legend entries, live or exported, in listed order.
const (
	LegendTour    = "tour"
	LegendBest    = "best tour"
	LegendOptimal = "optimal tour (dashed)"
	LegendChanged = "recently changed"
	LegendEnds    = "ends of the path"
)

// LegendFor lists the legend entries of what the app's view draws of s.
func LegendFor(s Scene) []string {
	var out []string
	if s.Tour != nil {
		out = append(out, LegendTour)
	}
	if s.Best != nil && s.Tour != nil {
		out = append(out, LegendBest)
	}
	if s.Optimal != nil {
		out = append(out, LegendOptimal)
	}
	if s.Tour != nil && !s.Done && s.Instance != nil && s.Instance.N <= HeatLimit {
		out = append(out, LegendChanged)
	}
	if s.Path && (s.Tour != nil || s.Best != nil) {
		out = append(out, LegendEnds)
	}
	return out
}

// optimalDash is the optimal overlay's dash pattern for a line of width w.
func optimalDash(w float64) []vg.Length {
	d := vg.Length(math.Max(3, 4*w))
	return []vg.Length{d, d}
}

// drawLegend draws the legend of s at the bottom left as the app's view does, without the recent changes.
func drawLegend(c vg.Canvas, s Scene, width int) {
	names := slices.DeleteFunc(LegendFor(s), func(n string) bool { return n == LegendChanged })
	size := math.Max(5, titleSize(width)*0.7)
	face := font.DefaultCache.Lookup(font.Font{Typeface: "Liberation", Variant: "Sans"}, font.Length(size))
	if len(names) == 0 || face.Face == nil {
		return
	}
	st := pictureStyle()
	m, _ := layout(width)
	row, swatch, pad := size*1.4, size*2.2, size*0.4
	textW := 0.0
	for _, n := range names {
		textW = math.Max(textW, float64(face.Width(n)))
	}
	x0, y0 := m, m
	w, h := pad*3+swatch+textW, pad*2+row*float64(len(names))
	var box vg.Path
	box.Move(vg.Point{X: vg.Length(x0), Y: vg.Length(y0)})
	box.Line(vg.Point{X: vg.Length(x0 + w), Y: vg.Length(y0)})
	box.Line(vg.Point{X: vg.Length(x0 + w), Y: vg.Length(y0 + h)})
	box.Line(vg.Point{X: vg.Length(x0), Y: vg.Length(y0 + h)})
	box.Close()
	bg := st.Background
	bg.A = 200
	c.SetColor(bg)
	c.Fill(box)
	for i, n := range names {
		// rows from the top down
		y := y0 + h - pad - row*(float64(i)+0.5)
		var p vg.Path
		c.SetLineWidth(vg.Length(math.Max(1, size/6)))
		switch n {
		case LegendEnds:
			r := size * 0.35
			p.Move(vg.Point{X: vg.Length(x0 + pad + swatch/2 + r), Y: vg.Length(y)})
			p.Arc(vg.Point{X: vg.Length(x0 + pad + swatch/2), Y: vg.Length(y)}, vg.Length(r), 0, 2*math.Pi)
			p.Close()
		default:
			p.Move(vg.Point{X: vg.Length(x0 + pad), Y: vg.Length(y)})
			p.Line(vg.Point{X: vg.Length(x0 + pad + swatch), Y: vg.Length(y)})
		}
		c.SetColor(map[string]color.RGBA{LegendTour: st.Tour, LegendBest: st.Best, LegendOptimal: st.Optimal, LegendEnds: st.Tour}[n])
		if n == LegendOptimal {
			c.SetLineDash(optimalDash(size/8), 0)
		}
		c.Stroke(p)
		c.SetLineDash(nil, 0)
		c.SetColor(st.City)
		fillString(c, face, vg.Point{X: vg.Length(x0 + pad*2 + swatch), Y: vg.Length(y - size*0.35)}, n)
	}
}
