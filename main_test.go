package main

import (
	"bufio"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/tsplab/tsplab/app"
	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/solver/session"
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
	bin := buildApp(t)
	display, stop := startXvfb(t, xvfb, filepath.Join(dir, "fb"))
	defer stop()

	shot := filepath.Join(dir, "single.png")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--open", "clustered-1000", "--algo", "pspm", "--backend", "cpu", "--run", "2s", "--size", "1280x800", "--screenshot", shot)
	// Under the C locale Fyne finds no language; the app must still print
	// no "Fyne error" lines.
	cmd.Env = append(cLocaleEnv(), "DISPLAY="+display,
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
				seen = max(seen, countColor(img, export.TourColor))
			}
		}
	}
	if werr != nil {
		t.Fatalf("tsplab: %v\n%s", werr, out.String())
	}
	if seen < 100 {
		t.Errorf("the X framebuffer never showed the tour colour (max %d pixels)\n%s", seen, out.String())
	}
	if e := fyneErrors(out.String()); e != "" {
		t.Errorf("Fyne errors on the terminal under LANG=C:\n%s", e)
	}
	// A screenshot that worked is no news: only the run's line is printed.
	if strings.Contains(out.String(), "screenshot") {
		t.Errorf("a successful --screenshot printed a note:\n%s", out.String())
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
	if b := img.Bounds(); b.Dx() != 1280 || b.Dy() != 800 {
		t.Errorf("screenshot is %v, want the window's 1280x800 (--size)", b)
	}
	if n := countColors(img, 50); n < 50 {
		t.Errorf("screenshot has %d colours: a blank window?", n)
	}
	if n := countColor(img, export.TourColor); n < 100 {
		t.Errorf("screenshot shows %d tour-coloured pixels, want the tour", n)
	}
	if d := os.Getenv("TSPLAB_SCREENSHOT_DIR"); d != "" {
		data, _ := os.ReadFile(shot)
		if err := os.WriteFile(filepath.Join(d, "xvfb-single.png"), data, 0o644); err != nil {
			t.Error(err)
		}
	}
}

// TestXvfbLayout opens the app in real X windows of the default size
// (1400×880): the time limit, the seed and Run lie inside the window
// without scrolling, and in compare mode each pane's canvas has room
// and its Run, plot and figures are on screen, there and at 1280×800
// and 1600×1000, as the window lays them out ($TSPLAB_LAYOUT).
func TestXvfbLayout(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the Xvfb test (it builds and runs the app)")
	}
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("Xvfb is not installed (apt-get install xvfb): skipping the real-window test")
	}
	dir := t.TempDir()
	bin := buildApp(t)
	display, stop := startXvfb(t, xvfb, filepath.Join(dir, "fb"))
	defer stop()
	// In compare mode every figure of both panes and the plot are on
	// screen at 1280×800 and at the README's 1600×1000 too.
	figures := []string{"A Run", "B Run", "A canvas", "B canvas", "A plot", "B plot", "A Gap", "B Gap", "A Moves", "B Moves", "A Elapsed", "B Elapsed"}
	for _, c := range []struct {
		name   string
		args   []string
		inside []string
		tall   []string // landmarks at least 350 px tall
		w, h   float64  // the window's size (0: the default 1400×880)
	}{
		{"single", nil, []string{"Run", "Time limit", "Seed", "canvas"}, []string{"canvas"}, 0, 0},
		{"compare", []string{"--compare"}, figures, []string{"A canvas", "B canvas"}, 0, 0},
		{"compare-1280", []string{"--compare", "--size", "1280x800"}, figures, nil, 1280, 800},
		{"compare-1600", []string{"--compare", "--size", "1600x1000"}, figures, []string{"A canvas", "B canvas"}, 1600, 1000},
	} {
		layout := filepath.Join(dir, c.name+".layout")
		args := append([]string{"--open", "grid-20x20", "--screenshot", filepath.Join(dir, c.name+".png")}, c.args...)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		cmd := exec.CommandContext(ctx, bin, args...)
		cmd.Env = append(cLocaleEnv(), "DISPLAY="+display, "TSPLAB_LAYOUT="+layout,
			"XDG_CONFIG_HOME="+filepath.Join(dir, c.name, "config"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("%s: tsplab: %v\n%s", c.name, err, out)
		}
		data, err := os.ReadFile(layout)
		if err != nil {
			t.Fatalf("%s: no layout written: %v\n%s", c.name, err, out)
		}
		boxes := map[string][4]float64{}
		for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
			name, nums, _ := strings.Cut(line, "\t")
			var b [4]float64
			if _, err := fmt.Sscan(nums, &b[0], &b[1], &b[2], &b[3]); err != nil {
				t.Fatalf("%s: layout line %q: %v", c.name, line, err)
			}
			boxes[name] = b
		}
		win := boxes["window"]
		if c.w == 0 {
			c.w, c.h = 1400, 880
		}
		if win[2] != c.w || win[3] != c.h {
			t.Errorf("%s: the window is %vx%v, want %vx%v", c.name, win[2], win[3], c.w, c.h)
		}
		for _, name := range c.inside {
			b, ok := boxes[name]
			if !ok || b[2] <= 0 || b[3] <= 0 || b[0] < 0 || b[1] < 0 || b[0]+b[2] > win[2]+0.5 || b[1]+b[3] > win[3]+0.5 {
				t.Errorf("%s: %s at %v is not wholly inside the %vx%v window", c.name, name, b, win[2], win[3])
			}
		}
		for _, name := range c.tall {
			if b := boxes[name]; b[3] < 350 {
				t.Errorf("%s: %s is %v px tall, want at least 350", c.name, name, b[3])
			}
		}
	}
}

