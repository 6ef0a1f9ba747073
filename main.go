// Command tsplab is TSP Lab's desktop app: open a TSPLIB instance, a
// point list or a picture (TSP art), run local search on the GPU or on
// all CPU cores, watch the tour improve, compare two engines side by side
// and export the result.
//
//	tsplab [--open FILE [--points N]] [--algo NAME] [--backend B] [--run DURATION] [--compare [--a ALGO/B] [--b ALGO/B]]
//	       [--size WxH] [--screenshot OUT.png]
//
// With --screenshot the window is saved as a PNG once the run (if any)
// has ended, and the app exits: the README's pictures and the tests use it
// (with $TSPLAB_LAYOUT naming a file, it also writes there where the
// window put the run controls and canvases).
// Without a display (no X server or Wayland compositor, as on a GPU
// server) --screenshot draws the window with Fyne's software renderer
// instead of opening it. Built with -tags headless, the binary has no
// window driver at all (it links neither OpenGL nor X11) and only takes
// screenshots: for GPU servers without those libraries.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"log"
	"maps"
	"os"
	"runtime"
	"slices"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/tsplab/tsplab/app"
	"github.com/tsplab/tsplab/internal/seconds"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/buildinfo"
	"github.com/tsplab/tsplab/solver/gen"

	// The CPU engines register themselves; package gpu registers the GPU ones.
	_ "github.com/tsplab/tsplab/gpu"
	"github.com/tsplab/tsplab/gpu/device"
	_ "github.com/tsplab/tsplab/solver/cpu"
)

// The app's gpus field follows the GPU engines' own rules.
func init() { app.OptionChecks[device.OptGPUs] = checkGPUs }

// checkGPUs checks a gpus value by device.ParseGPUs's rules against the driver's devices.
func checkGPUs(text string) error {
	devs, err := device.Devices()
	if err != nil {
		return nil
	}
	return checkGPUsOn(text, len(devs))
}

// hostGPUs is the host's GPUs as the settings name them, with why the engines cannot use one.
func hostGPUs() app.GPUHost {
	h := app.GPUHost{Select: device.ParseGPUs, FirstOnly: device.FirstGPUOnly}
	gpus, err := device.GPUs()
	if err != nil {
		h.None = err
		return h
	}
	for _, g := range gpus {
		h.GPUs = append(h.GPUs, app.GPU{Index: g.Index, Name: g.Info.Name, Unusable: g.Unusable})
	}
	return h
}

// checkGPUsOn is checkGPUs on a host of n devices.
func checkGPUsOn(text string, n int) error {
	_, err := device.ParseGPUs(text, make([]error, n))
	return err
}

func main() {
	f, ok := parseFlags(os.Args[1:])
	if !ok {
		os.Exit(2)
	}
	if f.help {
		return
	}
	if f.version {
		fmt.Println("tsplab", buildinfo.String())
		return
	}
	useCLocaleFix()
	log.SetOutput(app.QuietLog(os.Stderr))
	app.Host = hostGPUs()
	if windowless && f.shot == "" {
		fmt.Fprintln(os.Stderr, "tsplab: this build has no window driver (built with -tags headless): use --screenshot FILE")
		os.Exit(2)
	}
	l := &launch{f: f, done: make(chan struct{})}
	if f.shot != "" && (windowless || !haveDisplay()) {
		os.Exit(l.headless(newApp(true)))
	}
	os.Exit(l.windowed(newApp(false)))
}

// launch is one start of the app: its flags, window, exit status and, with --screenshot, done.
type launch struct {
	f    cliFlags
	ui   *app.App
	exit int
	done chan struct{}
}

// options are the app's options from the flags; with --run or --screenshot the first load starts the run and capture.
func (l *launch) options() app.Options {
	f := l.f
	opts := app.Options{Open: f.open, ArtPoints: f.points, Algo: f.algo, Backend: f.backend, A: f.paneA, B: f.paneB, Run: f.run, Compare: f.compare, Size: f.winSize, Path: f.path}
	if f.shot == "" && f.run <= 0 {
		return opts
	}
	first := true
	opts.OnLoad = func(in *solver.Instance, err error) {
		if !first {
			return
		}
		first = false
		if err != nil {
			fmt.Fprintln(os.Stderr, "tsplab:", err)
			l.exit = 1
		} else if f.run > 0 && !l.ui.Running() {
			fmt.Fprintln(os.Stderr, "tsplab: the run did not start")
			l.exit = 1
		}
		if f.shot != "" {
			go screenshotWhenDone(l.ui, f.shot, &l.exit, l.done)
		}
	}
	return opts
}

