package gen

import (
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // FromImageFile decodes JPEG pictures
	_ "image/png"  // and PNG pictures
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/tsplab/tsplab/solver/problem"
)

// ImageExtensions are the picture extensions FromImageFile reads.
var ImageExtensions = []string{".png", ".jpg", ".jpeg"}

// Limits on the pictures FromImage takes.
const (
	// MaxImagePixels bounds a picture's width × height.
	MaxImagePixels = 64 << 20
	// ImageSide is the longer side of a picture's instance in coordinate units.
	ImageSide = 1_000_000
	// imageRelax is the number of weighted Lloyd steps after sampling.
	imageRelax = 6
	// imageBlank is the darkness below which a pixel gets no points.
	imageBlank = 0.04
)

// FromImageFile returns FromImage of the PNG or JPEG at path, refusing one over MaxImagePixels before decoding.
func FromImageFile(path string, n int, seed uint64) (*problem.Instance, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	cfg, _, err := image.DecodeConfig(f)
	if err != nil {
		return nil, fmt.Errorf("%s: not a PNG or JPEG picture: %v", path, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > MaxImagePixels {
		return nil, fmt.Errorf("%s: picture of %d×%d pixels: want 1 to %d pixels", path, cfg.Width, cfg.Height, MaxImagePixels)
	}
	if _, err := f.Seek(0, 0); err != nil {
		return nil, err
	}
	img, _, err := image.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	in, err := FromImage(img, n, seed)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	in.Name = strings.TrimSuffix(filepath.Base(path), filepath.Ext(path))
	return in, nil
}

// FromImage turns a picture into n cities whose density follows its darkness (weighted stippling, for TSP art),
// spread by weighted Lloyd relaxation: EUC_2D, integer coordinates, the longer side ImageSide units, y up.
func FromImage(img image.Image, n int, seed uint64) (*problem.Instance, error) {
	if n < 1 || n > MaxN {
		return nil, fmt.Errorf("gen: n must be within 1..%d, got %d", MaxN, n)
	}
	if img == nil {
		return nil, errors.New("gen: no picture")
	}
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 || w*h > MaxImagePixels {
		return nil, fmt.Errorf("gen: picture of %d×%d pixels: want 1 to %d pixels", w, h, MaxImagePixels)
	}
	d := darkness(img)
	rng := rand.New(rand.NewPCG(seed, 0x74737061727421)) // "tspart!"
	px, py, err := sampleDark(d, w, n, rng)
	if err != nil {
		return nil, err
	}
	relax(d, w, h, px, py, imageRelax)
	scale := float64(ImageSide) / float64(max(w, h))
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i] = math.Round(px[i] * scale)
		y[i] = math.Round((float64(h) - py[i]) * scale)
	}
	in := problem.NewCoordInstance(fmt.Sprintf("image-%d", n), problem.Euc2D, x, y, nil)
	in.Comment = fmt.Sprintf("TSP Lab gen: stippled %d×%d picture, %d points, seed %d", w, h, n, seed)
	return in, nil
}

// darkness returns each pixel's weight row-major: 1 black, 0 white, transparent or lighter than imageBlank.
func darkness(img image.Image) []float32 {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	d := make([]float32, w*h)
	rows(h, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			for x := range w {
				r, g, bl, a := img.At(b.Min.X+x, b.Min.Y+y).RGBA()
				// Over white: a premultiplied colour plus (1-a) of white.
				lum := (0.299*float64(r) + 0.587*float64(g) + 0.114*float64(bl) + float64(0xffff-a)) / 0xffff
				v := (1 - lum - imageBlank) / (1 - imageBlank)
				d[y*w+x] = float32(min(max(v, 0), 1))
			}
		}
	})
	return d
}

// rows runs f over [0, h) split into one band per core, and waits.
func rows(h int, f func(y0, y1 int)) {
	k := min(runtime.GOMAXPROCS(0), max(h, 1))
	var wg sync.WaitGroup
	for i := range k {
		wg.Go(func() { f(h*i/k, h*(i+1)/k) })
	}
	wg.Wait()
}

// sampleDark draws n points with probability proportional to darkness, along a Hilbert curve so every region gets its share.
func sampleDark(d []float32, w, n int, rng *rand.Rand) (px, py []float64, err error) {
	h := len(d) / w
	total := 0.0
	for _, v := range d {
		total += float64(v)
	}
	if total == 0 {
		return nil, nil, errors.New("gen: the picture has no dark pixels to place points on")
	}
	side := 1
	for side < max(w, h) {
		side *= 2
	}
	step := total / float64(n)
	next := rng.Float64() * step
	acc := 0.0
	px, py = make([]float64, 0, n), make([]float64, 0, n)
	for k := 0; k < side*side && len(px) < n; k++ {
		x, y := hilbertXY(side, k)
		if x >= w || y >= h {
			continue
		}
		acc += float64(d[y*w+x])
		for acc > next && len(px) < n {
			px = append(px, float64(x)+rng.Float64())
			py = append(py, float64(y)+rng.Float64())
			next += step
		}
	}
	for len(px) < n { // rounding left the last point or so unplaced
		px = append(px, px[len(px)-1])
		py = append(py, py[len(py)-1])
	}
	return px, py, nil
}

// hilbertXY returns the cell at position k along a side × side Hilbert curve.
func hilbertXY(side, k int) (x, y int) {
	for s := 1; s < side; s *= 2 {
		rx := 1 & (k / 2)
		ry := 1 & (k ^ rx)
		if ry == 0 {
			if rx == 1 {
				x, y = s-1-x, s-1-y
			}
			x, y = y, x
		}
		x += s * rx
		y += s * ry
		k /= 4
	}
	return x, y
}