// builds are the app binaries the tests built, by build tags ("" or
// "headless"), each built once.
var (
	buildMu  sync.Mutex
	builds   = map[string]string{}
	buildDir string
)

// TestMain removes the binaries the tests built.
func TestMain(m *testing.M) {
	// the app's runs keep their bounds in a cache of the tests' own
	cache, err := os.MkdirTemp("", "tsplab-cache-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv(session.CacheDirEnv, cache)
	code := m.Run()
	if buildDir != "" {
		os.RemoveAll(buildDir)
	}
	os.RemoveAll(cache)
	os.Exit(code)
}

// buildApp builds the app (with the given build tags) once for all the
// tests that run it.
func buildApp(t *testing.T, tags ...string) string {
	t.Helper()
	buildMu.Lock()
	defer buildMu.Unlock()
	key := strings.Join(tags, ",")
	if bin, ok := builds[key]; ok {
		return bin
	}
	if buildDir == "" {
		d, err := os.MkdirTemp("", "tsplab-test-")
		if err != nil {
			t.Fatal(err)
		}
		buildDir = d
	}
	bin := filepath.Join(buildDir, "tsplab-"+strings.ReplaceAll(key, ",", "-"))
	args := []string{"build", "-o", bin}
	if key != "" {
		args = append(args, "-tags", key)
	}
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), append(args, ".")...).CombinedOutput()
	if err != nil {
		t.Fatalf("go build %s: %v\n%s", key, err, out)
	}
	builds[key] = bin
	return bin
}

// cLocaleEnv is the environment with the C locale and no display.
func cLocaleEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		switch k {
		case "LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE", "DISPLAY", "WAYLAND_DISPLAY":
			continue
		}
		env = append(env, kv)
	}
	return append(env, "LANG=C")
}

// fyneErrors returns the "Fyne error" lines of out, one per line, but
// for Fyne's own race in reloading preferences.json while it rewrites the
// file (its file watcher can read the file between truncation and write,
// most often when the app quits; the values in memory are kept), which
// has nothing to do with what the tests check.
func fyneErrors(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "Fyne error") && !strings.Contains(l, "Preferences load error") {
			b.WriteString(l + "\n")
		}
	}
	return b.String()
}

