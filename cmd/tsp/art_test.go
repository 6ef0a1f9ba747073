package main

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGenImageArt runs the TSP-art path as a user would: a picture to
// cities, a tour, one SVG path for a plotter.
func TestGenImageArt(t *testing.T) {
	dir := t.TempDir()
	img := image.NewGray(image.Rect(0, 0, 60, 40))
	for y := range 40 {
		for x := range 60 {
			img.SetGray(x, y, color.Gray{Y: uint8(4 * x)})
		}
	}
	pic := filepath.Join(dir, "ramp.png")
	f, err := os.Create(pic)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	f.Close()
	art, tour, svg := filepath.Join(dir, "art.tsp"), filepath.Join(dir, "art.tour"), filepath.Join(dir, "art.svg")
	if code, _, stderr := tsp(t, "gen", "--kind", "image", "--image", pic, "--n", "300", "--out", art); code != 0 {
		t.Fatalf("gen: exit %d %s", code, stderr)
	}
	if code, out, stderr := tsp(t, "solve", art, "--backend", "cpu", "--time", "2s", "--out", tour); code != 0 || !strings.HasPrefix(out, "art: length ") {
		t.Fatalf("solve: exit %d %s%s", code, out, stderr)
	}
	if code, _, stderr := tsp(t, "render", art, "--tour", tour, "--svg-path", "--out", svg); code != 0 {
		t.Fatalf("render --svg-path: exit %d %s", code, stderr)
	}
	b, err := os.ReadFile(svg)
	if err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if strings.Count(s, "<path") != 1 || strings.Count(s, "<") != 4 || strings.Count(s, " Z\"") != 1 || strings.Count(s, ",") != 300 {
		t.Fatalf("not one closed path through 300 points:\n%.300s", s)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"gen", "--kind", "image", "--n", "10"}, "--kind image needs it"},
		{[]string{"gen", "--kind", "uniform", "--image", pic, "--n", "10"}, "--image goes with --kind image"},
		{[]string{"gen", "--kind", "image", "--image", filepath.Join(dir, "none.png"), "--n", "10"}, "none.png"},
		{[]string{"gen", "--kind", "image", "--image", art, "--n", "10"}, "art.tsp: not a PNG or JPEG"},
		{[]string{"render", art, "--svg-path", "--out", svg}, "--svg-path needs --tour"},
	} {
		code, _, stderr := tsp(t, c.args...)
		if code == 0 || !strings.Contains(stderr, c.want) {
			t.Errorf("%v: exit %d, %q; want an error with %q", c.args, code, stderr, c.want)
		}
	}
}
