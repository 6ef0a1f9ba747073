//go:build ignore

// icon_gen draws assets/icon.png: a closed tour through twelve cities on a
// dark rounded square, the way the app draws a tour. Run it with
// `go generate ./assets` (or `go run icon_gen.go` inside assets/).
package main

import (
	"image"
	"image/color"
	"image/png"
	"log"
	"math"
	"os"
)

const size = 512

// The cities, in tour order, on a 0..1 square.
var cities = [][2]float64{
	{0.22, 0.30}, {0.40, 0.20}, {0.62, 0.24}, {0.80, 0.34}, {0.76, 0.54}, {0.84, 0.74},
	{0.62, 0.82}, {0.46, 0.66}, {0.30, 0.80}, {0.16, 0.66}, {0.28, 0.50}, {0.14, 0.42},
}

var (
	background = color.RGBA{24, 26, 32, 255}
	tourColor  = color.RGBA{255, 150, 30, 255}
	cityColor  = color.RGBA{235, 238, 245, 255}
)

// segDist is the distance from p to the segment ab.
func segDist(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := ((px-ax)*dx + (py-ay)*dy) / (dx*dx + dy*dy)
	t = math.Max(0, math.Min(1, t))
	ex, ey := ax+t*dx-px, ay+t*dy-py
	return math.Hypot(ex, ey)
}

// cover is the anti-aliased coverage at distance d from a shape's edge (d < 0 inside).
func cover(d float64) float64 { return math.Max(0, math.Min(1, 0.5-d)) }

func blend(dst color.RGBA, src color.RGBA, a float64) color.RGBA {
	mix := func(d, s uint8) uint8 { return uint8(float64(d)*(1-a) + float64(s)*a + 0.5) }
	return color.RGBA{mix(dst.R, src.R), mix(dst.G, src.G), mix(dst.B, src.B), uint8(math.Max(float64(dst.A), 255*a))}
}

func main() {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	const radius, inset = 96.0, 16.0
	lineHalf, cityR := 11.0, 22.0
	for y := 0; y < size; y++ {
		for x := 0; x < size; x++ {
			px, py := float64(x)+0.5, float64(y)+0.5
			// Rounded square: distance to the inner rectangle minus the radius.
			qx := math.Max(math.Abs(px-size/2)-(size/2-inset-radius), 0)
			qy := math.Max(math.Abs(py-size/2)-(size/2-inset-radius), 0)
			c := color.RGBA{}
			if a := cover(math.Hypot(qx, qy) - radius); a > 0 {
				c = blend(c, background, a)
				c.A = uint8(255 * a)
			}
			if c.A == 0 {
				continue
			}
			d := math.Inf(1)
			for i := range cities {
				a, b := cities[i], cities[(i+1)%len(cities)]
				d = math.Min(d, segDist(px, py, a[0]*size, a[1]*size, b[0]*size, b[1]*size))
			}
			c = blend(c, tourColor, cover(d-lineHalf))
			for _, p := range cities {
				c = blend(c, cityColor, cover(math.Hypot(px-p[0]*size, py-p[1]*size)-cityR))
			}
			img.SetRGBA(x, y, c)
		}
	}
	f, err := os.Create("icon.png")
	if err != nil {
		log.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		log.Fatal(err)
	}
	if err := f.Close(); err != nil {
		log.Fatal(err)
	}
}