// TestScreenshotWithoutDisplay runs the app binary with no display at
// all, once in the single view and once, built with -tags headless (no
// window driver), in compare mode with the panes and the window size from
// the flags: --screenshot draws the window with Fyne's software renderer,
// and the picture shows the window with the tour.
func TestScreenshotWithoutDisplay(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the test that builds and runs the app")
	}
	for _, c := range []struct {
		name string
		tags []string
		args []string
		w, h int // 0: the default size
	}{
		{"single", nil, []string{"--open", "clustered-1000", "--algo", "sspm", "--backend", "cpu", "--run", "1s"}, 0, 0},
		{"compare", []string{"headless"}, []string{"--open", "grid-20x20", "--compare", "--a", "sspm/cpu", "--b", "auto/cpu", "--run", "1s", "--size", "1200x760"}, 1200, 760},
	} {
		bin := buildApp(t, c.tags...)
		dir := t.TempDir()
		shot := filepath.Join(dir, c.name+".png")
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		cmd := exec.CommandContext(ctx, bin, append(c.args, "--screenshot", shot)...)
		cmd.Env = append(cLocaleEnv(), "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("%s: tsplab without a display: %v\n%s", c.name, err, out)
		}
		if e := fyneErrors(string(out)); e != "" || strings.Contains(string(out), "Error in Fyne call thread") {
			t.Errorf("%s: Fyne errors on the terminal:\n%s", c.name, out)
		}
		f, err := os.Open(shot)
		if err != nil {
			t.Fatalf("%s: no screenshot: %v\n%s", c.name, err, out)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		b := img.Bounds()
		if c.w > 0 && (b.Dx() != c.w || b.Dy() != c.h) {
			t.Errorf("%s: screenshot is %v, want %dx%d (--size)", c.name, b, c.w, c.h)
		} else if b.Dx() < 800 || b.Dy() < 500 {
			t.Errorf("%s: screenshot is %v, want the window's size", c.name, b)
		}
		if n := countColors(img, 50); n < 50 {
			t.Errorf("%s: screenshot has %d colours: a blank window?", c.name, n)
		}
		if n := countColor(img, export.TourColor); n < 100 {
			t.Errorf("%s: screenshot shows %d tour-coloured pixels, want the tour", c.name, n)
		}
		if d := os.Getenv("TSPLAB_SCREENSHOT_DIR"); d != "" {
			data, _ := os.ReadFile(shot)
			if err := os.WriteFile(filepath.Join(d, "headless-"+c.name+".png"), data, 0o644); err != nil {
				t.Error(err)
			}
		}
	}
}

// TestCLocaleFix: whichever of $LC_ALL, $LC_MESSAGES and $LANG decides
// the language, a C or POSIX value (or none) becomes one Fyne can parse,
// and a real locale is left alone.
func TestCLocaleFix(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		name string // the variable that should decide afterwards
		want string
	}{
		{map[string]string{}, "LANG", "en_US.UTF-8"},
		{map[string]string{"LANG": "C"}, "LANG", "en_US.UTF-8"},
		{map[string]string{"LANG": "C.UTF-8"}, "LANG", "en_US.UTF-8"},
		{map[string]string{"LANG": "de_DE.UTF-8", "LC_ALL": "POSIX"}, "LC_ALL", "en_US.UTF-8"},
		{map[string]string{"LC_MESSAGES": "C", "LANG": "fr_FR.UTF-8"}, "LC_MESSAGES", "en_US.UTF-8"},
		{map[string]string{"LANG": "fr_FR.UTF-8"}, "LANG", "fr_FR.UTF-8"},
	} {
		for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
			t.Setenv(k, c.env[k])
			if c.env[k] == "" {
				os.Unsetenv(k)
			}
		}
		useCLocaleFix()
		if got := os.Getenv(c.name); got != c.want {
			t.Errorf("%v: %s=%q after the fix, want %q", c.env, c.name, got, c.want)
		}
	}
}

// TestHeadlessBuildHasNoWindowDriver: -tags headless links neither GLFW
// nor OpenGL, and asks for --screenshot.
func TestHeadlessBuildHasNoWindowDriver(t *testing.T) {
	out, err := exec.Command(filepath.Join(runtime.GOROOT(), "bin", "go"), "list", "-deps", "-tags", "headless", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.Contains(dep, "go-gl/") || strings.HasSuffix(dep, "/driver/glfw") {
			t.Errorf("the headless build depends on %s", dep)
		}
	}
	if testing.Short() {
		return
	}
	cmd := exec.Command(buildApp(t, "headless"), "--open", "grid-20x20")
	cmd.Env = cLocaleEnv()
	msg, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(msg), "--screenshot") {
		t.Errorf("the headless build without --screenshot: %v, %q; want exit 2 asking for --screenshot", err, msg)
	}
}

