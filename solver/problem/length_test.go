package problem

import (
	"math"
	"testing"
)

func TestFormatLength(t *testing.T) {
	cases := []struct {
		exp  int
		l    int64
		want string
	}{
		{0, 12345, "12345"},
		{6, 4000000, "4"},
		{6, 3141593, "3.141593"},
		{6, 1, "0.000001"},
		{6, -1500000, "-1.5"},
		{6, 0, "0"},
		{2, 100, "1"},
		{-3, 12, "12000"},
		{-3, 0, "0"},
	}
	for _, c := range cases {
		in := &Instance{ScaleExp: c.exp}
		if got := in.FormatLength(c.l); got != c.want {
			t.Errorf("FormatLength(%d) at 10^%d = %q, want %q", c.l, c.exp, got, c.want)
		}
		if v := in.LengthValue(c.l); math.Abs(v-float64(c.l)/math.Pow10(c.exp)) > 1e-12*math.Abs(v) {
			t.Errorf("LengthValue(%d) at 10^%d = %v", c.l, c.exp, v)
		}
	}
	if (*Instance)(nil).FormatLength(7) != "7" {
		t.Error("a nil instance shows the integer")
	}
}

func TestGreatCircle(t *testing.T) {
	// A quarter of the equator, and the pole from the equator, at metres
	// and at centimetres.
	for _, exp := range []int{0, 2} {
		in := &Instance{N: 3, Metric: GreatCircle, X: []float64{0, 90, 10}, Y: []float64{0, 0, 90}, ScaleExp: exp}
		in.Prepare()
		quarter := EarthRadius * math.Pi / 2
		for _, p := range [][2]int{{0, 1}, {0, 2}, {1, 2}} {
			if d := in.LengthValue(in.Dist(p[0], p[1])); math.Abs(d-quarter) > 1 {
				t.Errorf("10^%d: d%v = %v m, want %v", exp, p, d, quarter)
			}
		}
		if in.Dist(1, 1) != 0 || in.Dist(0, 1) != in.Dist(1, 0) {
			t.Error("not a metric")
		}
		sub := in.WithCoords("part", in.X[:2], in.Y[:2], nil)
		if sub.Dist(0, 1) != in.Dist(0, 1) {
			t.Errorf("WithCoords measures %d, the whole %d", sub.Dist(0, 1), in.Dist(0, 1))
		}
	}
	if _, ok := ParseMetric("GREAT_CIRCLE"); ok {
		t.Error("GREAT_CIRCLE is not a TSPLIB keyword")
	}
	if GreatCircle.String() != "GREAT_CIRCLE" || (&Instance{Metric: GreatCircle}).LengthUnit() != "m" {
		t.Error("name or unit")
	}
}