// headless builds the window in Fyne's in-memory driver on another goroutine and waits for the screenshot.
func (l *launch) headless(a fyne.App) int {
	built := make(chan struct{})
	go func() {
		a.Settings().SetTheme(theme.DefaultTheme())
		l.ui = app.New(a, l.options())
		l.ui.Win.Show()
		close(built)
	}()
	<-built
	// The first load starts the capture (options above).
	select {
	case <-l.done:
	case <-time.After(l.f.run + 15*time.Minute):
		fmt.Fprintln(os.Stderr, "tsplab: screenshot: nothing was loaded")
		l.exit = 1
	}
	return l.exit
}

// windowed opens the window and runs Fyne's loop until it closes.
func (l *launch) windowed(a fyne.App) int {
	l.ui = app.New(a, l.options())
	if l.f.shot != "" {
		// The process ends without quitting Fyne's loop, which can race its shutdown (panics in Fyne 2.7.1).
		go func() {
			<-l.done
			os.Exit(l.exit)
		}()
	}
	l.ui.Win.ShowAndRun()
	return l.exit
}

// newApp returns Fyne's in-memory app when headless, else a windowed one.
func newApp(headless bool) fyne.App {
	if headless {
		// The in-memory driver paints in software; its Preferences live in memory.
		return test.NewApp()
	}
	return newWindowedApp()
}

// cliFlags are tsplab's command-line settings.
type cliFlags struct {
	open, algo, backend string
	paneA, paneB        string
	path                string // --path: tour, open or A,B ("": the saved choice)
	shot                string
	run                 time.Duration
	points              int // the points a picture opened becomes (0: app.DefaultArtPoints)
	compare, version    bool
	help                bool // --help: the usage is printed, nothing else to do
	winSize             fyne.Size
}

// parseFlags reads and checks tsplab's arguments; ok is false after a one-line error. --help sets f.help.
func parseFlags(args []string) (f cliFlags, ok bool) {
	fs := flag.NewFlagSet("tsplab", flag.ContinueOnError)
	var usage bytes.Buffer
	fs.SetOutput(&usage)
	fs.StringVar(&f.open, "open", "", "TSPLIB file, point list (x y or id x y a line) or PNG/JPEG picture to open (or the name of a bundled sample, e.g. clustered-1000)")
	fs.IntVar(&f.points, "points", 0, fmt.Sprintf("how many points a picture opened with --open becomes (TSP art; default %d)", app.DefaultArtPoints))
	fs.StringVar(&f.algo, "algo", "", "algorithm `name` for the single view ("+listAlgorithms()+")")
	fs.StringVar(&f.backend, "backend", "", "backend: cpu, gpu or auto")
	fs.StringVar(&f.path, "path", "", "what the single view's runs find: `tour` (closed), open (a path, ends free) or A,B (a path from city A to city B)")
	fs.Var(seconds.Value{D: &f.run}, "run", "start a run at once, with this time `budget`: seconds (5) or a duration (5s, 1m30s), as tsp --time takes")
	fs.BoolVar(&f.compare, "compare", false, "open in compare mode (two panes)")
	fs.StringVar(&f.paneA, "a", "", "compare pane A as `algo/backend` (e.g. pspm/cpu, the first run's)")
	fs.StringVar(&f.paneB, "b", "", "compare pane B as `algo/backend` (e.g. pspm/gpu, the first run's)")
	size := fs.String("size", "", "window size `WxH` in pixels (e.g. 1600x1000)")
	fs.StringVar(&f.shot, "screenshot", "", "save the window as a PNG `file` after the run, then exit")
	fs.BoolVar(&f.version, "version", false, "print the version and exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			os.Stdout.Write(usage.Bytes())
			f.help = true
			return f, true
		}
		// the flag package's line, not the whole usage after it
		fmt.Fprintf(os.Stderr, "tsplab: %v (tsplab --help lists the flags)\n", err)
		return f, false
	}
	if err := f.check(fs.Args(), *size); err != nil {
		fmt.Fprintln(os.Stderr, "tsplab:", err)
		return f, false
	}
	return f, true
}