// TestMakeRunPicksTheVariant checks what `make run` would do (make -n)
// with an nvidia-smi that lists a GPU and with one that finds no driver.
func TestMakeRunPicksTheVariant(t *testing.T) {
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("make is not installed")
	}
	for _, c := range []struct {
		name, smi string
		want      []string
		not       []string
	}{
		{"GPU", "echo 'GPU 0: NVIDIA H100 80GB HBM3 (UUID: GPU-0)'", []string{"build-gpu.sh", "--backend gpu", "CUDA variant"}, []string{"CPU variant"}},
		{"no driver", "echo 'NVIDIA-SMI has failed because it could not communicate with the NVIDIA driver.'; exit 9", []string{"go build", "CPU variant"}, []string{"build-gpu.sh", "--backend gpu"}},
	} {
		bin := t.TempDir()
		if err := os.WriteFile(filepath.Join(bin, "nvidia-smi"), []byte("#!/bin/sh\n"+c.smi+"\n"), 0o755); err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("make", "-n", "run")
		cmd.Env = append(os.Environ(), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: make -n run: %v\n%s", c.name, err, out)
		}
		for _, w := range c.want {
			if !strings.Contains(string(out), w) {
				t.Errorf("%s: make -n run lacks %q:\n%s", c.name, w, out)
			}
		}
		for _, w := range c.not {
			if strings.Contains(string(out), w) {
				t.Errorf("%s: make -n run has %q:\n%s", c.name, w, out)
			}
		}
	}
}

// startXvfb starts Xvfb on a display it chooses itself (-displayfd: the
// first free one, stale locks of killed servers reclaimed) with its
// framebuffer in fbdir; stop ends it with SIGTERM so it removes its lock.
func startXvfb(t *testing.T, xvfb, fbdir string) (string, func()) {
	t.Helper()
	if err := os.MkdirAll(fbdir, 0o755); err != nil {
		t.Fatal(err)
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command(xvfb, "-displayfd", "3", "-screen", "0", "1600x1000x24", "-nolisten", "tcp", "-fbdir", fbdir)
	cmd.ExtraFiles = []*os.File{w}
	err = cmd.Start()
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() { cmd.Wait(); close(exited) }()
	stop := func() {
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(5 * time.Second):
			cmd.Process.Kill()
			<-exited
		}
	}
	got := make(chan string, 1)
	go func() {
		line, _ := bufio.NewReader(r).ReadString('\n')
		got <- strings.TrimSpace(line)
	}()
	select {
	case num := <-got:
		if num != "" {
			return ":" + num, stop
		}
	case <-time.After(20 * time.Second):
	}
	stop()
	t.Fatal("Xvfb named no display (-displayfd)")
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

// TestHelpWithoutFyneErrors: under the C locale with a codeset (Docker's
// C.UTF-8) or POSIX, tsplab --help prints its usage and no "Fyne error"
// lines (Fyne reads the locale in its package init, before main).
func TestHelpWithoutFyneErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the test that builds and runs the app")
	}
	bin := buildApp(t)
	for _, kv := range []string{"LANG=C.UTF-8", "LANG=POSIX.UTF-8", "LC_ALL=C.UTF-8", "LC_MESSAGES=C@euro", "LANG=C"} {
		env := append(cLocaleEnv()[:len(cLocaleEnv())-1], kv)
		cmd := exec.Command(bin, "--help")
		cmd.Env = env
		out, err := cmd.CombinedOutput()
		if e := fyneErrors(string(out)); e != "" || !strings.Contains(string(out), "Usage of tsplab") {
			t.Errorf("%s tsplab --help: Fyne errors %q; output starts %q", kv, e, string(out)[:min(len(out), 80)])
		}
		if err != nil {
			t.Errorf("%s tsplab --help: %v, want exit status 0 after the usage", kv, err)
		}
	}
}

