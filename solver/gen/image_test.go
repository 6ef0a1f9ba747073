package gen

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// halves is a w × h picture with the left half of grey level left and
// the right half of right (0 black, 255 white).
func halves(w, h int, left, right uint8) *image.Gray {
	img := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			v := right
			if x < w/2 {
				v = left
			}
			img.SetGray(x, y, color.Gray{Y: v})
		}
	}
	return img
}

func TestFromImageDensity(t *testing.T) {
	// Black and white: every point on the black half (the left, x small).
	in, err := FromImage(halves(200, 100, 0, 255), 3000, 1)
	if err != nil {
		t.Fatal(err)
	}
	if in.N != 3000 || in.Metric.String() != "EUC_2D" {
		t.Fatalf("N %d metric %v", in.N, in.Metric)
	}
	for i := range in.N {
		if in.X[i] < 0 || in.X[i] > ImageSide/2 || in.Y[i] < 0 || in.Y[i] > ImageSide/2 || in.X[i] != math.Round(in.X[i]) {
			t.Fatalf("point %d at (%v, %v): want integers on the black half [0, %d]×[0, %d]", i, in.X[i], in.Y[i], ImageSide/2, ImageSide/2)
		}
	}
	// Black beside mid grey: about twice the points on the black side
	// (grey 128 is darkness 0.498, less the blank threshold).
	in, err = FromImage(halves(200, 200, 0, 128), 4000, 2)
	if err != nil {
		t.Fatal(err)
	}
	left := 0
	for i := range in.N {
		if in.X[i] < ImageSide/2 {
			left++
		}
	}
	grey := (1 - 128.0/255 - imageBlank) / (1 - imageBlank)
	want := float64(in.N) / (1 + grey)
	if math.Abs(float64(left)-want) > 0.05*want {
		t.Fatalf("%d of %d points on the black half, want about %.0f", left, in.N, want)
	}
}

func TestFromImageDeterministic(t *testing.T) {
	img := halves(64, 48, 30, 200)
	a, _ := FromImage(img, 500, 7)
	b, _ := FromImage(img, 500, 7)
	c, _ := FromImage(img, 500, 8)
	if !slices.Equal(a.X, b.X) || !slices.Equal(a.Y, b.Y) {
		t.Fatal("the same seed gave other points")
	}
	if slices.Equal(a.X, c.X) {
		t.Fatal("another seed gave the same points")
	}
}

func TestFromImageBad(t *testing.T) {
	cases := []struct {
		name string
		img  image.Image
		n    int
		want string
	}{
		{"white", halves(10, 10, 255, 255), 10, "no dark pixels"},
		{"near white", halves(10, 10, 250, 250), 10, "no dark pixels"},
		{"transparent", image.NewNRGBA(image.Rect(0, 0, 5, 5)), 10, "no dark pixels"},
		{"empty", image.NewGray(image.Rect(0, 0, 0, 0)), 10, "pixels"},
		{"nil", nil, 10, "no picture"},
		{"zero n", halves(10, 10, 0, 0), 0, "n must be"},
		{"huge n", halves(10, 10, 0, 0), MaxN + 1, "n must be"},
	}
	for _, c := range cases {
		if _, err := FromImage(c.img, c.n, 1); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: got %v, want an error with %q", c.name, err, c.want)
		}
	}
	// One point, and more points than dark pixels, are fine.
	for _, n := range []int{1, 500} {
		if in, err := FromImage(halves(4, 4, 0, 255), n, 1); err != nil || in.N != n {
			t.Errorf("n=%d: %v", n, err)
		}
	}
}

// nnSpread is the coefficient of variation of the points' nearest-
// neighbour distances: smaller is more even.
func nnSpread(px, py []float64) float64 {
	var s, s2 float64
	for i := range px {
		best := math.Inf(1)
		for j := range px {
			if j != i {
				best = math.Min(best, math.Hypot(px[i]-px[j], py[i]-py[j]))
			}
		}
		s += best
		s2 += best * best
	}
	m := s / float64(len(px))
	return math.Sqrt(s2/float64(len(px))-m*m) / m
}

// TestRelaxEvens checks that the Lloyd steps spread random points evenly
// over a uniform grey picture.
func TestRelaxEvens(t *testing.T) {
	const w, h, n = 100, 100, 1500
	d := darkness(halves(w, h, 100, 100))
	px, py, err := sampleDark(d, w, n, rand.New(rand.NewPCG(1, 2)))
	if err != nil {
		t.Fatal(err)
	}
	before := nnSpread(px, py)
	relax(d, w, h, px, py, imageRelax)
	after := nnSpread(px, py)
	if after > 0.6*before {
		t.Fatalf("nearest-neighbour spread %.3f before, %.3f after relaxing: want much smaller", before, after)
	}
	for i := range n {
		if px[i] < 0 || px[i] > w || py[i] < 0 || py[i] > h {
			t.Fatalf("point %d left the picture: (%v, %v)", i, px[i], py[i])
		}
	}
}