// check checks the flags' values and sets the window size ("WxH").
func (f *cliFlags) check(args []string, size string) error {
	if len(args) > 0 {
		return fmt.Errorf("unexpected argument %q (use --open FILE)", args[0])
	}
	if f.version {
		return nil
	}
	if f.points < 0 || f.points > gen.MaxN {
		return fmt.Errorf("--points %d: want 1 to %d", f.points, gen.MaxN)
	}
	if err := checkAlgo("--algo", f.algo); err != nil {
		return err
	}
	if f.backend != "" && !slices.Contains(backends, f.backend) {
		return fmt.Errorf("--backend %q: want cpu, gpu or auto", f.backend)
	}
	if size != "" {
		var w, h int
		if n, err := fmt.Sscanf(size, "%dx%d", &w, &h); err != nil || n != 2 || w < 200 || h < 150 || w > 16384 || h > 16384 {
			return fmt.Errorf("--size %q: want WxH, from 200x150 to 16384x16384", size)
		}
		f.winSize = fyne.NewSize(float32(w), float32(h))
	}
	for _, c := range []struct{ flag, v string }{{"--a", f.paneA}, {"--b", f.paneB}} {
		a, b, _ := strings.Cut(c.v, "/")
		if b != "" && !slices.Contains(backends, b) {
			return fmt.Errorf("%s %q: the backend after / is cpu, gpu or auto", c.flag, c.v)
		}
		if err := checkAlgo(c.flag, a); err != nil {
			return err
		}
	}
	if f.run < 0 {
		return errors.New("--run must not be negative")
	}
	if f.path != "" && f.path != app.RouteTour && f.path != app.RouteOpen && !strings.Contains(f.path, ",") {
		return fmt.Errorf("--path %q: want tour, open or two city ids A,B", f.path)
	}
	return nil
}

// backends are the backends --backend, --a and --b take.
var backends = []string{solver.BackendCPU, solver.BackendGPU, solver.BackendAuto}

// checkAlgo refuses an algorithm no engine is registered under ("": the saved one).
func checkAlgo(flag, algo string) error {
	if algo == "" || slices.Contains(solver.Algorithms(), algo) {
		return nil
	}
	return fmt.Errorf("%s %q: no such algorithm; want one of %s", flag, algo, listAlgorithms())
}

// screenshotWhenDone waits for the runs to end and the last update, saves the window and closes done.
func screenshotWhenDone(ui *app.App, path string, exit *int, done chan struct{}) {
	defer close(done)
	deadline := time.Now().Add(10 * time.Minute)
	for ui.Running() && time.Now().Before(deadline) {
		time.Sleep(50 * time.Millisecond)
	}
	time.Sleep(500 * time.Millisecond)
	fyne.DoAndWait(func() {
		for _, l := range ui.RunLines() {
			fmt.Println("tsplab:", l)
		}
		img, _ := ui.Capture() // how it was drawn is no news on success
		if err := app.SaveScreenshot(img, path); err != nil {
			fmt.Fprintln(os.Stderr, "tsplab:", err)
			*exit = 1
		}
		if out := os.Getenv(layoutEnv); out != "" {
			if err := writeLayout(ui, out); err != nil {
				fmt.Fprintln(os.Stderr, "tsplab:", err)
				*exit = 1
			}
		}
	})
	// Let Fyne finish saving Preferences before the process ends.
	time.Sleep(300 * time.Millisecond)
}

// layoutEnv names the file --screenshot also writes the landmarks' places to.
const layoutEnv = "TSPLAB_LAYOUT"

// writeLayout writes the window's size and each landmark as "name<TAB>x y width height".
func writeLayout(ui *app.App, path string) error {
	var b strings.Builder
	size := ui.Win.Canvas().Size()
	fmt.Fprintf(&b, "window\t0 0 %.0f %.0f\n", size.Width, size.Height)
	marks := ui.Landmarks()
	d := fyne.CurrentApp().Driver()
	for _, name := range slices.Sorted(maps.Keys(marks)) {
		o := marks[name]
		pos := d.AbsolutePositionForObject(o)
		fmt.Fprintf(&b, "%s\t%.0f %.0f %.0f %.0f\n", name, pos.X, pos.Y, o.Size().Width, o.Size().Height)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// haveDisplay reports whether a window can be opened: on macOS and Windows, else with Wayland or a reachable X display.
func haveDisplay() bool {
	switch runtime.GOOS {
	case "darwin", "windows", "android", "ios":
		return true
	}
	if os.Getenv("WAYLAND_DISPLAY") != "" {
		return true
	}
	d := os.Getenv("DISPLAY")
	if d == "" {
		return false
	}
	if rest, ok := strings.CutPrefix(d, ":"); ok {
		num, _, _ := strings.Cut(rest, ".")
		if _, err := os.Stat("/tmp/.X11-unix/X" + num); err != nil {
			return false
		}
	}
	return true
}

// useCLocaleFix sets the locale variable Fyne reads to en_US.UTF-8 under C or POSIX, which Fyne cannot parse.
func useCLocaleFix() {
	name := "LANG"
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if os.Getenv(v) != "" {
			name = v
			break
		}
	}
	lang, _, _ := strings.Cut(os.Getenv(name), ".")
	lang, _, _ = strings.Cut(lang, "@")
	if lang == "" || lang == "C" || lang == "POSIX" {
		os.Setenv(name, "en_US.UTF-8")
	}
}

func listAlgorithms() string { return strings.Join(solver.Algorithms(), ", ") }