func TestAppChecksGPUsByTheEnginesRules(t *testing.T) {
	if app.OptionChecks[device.OptGPUs] == nil {
		t.Fatal("the app's gpus field has no check")
	}
	for _, c := range []struct {
		text string
		want string // "" valid
	}{
		{"all", ""},
		{"", ""},
		{"2", ""},
		{"0,", ""},
		{"1,0", ""},
		{"0,0", ""},
		{"0", ""},
		{"count=2", ""},
		{"device=1", ""},
		{"3", "this machine has 2 GPUs"},
		{"device=2", "device 2 does not exist"},
		{"x", "all, a count or a list"},
		{"0,5", "device 5 does not exist"},
		{"0,a", `"a" is not a device number`},
	} {
		err := checkGPUsOn(c.text, 2)
		if c.want == "" && err != nil || c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)) {
			t.Errorf("gpus %q on 2 GPUs: %v, want %q", c.text, err, c.want)
		}
	}
}

// TestAppGetsTheHostsGPUs: the app's settings name the GPUs the driver
// lists, every one, read by the GPU engines' own rules; without a GPU they
// say why there is none.
func TestAppGetsTheHostsGPUs(t *testing.T) {
	h := hostGPUs()
	if h.Select == nil || h.FirstOnly == nil {
		t.Fatal("the app is not given the GPU engines' rules for their gpus option")
	}
	gpus, err := device.GPUs()
	if err != nil {
		if h.None == nil || h.None.Error() != err.Error() || len(h.GPUs) > 0 {
			t.Errorf("no GPU here (%v): the app has %d GPUs and says %v", err, len(h.GPUs), h.None)
		}
		return
	}
	if len(h.GPUs) != len(gpus) || h.None != nil {
		t.Fatalf("the app has %d GPUs (%v), the driver lists %d", len(h.GPUs), h.None, len(gpus))
	}
	for i, g := range gpus {
		if a := h.GPUs[i]; a.Index != g.Index || a.Name != g.Info.Name || (a.Unusable == nil) != (g.Unusable == nil) {
			t.Errorf("GPU %d: the app has %+v, the driver lists %+v", i, a, g)
		}
	}
}

func TestPathFlag(t *testing.T) {
	for _, c := range []struct {
		arg string
		ok  bool
	}{{"tour", true}, {"open", true}, {"1,400", true}, {"closed", false}, {"7", false}} {
		f, ok := parseFlags([]string{"--path", c.arg})
		if ok != c.ok || ok && f.path != c.arg {
			t.Errorf("--path %s: ok %v, path %q; want ok %v", c.arg, ok, f.path, c.ok)
		}
	}
}

// TestUnknownAlgorithmIsRefused: an algorithm no engine is registered
// under ends the app with a one-line error, rather than running the saved
// engine in its place; with a display, the real app exits before it opens
// a window or writes the screenshot.
func TestUnknownAlgorithmIsRefused(t *testing.T) {
	for _, args := range [][]string{{"--algo", "foo"}, {"--compare", "--a", "foo/cpu"}, {"--compare", "--b", "nope"}} {
		if _, ok := parseFlags(args); ok {
			t.Errorf("%v accepted", args)
		}
	}
	if _, ok := parseFlags([]string{"--algo", "auto", "--a", "pspm/gpu", "--b", "auto"}); !ok {
		t.Error("registered algorithms refused")
	}
	if testing.Short() {
		t.Skip("-short: skipping the run of the app binary")
	}
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("Xvfb is not installed (apt-get install xvfb)")
	}
	dir := t.TempDir()
	bin := buildApp(t)
	display, stop := startXvfb(t, xvfb, filepath.Join(dir, "fb"))
	defer stop()
	shot := filepath.Join(dir, "x.png")
	cmd := exec.Command(bin, "--open", "clustered-1000", "--algo", "foo", "--screenshot", shot)
	cmd.Env = append(cLocaleEnv(), "DISPLAY="+display, "XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	out, err := cmd.CombinedOutput()
	if err == nil || cmd.ProcessState.ExitCode() == 0 {
		t.Fatalf("--algo foo exited 0:\n%s", out)
	}
	if !strings.Contains(string(out), `--algo "foo": no such algorithm`) {
		t.Errorf("no clear message:\n%s", out)
	}
	if _, err := os.Stat(shot); err == nil {
		t.Error("a screenshot was written for a run that was refused")
	}
}