func TestFromImageFile(t *testing.T) {
	dir := t.TempDir()
	img := halves(40, 30, 0, 255)
	pngPath, jpgPath := filepath.Join(dir, "portrait.png"), filepath.Join(dir, "p.jpg")
	for _, f := range []struct {
		path string
		enc  func(*os.File) error
	}{
		{pngPath, func(w *os.File) error { return png.Encode(w, img) }},
		{jpgPath, func(w *os.File) error { return jpeg.Encode(w, img, nil) }},
	} {
		w, err := os.Create(f.path)
		if err != nil {
			t.Fatal(err)
		}
		if err := f.enc(w); err != nil {
			t.Fatal(err)
		}
		w.Close()
		in, err := FromImageFile(f.path, 200, 1)
		if err != nil || in.N != 200 {
			t.Fatalf("%s: %v", f.path, err)
		}
	}
	if in, _ := FromImageFile(pngPath, 10, 1); in.Name != "portrait" {
		t.Errorf("name %q, want portrait", in.Name)
	}
	txt := filepath.Join(dir, "notes.png")
	os.WriteFile(txt, []byte("not a picture"), 0o644)
	if _, err := FromImageFile(txt, 10, 1); err == nil || !strings.Contains(err.Error(), "notes.png: not a PNG or JPEG") {
		t.Fatalf("text file: %v", err)
	}
	if _, err := FromImageFile(filepath.Join(dir, "missing.png"), 10, 1); err == nil {
		t.Fatal("missing file read")
	}
}

// TestSamplePicture stipples the sample portrait: its dark hair draws
// more points than as much of its light background.
func TestSamplePicture(t *testing.T) {
	img := SamplePicture(200)
	if b := img.Bounds(); b.Dx() != 200 || b.Dy() != 200 {
		t.Fatalf("bounds %v", b)
	}
	in, err := FromImage(img, 2000, 1)
	if err != nil {
		t.Fatal(err)
	}
	hair, corner := 0, 0
	for i := range in.N {
		x, y := in.X[i]/ImageSide, in.Y[i]/ImageSide // 0..1, y up
		if x > 0.45 && x < 0.55 && y > 0.8 && y < 0.85 {
			hair++
		}
		if x < 0.1 && y > 0.75 && y < 0.8 {
			corner++
		}
	}
	if hair < 20 || corner > hair/4 {
		t.Fatalf("%d points in a strip of hair, %d in as much background", hair, corner)
	}
}

// TestFromImageFileHuge refuses a picture whose header declares more than
// MaxImagePixels before decoding it.
func TestFromImageFileHuge(t *testing.T) {
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	data := b.Bytes()
	// IHDR: length(4) "IHDR"(4) width(4) height(4) ... CRC after 13 bytes.
	ihdr := data[8:]
	binary.BigEndian.PutUint32(ihdr[8:], 100000)
	binary.BigEndian.PutUint32(ihdr[12:], 100000)
	binary.BigEndian.PutUint32(ihdr[8+13:], crc32.ChecksumIEEE(ihdr[4:8+13]))
	p := filepath.Join(t.TempDir(), "huge.png")
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := FromImageFile(p, 10, 1); err == nil || !strings.Contains(err.Error(), "100000×100000 pixels") {
		t.Fatalf("got %v, want a refusal of 100000×100000 pixels", err)
	}
}

// FuzzFromImage stipples arbitrary small grey pictures: an error or n
// points inside the picture's frame, never a panic.
func FuzzFromImage(f *testing.F) {
	f.Add([]byte{3, 7, 0, 255, 0, 128, 255, 0, 0, 10})
	f.Add([]byte{1, 1, 255})
	f.Add([]byte{16, 200})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 2 {
			return
		}
		w, n := 1+int(data[0]%16), 1+int(data[1])
		pix := data[2:]
		h := max(1, len(pix)/w)
		img := image.NewGray(image.Rect(0, 0, w, h))
		copy(img.Pix, pix)
		in, err := FromImage(img, n, 1)
		if err != nil {
			return
		}
		if in.N != n {
			t.Fatalf("%d points, want %d", in.N, n)
		}
		for i := range n {
			if in.X[i] < 0 || in.X[i] > ImageSide || in.Y[i] < 0 || in.Y[i] > ImageSide {
				t.Fatalf("point %d at (%v, %v) outside the frame", i, in.X[i], in.Y[i])
			}
		}
	})
}
