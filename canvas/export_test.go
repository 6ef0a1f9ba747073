package canvas

import (
	"bytes"
	"image/png"
	"testing"

	"github.com/tsplab/tsplab/solver"
)

func TestExportScene(t *testing.T) {
	in := solver.NewCoordInstance("sq", solver.Euc2D, []float64{0, 100, 100, 0}, []float64{0, 0, 100, 100}, nil)
	var buf bytes.Buffer
	if err := Export(&buf, "png", Scene{Instance: in, Tour: []int{0, 1, 2, 3}}, 200, 0); err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if img.Bounds().Dx() != 200 {
		t.Errorf("width %d, want 200", img.Bounds().Dx())
	}
	if f, err := FormatOf("x.SVG"); err != nil || f != "svg" {
		t.Errorf("FormatOf(x.SVG) = %q, %v", f, err)
	}
	if err := Export(&bytes.Buffer{}, "png", Scene{Instance: solver.NewMatrixInstance("m", 2, []int32{0, 1, 1, 0})}, 100, 0); err == nil {
		t.Error("no error for an instance without coordinates")
	}
}
