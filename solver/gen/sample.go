package gen

import (
	"image"
	"image/color"
	"math"
)

// SamplePicture draws a size × size grey portrait for trying TSP art: FromImage(SamplePicture(1000), 20000, 1).
func SamplePicture(size int) *image.Gray {
	size = max(size, 8)
	img := image.NewGray(image.Rect(0, 0, size, size))
	s := float64(size)
	for py := range size {
		for px := range size {
			// u right, v down, both about -1..1 around the middle.
			u, v := 2*(float64(px)+0.5)/s-1, 2*(float64(py)+0.5)/s-1
			img.SetGray(px, py, color.Gray{Y: uint8(255 * portraitTone(u, v))})
		}
	}
	return img
}

// ellipse returns how deep (u, v) lies in the ellipse: 1 at the centre, 0 on the edge, negative outside.
func ellipse(u, v, cu, cv, ru, rv float64) float64 {
	du, dv := (u-cu)/ru, (v-cv)/rv
	return 1 - (du*du + dv*dv)
}

// portraitTone is the portrait's brightness at (u, v): 1 white, 0 black.
func portraitTone(u, v float64) float64 {
	tone := 0.97                                            // background
	if v > 0.55 && ellipse(u, v, 0, 1.25, 0.95, 0.75) > 0 { // shoulders
		tone = 0.35 + 0.3*(u+1)/2
	}
	if ellipse(u, v, 0, 0.45, 0.17, 0.35) > 0 { // neck
		tone = 0.55 + 0.2*(u+1)/2
	}
	head := ellipse(u, v, 0, -0.05, 0.42, 0.56)
	if head > 0 {
		// Lit from the upper left: darker to the right and below.
		light := 0.55*(u+0.42)/0.84 + 0.25*(v+0.6)/1.1
		rim := 1 - math.Sqrt(head)
		tone = math.Max(0.2, 0.99-0.3*light-0.6*rim*rim)
	}
	if ellipse(u, v, 0, -0.32, 0.47, 0.36) > 0 && v < -0.28+0.12*math.Abs(u) { // hair
		tone = 0.08 + 0.1*(u+1)/2
	}
	for _, side := range []float64{-1, 1} {
		cu := 0.17 * side
		if e := ellipse(u, v, cu, -0.12, 0.09, 0.04); e > 0 { // eye
			tone = 0.9
			if ellipse(u, v, cu, -0.12, 0.035, 0.035) > 0 {
				tone = 0.05
			}
		}
		if ellipse(u, v, cu, -0.22, 0.11, 0.028) > 0 { // brow
			tone = 0.1
		}
	}
	if ellipse(u, v, 0.035, 0.04, 0.022, 0.11) > 0 { // the nose's shadow
		tone *= 0.5
	}
	if ellipse(u, v, 0, 0.25, 0.12, 0.03) > 0 { // mouth
		tone = 0.15
	}
	return tone
}
