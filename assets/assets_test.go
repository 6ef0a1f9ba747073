package assets

import (
	"bytes"
	"image/png"
	"io/fs"
	"strings"
	"testing"
)

func TestIconIsASquarePNG(t *testing.T) {
	img, err := png.Decode(bytes.NewReader(IconPNG))
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() != 512 || b.Dy() != 512 {
		t.Errorf("icon is %v, want 512×512", b)
	}
	// The corners are transparent (rounded square), the middle is not.
	if _, _, _, a := img.At(0, 0).RGBA(); a != 0 {
		t.Errorf("corner alpha %d, want transparent", a)
	}
	if _, _, _, a := img.At(256, 256).RGBA(); a == 0 {
		t.Error("centre is transparent")
	}
}

func TestSamplesAreEmbedded(t *testing.T) {
	tsp, err := fs.Glob(Samples, "samples/*.tsp")
	if err != nil || len(tsp) == 0 {
		t.Fatalf("no bundled .tsp samples (%v)", err)
	}
	csv, err := Samples.ReadFile("samples/optima.csv")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(csv), "name,") {
		t.Errorf("optima.csv starts %q, want a header with name", strings.SplitN(string(csv), "\n", 2)[0])
	}
	for _, p := range tsp {
		data, _ := Samples.ReadFile(p)
		if !bytes.Contains(data, []byte("DIMENSION")) {
			t.Errorf("%s has no DIMENSION", p)
		}
	}
}