// TestXvfbPlotFollowsAuto runs the default engine in the real app on a
// bundled 1,000-city sample and reads the convergence plot off the
// screenshot: it steps down while the run goes on, as the engine's best
// tour improves, rather than staying flat until the run's end.
func TestXvfbPlotFollowsAuto(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: skipping the Xvfb test (it builds and runs the app)")
	}
	xvfb, err := exec.LookPath("Xvfb")
	if err != nil {
		t.Skip("Xvfb is not installed (apt-get install xvfb): skipping the real-window test")
	}
	dir := t.TempDir()
	bin := buildApp(t)
	display, stop := startXvfb(t, xvfb, filepath.Join(dir, "fb"))
	defer stop()
	shot, layout := filepath.Join(dir, "auto.png"), filepath.Join(dir, "auto.layout")
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--open", "clustered-1000", "--algo", "auto", "--backend", "cpu", "--run", "6s", "--screenshot", shot)
	cmd.Env = append(cLocaleEnv(), "DISPLAY="+display, "TSPLAB_LAYOUT="+layout,
		"XDG_CONFIG_HOME="+filepath.Join(dir, "config"), "XDG_CACHE_HOME="+filepath.Join(dir, "cache"))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("tsplab: %v\n%s", err, out)
	}
	data, err := os.ReadFile(layout)
	if err != nil {
		t.Fatalf("no layout written: %v\n%s", err, out)
	}
	var box [4]int
	for _, line := range strings.Split(string(data), "\n") {
		if nums, ok := strings.CutPrefix(line, "plot\t"); ok {
			fmt.Sscan(nums, &box[0], &box[1], &box[2], &box[3])
		}
	}
	if box[2] < 50 || box[3] < 50 {
		t.Fatalf("no plot in the layout:\n%s", data)
	}
	f, err := os.Open(shot)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	// The columns where the curve steps down: with the plot following
	// the engine, some lie well before the run's end, at the plot's right.
	line := export.DefaultCurveStyle().Line
	isLine := func(x, y int) bool {
		r, g, b, _ := img.At(x, y).RGBA()
		return uint8(r>>8) == line.R && uint8(g>>8) == line.G && uint8(b>>8) == line.B
	}
	var steps []int
	for x := box[0]; x < box[0]+box[2]; x++ {
		run := 0
		for y := box[1]; y < box[1]+box[3]; y++ {
			if isLine(x, y) {
				run++
			} else {
				run = 0
			}
			if run >= 3 {
				steps = append(steps, x-box[0])
				break
			}
		}
	}
	if len(steps) == 0 || steps[0] > box[2]*4/5 {
		t.Errorf("the plot steps down at x = %v of its %d px in a 6 s run of auto: flat until the end\n%s", steps, box[2], out)
	}
}

// TestRunFlagTakesTheCLIsDurations: tsplab --run reads its budget as tsp
// --time does (a bare number is seconds), and a bad value is one line
// on stderr, not the whole usage.
func TestRunFlagTakesTheCLIsDurations(t *testing.T) {
	for arg, want := range map[string]time.Duration{"2": 2 * time.Second, "1.5": 1500 * time.Millisecond, "1m30s": 90 * time.Second, "500ms": 500 * time.Millisecond} {
		if f, ok := parseFlags([]string{"--run", arg}); !ok || f.run != want {
			t.Errorf("--run %s: ok %v, run %v; want %v", arg, ok, f.run, want)
		}
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := os.Stderr
	os.Stderr = w
	_, ok := parseFlags([]string{"--run", "soon"})
	os.Stderr = stderr
	w.Close()
	out, _ := io.ReadAll(r)
	if ok {
		t.Error("--run soon accepted")
	}
	if lines := strings.Split(strings.TrimSpace(string(out)), "\n"); len(lines) != 1 || !strings.Contains(lines[0], "-run") || !strings.Contains(lines[0], "1m30s") {
		t.Errorf("--run soon said:\n%s", out)
	}
}
