package main

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/tourview"
)

// TestXvfbScreenshot starts the real app binary in a real X window on a
// private Xvfb display, lets it run a bundled sample for two seconds and
// checks both what the X server showed (its -fbdir framebuffer) and the
// --screenshot file. It skips when Xvfb is not installed.
func TestXvfbScreenshot(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the Xvfb test (it builds and runs the app)")
	}
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("Xvfb is not installed (apt-get install xvfb): skipping the real-window test")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "tsplab")
	build := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	display, stop := startXvfb(t, xvfb, filepath.Join(dir, "fb"))
	defer stop()

	shot := filepath.Join(dir, "single.png")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--open", "clustered-1000", "--algo", "pspm", "--backend", "cpu", "--run", "2s", "--screenshot", shot)
	cmd.Env = append(os.Environ(), "DISPLAY="+display,
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()

	// While the app runs, the X server's own framebuffer must show the
	// tour being drawn.
	var seen int
	var werr error
poll:
	for {
		select {
		case werr = <-exited:
			break poll
		case <-time.After(200 * time.Millisecond):
			if img, err := readXWD(filepath.Join(dir, "fb", "Xvfb_screen0")); err == nil {
				seen = max(seen, countColor(img, tourview.TourColor))
			}
		}
	}
	if werr != nil {
		t.Fatalf("tsplab: %v\n%s", werr, out.String())
	}
	if seen < 100 {
		t.Errorf("the X framebuffer never showed the tour colour (max %d pixels)\n%s", seen, out.String())
	}

	f, err := os.Open(shot)
	if err != nil {
		t.Fatalf("no screenshot: %v\n%s", err, out.String())
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if b := img.Bounds(); b.Dx() < 800 || b.Dy() < 500 || b.Dx() > 1600 || b.Dy() > 1000 {
		t.Errorf("screenshot is %v, want the window's size", b)
	}
	if n := countColors(img, 50); n < 50 {
		t.Errorf("screenshot has %d colours: a blank window?", n)
	}
	if n := countColor(img, tourview.TourColor); n < 100 {
		t.Errorf("screenshot shows %d tour-coloured pixels, want the tour", n)
	}
	if d := os.Getenv("TSPLAB_SCREENSHOT_DIR"); d != "" {
		data, _ := os.ReadFile(shot)
		if err := os.WriteFile(filepath.Join(d, "xvfb-single.png"), data, 0o644); err != nil {
			t.Error(err)
		}
	}
}

// startXvfb starts Xvfb on a free display with its framebuffer in fbdir.
func startXvfb(t *testing.T, xvfb, fbdir string) (string, func()) {
	t.Helper()
	if err := os.MkdirAll(fbdir, 0o755); err != nil {
		t.Fatal(err)
	}
	for d := 90 + os.Getpid()%50; d < 200; d++ {
		if _, err := os.Stat(fmt.Sprintf("/tmp/.X%d-lock", d)); err == nil {
			continue
		}
		cmd := exec.Command(xvfb, fmt.Sprintf(":%d", d), "-screen", "0", "1600x1000x24", "-nolisten", "tcp", "-fbdir", fbdir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		sock := fmt.Sprintf("/tmp/.X11-unix/X%d", d)
		for i := 0; i < 100; i++ {
			select {
			case <-exited:
				i = 100 // display taken meanwhile: try the next one
				continue
			case <-time.After(50 * time.Millisecond):
			}
			if _, err := os.Stat(sock); err == nil {
				return fmt.Sprintf(":%d", d), func() { cmd.Process.Kill(); <-exited }
			}
		}
		cmd.Process.Kill()
		<-exited
	}
	t.Fatal("no free X display for Xvfb")
	return "", nil
}

// readXWD reads Xvfb's -fbdir screen dump: an XWD file with 32-bit
// pixels (BGRX).
func readXWD(path string) (*image.RGBA, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(b) < 100 {
		return nil, errors.New("short XWD header")
	}
	be := binary.BigEndian
	hsize := int(be.Uint32(b[0:]))
	w, h := int(be.Uint32(b[16:])), int(be.Uint32(b[20:]))
	bpp, bpl := int(be.Uint32(b[44:])), int(be.Uint32(b[48:]))
	ncolors := int(be.Uint32(b[76:]))
	off := hsize + ncolors*12
	if bpp != 32 || w <= 0 || h <= 0 || off+h*bpl > len(b) {
		return nil, fmt.Errorf("unexpected XWD layout (%dx%d, %d bpp)", w, h, bpp)
	}
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		row := b[off+y*bpl:]
		for x := 0; x < w; x++ {
			o := img.PixOffset(x, y)
			img.Pix[o], img.Pix[o+1], img.Pix[o+2], img.Pix[o+3] = row[x*4+2], row[x*4+1], row[x*4], 255
		}
	}
	return img, nil
}

func countColor(img image.Image, c color.RGBA) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, _ := img.At(x, y).RGBA()
			if uint8(r>>8) == c.R && uint8(g>>8) == c.G && uint8(bb>>8) == c.B {
				n++
			}
		}
	}
	return n
}

// countColors counts distinct colours, stopping at limit.
func countColors(img image.Image, limit int) int {
	seen := map[color.RGBA]bool{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y && len(seen) < limit; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bb, a := img.At(x, y).RGBA()
			seen[color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(bb >> 8), uint8(a >> 8)}] = true
		}
	}
	return len(seen)
}
