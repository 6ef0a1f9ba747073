package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tsplab/tsplab/bench"
	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/gpu/device"
	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/internal/cudaload"
	"github.com/tsplab/tsplab/internal/tsplibdir"
	"github.com/tsplab/tsplab/lab"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/buildinfo"
	"github.com/tsplab/tsplab/solver/gen"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/report"
	"github.com/tsplab/tsplab/solver/tsplib"
)

func cmdInfo(ctx context.Context, e *env, args []string) error {
	fs := newFlags(e, "info", "FILE", "Prints the instance's name, type, dimension, distance type and known optimum.")
	optima := fs.String("optima", "", "also look for optima.csv in `DIR`")
	verbose := fs.Bool("verbose", false, "also the scale of a point list's integer lengths")
	boundFor := new(time.Duration)
	durationVar(fs, boundFor, "bound", 5*time.Second, "when the optimum is unknown, spend up to `D` (seconds, or e.g. 500ms) on a lower bound (0: none)")
	pos, err := parse(fs, "info", args, 1, 1)
	if err != nil {
		return err
	}
	in, err := loadInstance(pos[0], *optima, 0, false)
	if err != nil {
		return err
	}
	w := e.stdout
	fmt.Fprintf(w, "name: %s\nfile: %s\n", in.Name, pos[0])
	if in.Comment != "" {
		fmt.Fprintf(w, "comment: %s\n", oneLine(in.Comment))
	}
	fmt.Fprintf(w, "type: TSP\ndimension: %s\nedge_weight_type: %s\n", solver.GroupDigits(strconv.Itoa(in.N)), in.Metric)
	if in.Points != nil {
		fmt.Fprintf(w, "format: point list (lengths in %s)\n", report.UnitName(in))
		if *verbose {
			fmt.Fprintf(w, "scale: lengths computed as integers in units of 10^%d of the file's\n", -in.ScaleExp)
		}
	}
	switch {
	case in.Metric != solver.Explicit:
		fmt.Fprintf(w, "coordinates: node coordinates\n")
	case in.HasCoords():
		fmt.Fprintf(w, "coordinates: display data (drawing only)\n")
	default:
		fmt.Fprintf(w, "coordinates: none\n")
	}
	if len(in.FixedEdges) > 0 {
		fmt.Fprintf(w, "fixed_edges: %s\n", solver.GroupDigits(strconv.Itoa(len(in.FixedEdges))))
	}
	if in.HasOptimum() {
		fmt.Fprintf(w, "optimum: %s (from %s)\n", in.HumanLength(in.Optimum), in.OptimumSource)
	} else {
		fmt.Fprintf(w, "optimum: unknown\n")
		if *boundFor > 0 {
			r, err := bound.UntilDone(ctx, bound.StopAscent, in, bound.Options{Time: *boundFor, Thorough: true})
			switch {
			case errors.Is(err, bound.ErrStopped):
				return context.Canceled
			case errors.Is(err, context.DeadlineExceeded):
				fmt.Fprintf(w, "lower_bound: none within --bound %v ('tsp bound FILE' takes the time it needs)\n", *boundFor)
				return nil
			case err != nil:
				return err
			}
			fmt.Fprintf(w, "lower_bound: %s (Held–Karp, %.2f s; every tour is at least this long)\n", in.HumanLength(r.Bound), r.Elapsed.Seconds())
		}
	}
	return nil
}

func cmdEval(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "eval", "FILE TOUR", "Prints the length of the tour; the last line of output is the length (TSPLIB's integer, a point list's in its own units).\nTOUR is any tour file tsp writes (TSPLIB .tour, solve --out's .csv, .geojson, .gpx, the --json report) or a list of\ncity ids or names. A tour that is not a permutation of the cities fails (exit 1).")
	optima := fs.String("optima", "", "also look for optima.csv in `DIR`")
	optimum := fs.Int64("optimum", 0, "known optimum `N` for the gap")
	pos, err := parse(fs, "eval", args, 2, 2)
	if err != nil {
		return err
	}
	if err := checkInts("eval", intRange{"optimum", *optimum, 0, math.MaxInt64}); err != nil {
		return err
	}
	in, err := loadInstance(pos[0], *optima, *optimum, given(fs, "optimum"))
	if err != nil {
		return err
	}
	tour, isPath, err := instfile.ReadRoute(pos[1], in)
	if err != nil {
		return err
	}
	if err := solver.ValidateTour(tour, in.N); err != nil {
		return fmt.Errorf("%s: %v", pos[1], err)
	}
	if err := in.CheckFixedEdges(tour); err != nil {
		return fmt.Errorf("%s: %v", pos[1], err)
	}
	fmt.Fprintf(e.stdout, "instance: %s (%s)\n", in.Name, report.Plural(in.N, "city", "cities"))
	if isPath {
		// the file says its cities are an open path: no closing edge, and no gap to the optimum, which is a tour's
		fmt.Fprintf(e.stdout, "open path from %s to %s (no edge back to the first city)\n", in.CityLabel(tour[0]), in.CityLabel(tour[len(tour)-1]))
		fmt.Fprintf(e.stdout, "%s\n", in.FormatLength(solver.PathLength(in, tour)))
		return nil
	}
	l := solver.TourLength(in, tour)
	if g, ok := in.Gap(l); ok {
		fmt.Fprintf(e.stdout, "gap: %s%% above the optimum %s\n", solver.GroupDigits(fmt.Sprintf("%.4f", g)), in.HumanLength(in.Optimum))
	} else if in.HasOptimum() {
		fmt.Fprintf(e.stdout, "optimum: %s (no relative gap to an optimum of 0)\n", in.HumanLength(in.Optimum))
	}
	fmt.Fprintf(e.stdout, "%s\n", in.FormatLength(l))
	return nil
}

// genSynopsis is tsp gen's usage line, in its help and in tsp's list.
const genSynopsis = "--kind uniform|clustered|circle|grid|portgen|portcgen|image --n N [--seed S] [--image FILE] [--out FILE]"

func cmdGen(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "gen", genSynopsis,
		"Generates an EUC_2D instance with integer coordinates. circle and grid have a known optimum:\n"+
			"it goes into the COMMENT and, with --out, into optima.csv beside the file.\n"+
			"grid needs an even n (rows × cols with an even side, as close to square as possible).\n"+
			"portgen and portcgen are the DIMACS TSP Challenge's uniform and clustered generators, coordinate\n"+
			"for coordinate: E1M.0 is --kind portgen --n 1000000 --seed 1000000, C100k.1 is --kind portcgen\n"+
			"--n 100000 --seed 1000001 (.k uses seed 10·N+k); written to stdout such an instance is NAMEd\n"+
			"E1M.0, with --out after the file (--out E1M.0.tsp).\n"+
			"image stipples the --image picture (PNG or JPEG) for TSP art: the cities' density follows its darkness.")
	kind := fs.String("kind", "", "uniform, clustered, circle, grid, portgen, portcgen or image")
	imagePath := fs.String("image", "", "picture `FILE` (.png, .jpg) for --kind image")
	n := fs.Int("n", 0, "number of cities")
	seed := fs.Uint64("seed", 1, "random seed")
	out := fs.String("out", "", "write the instance to `FILE` (default: stdout); its base name is the instance's NAME")
	optTour := fs.Bool("opt-tour", false, "for circle and grid, also write NAME.opt.tour beside --out")
	if _, err := parse(fs, "gen", args, 0, 0); err != nil {
		return err
	}
	if *kind == "" || !given(fs, "n") {
		return usagef("gen", "--kind and --n are required")
	}
	if err := checkInts("gen", intRange{"n", int64(*n), 1, maxCities}); err != nil {
		return err
	}
	if !slices.Contains(gen.Kinds, *kind) && *kind != "image" {
		return usagef("gen", "--kind %q: want %s or image", *kind, strings.Join(gen.Kinds, ", "))
	}
	if err := checkGenN(*kind, *n); err != nil {
		return err
	}
	if (*kind == "image") != (*imagePath != "") {
		return usagef("gen", "--image goes with --kind image, and --kind image needs it")
	}
	if err := checkTargets("gen", []string{*imagePath}, target{"--out", *out}); err != nil {
		return err
	}
	var in *solver.Instance
	var err error
	switch *kind {
	case "image":
		in, err = gen.FromImageFile(*imagePath, *n, *seed)
	default:
		in, err = gen.Generate(*kind, *n, *seed)
	}
	if err != nil {
		return err
	}
	if *out == "" || *out == "-" {
		if *optTour {
			return usagef("gen", "--opt-tour needs --out")
		}
		return tsplib.WriteInstance(e.stdout, in)
	}
	return writeGenerated(e, in, *kind, *out, *optTour)
}

// checkGenN refuses, as a usage error, an --n that kind cannot take: an odd or small grid, a circle past gen.MaxCircle.
func checkGenN(kind string, n int) error {
	if kind == "grid" {
		if _, _, err := gen.GridShape(n); err != nil {
			return usagef("gen", "--n %d: grid needs an even n of at least 4 (rows × cols with an even side)", n)
		}
	}
	if kind == "circle" && n > gen.MaxCircle {
		return usagef("gen", "--n %s: circle takes at most %s cities (its radius grows as n²)", solver.GroupDigits(strconv.Itoa(n)), solver.GroupDigits(strconv.Itoa(gen.MaxCircle)))
	}
	return nil
}

// writeGenerated writes a generated instance to out, its optimum to optima.csv and, with optTour, its tour.
func writeGenerated(e *env, in *solver.Instance, kind, out string, optTour bool) error {
	name := strings.TrimSuffix(filepath.Base(out), ".tsp")
	in.Name = name
	if err := atomicfile.Write(out, func(w io.Writer) error { return tsplib.WriteInstance(w, in) }); err != nil {
		return err
	}
	csv := ""
	if in.HasOptimum() {
		csv = filepath.Join(filepath.Dir(out), tsplib.OptimaFile)
		if err := tsplib.AppendOptimum(csv, name, in.N, in.Metric.String(), in.Optimum); err != nil {
			return err
		}
		if optTour {
			t, err := gen.OptimalTour(kind, in.N)
			if err != nil {
				return err
			}
			p := filepath.Join(filepath.Dir(out), name+".opt.tour")
			comment := fmt.Sprintf("optimal tour, length %d", in.Optimum)
			if err := atomicfile.Write(p, func(w io.Writer) error { return tsplib.WriteTour(w, name+".opt.tour", comment, t) }); err != nil {
				return err
			}
		}
	}
	fmt.Fprintf(e.stderr, "tsp: wrote %s (%s)", out, report.Plural(in.N, "city", "cities"))
	if csv != "" {
		fmt.Fprintf(e.stderr, " and its optimum %s into %s", in.HumanLength(in.Optimum), csv)
		if optTour {
			fmt.Fprintf(e.stderr, ", its optimal tour into %s", filepath.Join(filepath.Dir(out), name+".opt.tour"))
		}
	}
	fmt.Fprintln(e.stderr)
	return nil
}

func cmdRender(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "render", "FILE [--tour TOUR] --out X.png|X.svg|X.pdf [--width PX] [--svg-path] [--path]",
		"Draws the cities, the tour and a title with its length and gap. The format follows --out's extension.\n"+
			"--svg-path draws the tour alone as one SVG <path> (M, L, Z) for a pen plotter: no title, no dots.")
	tourPath := fs.String("tour", "", "`TOUR` file to draw: any tour file tsp writes (TSPLIB .tour, --out's .csv, .geojson, .gpx, the --json report) or a list of city ids or names")
	out := fs.String("out", "", "picture to write: .png, .svg or .pdf")
	width := fs.Int("width", 1200, "width in pixels (points for SVG and PDF); the height follows the aspect ratio")
	height := fs.Int("height", 0, "height (0: from the aspect ratio)")
	optimal := fs.Bool("optimal", false, "draw the optimal tour (NAME.opt.tour beside FILE) as a faint overlay")
	optima := fs.String("optima", "", "also look for optima.csv in `DIR`")
	optimum := fs.Int64("optimum", 0, "known optimum `N` for the gap in the title")
	svgPath := fs.Bool("svg-path", false, "write the tour as one SVG path for a plotter (needs --tour and an .svg --out)")
	open := fs.Bool("path", false, "draw the tour as an open path, without the edge from its last city to its first (a tour file that tsp solve --open or --ends wrote says so itself)")
	pos, err := parse(fs, "render", args, 1, 1)
	if err != nil {
		return err
	}
	if *out == "" {
		return usagef("render", "--out is required")
	}
	if *width <= 0 || *width > export.MaxSize || *height < 0 || *height > export.MaxSize {
		return usagef("render", "--width and --height must be within 1..%d", export.MaxSize)
	}
	format, err := export.FormatOf(*out)
	if err != nil {
		return usagef("render", "%v", err)
	}
	if *svgPath && (format != export.FormatSVG || *tourPath == "") {
		return usagef("render", "--svg-path needs --tour and an .svg --out")
	}
	if err := checkInts("render", intRange{"optimum", *optimum, 0, math.MaxInt64}); err != nil {
		return err
	}
	if err := checkTargets("render", []string{pos[0], *tourPath, *optima}, target{"--out", *out}); err != nil {
		return err
	}
	in, err := loadInstance(pos[0], *optima, *optimum, given(fs, "optimum"))
	if err != nil {
		return err
	}
	if err := checkTargets("render", instfile.InputsOf(pos[0], in), target{"--out", *out}); err != nil {
		return err
	}
	if !in.HasCoords() {
		return fmt.Errorf("%s: %s has no coordinates to draw (EXPLICIT without DISPLAY_DATA_SECTION)", pos[0], in.Name)
	}
	s, isPath, err := renderScene(e, pos[0], in, *tourPath, *optimal)
	if err != nil {
		return err
	}
	s.Path = *open || isPath
	return writeRender(*out, format, in, s, *svgPath, *width, *height)
}

// writeRender writes s's picture to out, or with svgPath the tour alone as one SVG path.
func writeRender(out, format string, in *solver.Instance, s export.Scene, svgPath bool, width, height int) error {
	if svgPath {
		return atomicfile.Write(out, func(w io.Writer) error {
			if s.Path {
				return export.WriteSVGOpenPath(w, in, s.Tour, width)
			}
			return export.WriteSVGPath(w, in, s.Tour, width)
		})
	}
	s.Title = export.TitleFor(in, s.Tour, s.Path)
	return atomicfile.Write(out, func(w io.Writer) error { return export.Write(w, format, s, width, height) })
}

// renderScene reads the tours render draws: --tour (and whether it is a path) and, with optimal, the optimal tour.
func renderScene(e *env, path string, in *solver.Instance, tourPath string, optimal bool) (s export.Scene, isPath bool, err error) {
	s = export.Scene{Instance: in}
	if tourPath != "" {
		if s.Tour, isPath, err = instfile.ReadRoute(tourPath, in); err != nil {
			return s, false, err
		}
	}
	if optimal {
		if p := tsplib.OptTourPath(path, in); p != "" {
			t, err := tsplib.ReadTour(p, in.N)
			if err != nil {
				return s, false, err
			}
			s.Optimal = t
		} else {
			fmt.Fprintf(e.stderr, "tsp: note: no optimal tour beside %s (looked for %s.opt.tour)\n", path, in.Name)
		}
	}
	return s, isPath, nil
}

// given reports whether the flag name was set on the command line.
func given(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

func cmdBench(ctx context.Context, e *env, args []string) error {
	if len(args) > 0 && args[0] == "merge" {
		return cmdBenchMerge(ctx, e, args[1:])
	}
	if len(args) > 0 && args[0] == "report" {
		return cmdBenchReport(ctx, e, args[1:])
	}
	suite, opt, err := parseBench(e, args)
	if err != nil {
		return err
	}
	if err := checkBenchGPU(suite); err != nil {
		return err
	}
	if opt.OutDir != "" {
		if err := os.MkdirAll(opt.OutDir, 0o755); err != nil {
			return err
		}
	}
	return bench.Run(ctx, suite, opt, e.stdout)
}

// checkBenchGPU refuses the gpu suite where no GPU engine can run.
func checkBenchGPU(suite string) error {
	if suite != "gpu" {
		return nil
	}
	if !device.BuiltWithCUDA() {
		return errors.New("bench --suite gpu measures the GPU engines: this build has none (build with `make gpu`)")
	}
	if _, err := device.Devices(); err != nil {
		return fmt.Errorf("bench --suite gpu measures the GPU engines: %v", err)
	}
	return nil
}

// parseBench reads tsp bench's flags into the suite's name and options.
func parseBench(e *env, args []string) (string, bench.Options, error) {
	fs := newFlags(e, "bench", "--suite NAME [flags]", strings.TrimRight(benchAbout(), "\n"))
	opt := bench.Options{GPU: benchGPU()}
	suite := fs.String("suite", "", "suite `NAME`")
	durationVar(fs, &opt.Time, "time", 0, "time budget `D` per run: seconds (10) or a duration (10s) (0: the suite's default)")
	fs.IntVar(&opt.Runs, "runs", 0, "runs per configuration (0: the suite's default)")
	fs.Float64Var(&opt.Scale, "scale", 0, "multiply the papers' iteration budgets (delevacq's it_total) by `F` (0: 1, the paper's)")
	fs.StringVar(&opt.OutDir, "out", "", "write markdown, CSV and plots to `DIR`")
	fs.BoolVar(&opt.Quick, "quick", false, "a short version for smoke tests")
	fs.IntVar(&opt.Workers, "workers", 0, "CPU workers (0: all cores)")
	instances := fs.String("instances", "", "comma-separated instance names (default: the suite's list)")
	fs.StringVar(&opt.TSPLIBDir, "tsplib", "", "TSPLIB folder (default: $TSPLIB_DIR or ../shared/tsplib beside the repository)")
	fs.StringVar(&opt.PapersDir, "papers", "", "folder of the papers' tables as CSV, for the paper columns (default: $"+bench.PapersEnv+" or ../shared/papers beside the repository)")
	only := fs.String("only", "", "comma-separated parts of a reproduction suite to run: tables (table2, ...) and engines (pspm, ...) (default: all)")
	fs.StringVar(&opt.Prior, "prior", "", "lam suite: keep the threshold, CPU SSPM and GPU PSPM columns of the instances in an earlier lam-table3.csv `FILE` and run only CPU PSSM's trials and the convergence runs for them")
	fs.IntVar(&opt.Threads, "threads", 0, "parallel moves per search of the suite's annealers (0: the paper's)")
	fs.StringVar(&opt.PeerLKH, "peer-lkh", "", "ttq suite: also run the LKH-3 executable at `PATH` (built by you from Helsgaun's public source) on each instance, one core, its best settings for the size")
	fs.Func("opt", "engine option `NAME=VALUE` for the suite's engines that have it, repeatable (e.g. draw=uniform for pspm)", func(s string) error {
		return addBenchOpt(&opt, s)
	})
	fs.Func("gpus", gpusDoc, func(s string) error {
		if err := device.CheckGPUs(s); err != nil {
			return gpusUsage("bench", err)
		}
		return addBenchOpt(&opt, "gpus="+s)
	})
	quiet := fs.Bool("quiet", false, "no progress lines on stderr")
	var sf benchShardFlags
	sf.register(fs)
	if _, err := parse(fs, "bench", args, 0, 0); err != nil {
		return "", opt, err
	}
	if err := checkBench(*suite, opt); err != nil {
		return "", opt, err
	}
	if err := sf.apply(*suite, &opt); err != nil {
		return "", opt, err
	}
	opt.Instances = splitList(*instances, func(s string) string { return strings.TrimSuffix(s, ".tsp") })
	opt.Only = splitList(*only, strings.ToLower)
	opt.TSPLIBDir = cmp.Or(opt.TSPLIBDir, tsplibdir.TSPLIBDir())
	if !*quiet {
		opt.Log = e.stderr
	}
	return *suite, opt, nil
}

// addBenchOpt adds --opt NAME=VALUE, an engine option, to the suite's options.
func addBenchOpt(opt *bench.Options, s string) error {
	var p solver.Params
	if err := p.Set(s); err != nil {
		return paramUsage(err)
	}
	if len(p.Extra) == 0 {
		return usagef("bench", "--opt %s: only engine options (the run's parameters are the suite's)", s)
	}
	if opt.Extra == nil {
		opt.Extra = map[string]string{}
	}
	maps.Copy(opt.Extra, p.Extra)
	return nil
}

// splitList returns the non-empty trimmed items of a comma-separated list, each through f (nil for none).
func splitList(list string, f func(string) string) []string {
	var out []string
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, f(s))
		}
	}
	return out
}

// benchAbout is bench's help text: what it does and each suite with its description.
func benchAbout() string {
	about := "Runs a benchmark or reproduction suite over the registered engines; its table is printed last.\n\nSuites:\n"
	for _, s := range bench.Names() {
		name, desc, _ := strings.Cut(s, "\t")
		about += fmt.Sprintf("  %-10s %s\n", name, desc)
	}
	return about
}

// checkBench checks the suite name and the options given to bench, returning a usage error for the first one out of range.
func checkBench(suite string, opt bench.Options) error {
	if suite == "" {
		return usagef("bench", "--suite is required (have: %s)", strings.Join(suiteNames(), ", "))
	}
	if !slices.Contains(suiteNames(), suite) {
		return usagef("bench", "unknown suite %q (have: %s)", suite, strings.Join(suiteNames(), ", "))
	}
	if opt.PeerLKH != "" && suite != "ttq" {
		return usagef("bench", "--peer-lkh: only the ttq suite runs a peer (have --suite %s)", suite)
	}
	if err := checkInts("bench", intRange{"runs", int64(opt.Runs), 0, maxRuns}, intRange{"workers", int64(opt.Workers), 0, maxWorkers}, intRange{"threads", int64(opt.Threads), 0, solver.MaxThreads}); err != nil {
		return err
	}
	if err := checkTime("bench", "time", opt.Time); err != nil {
		return err
	}
	if opt.Scale < 0 || opt.Scale > 1 || opt.Scale != opt.Scale {
		return usagef("bench", "--scale %g: want 0 < F <= 1 (0: the paper's budgets)", opt.Scale)
	}
	return nil
}

func suiteNames() []string {
	var out []string
	for _, s := range bench.Names() {
		name, _, _ := strings.Cut(s, "\t")
		out = append(out, name)
	}
	if len(out) == 0 {
		out = []string{"none registered"}
	}
	return out
}

func cmdEngines(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "engines", "[--verbose [--all]] [FILE]", enginesAbout)
	verbose := fs.Bool("verbose", false, "list each engine's options")
	all := fs.Bool("all", false, "with --verbose, also the experimental options, and the GPU engines' of a build without CUDA")
	pos, err := parse(fs, "engines", args, 0, 1)
	if err != nil {
		return err
	}
	var in *solver.Instance
	if len(pos) == 1 {
		if in, err = loadInstance(pos[0], "", 0, false); err != nil {
			return err
		}
		*verbose = true
		fmt.Fprintf(e.stdout, "options for %s (%s)\n", in.Name, report.Plural(in.N, "city", "cities"))
	}
	hidden := 0 // GPU engines of a build without CUDA: one line says why none can run
	seen := map[string]bool{}
	engines := listed()
	for i, eng := range engines {
		if lab.Has(eng) && (i == 0 || !lab.Has(engines[i-1])) {
			fmt.Fprintf(e.stdout, "%s\n", labHeading)
		}
		if eng.Backend() == solver.BackendGPU && !device.BuiltWithCUDA() && !*all {
			if *verbose {
				fmt.Fprintf(e.stdout, "%-12s %-4s needs the CUDA build (`make gpu`)\n", eng.Name(), eng.Backend())
			} else {
				hidden++
			}
			continue
		}
		status := "ready"
		if err := eng.Available(); err != nil {
			status = "unavailable: " + oneLine(err.Error())
		}
		fmt.Fprintf(e.stdout, "%-12s %-4s %s — %s\n", eng.Name(), eng.Backend(), eng.Describe(), status)
		if pl, ok := eng.(solver.Planner); ok && in != nil {
			if line := pl.Plan(in); line != "" {
				fmt.Fprintf(e.stdout, "    plan: %s\n", line)
			}
		}
		if *verbose {
			set := solver.EffectiveOptions(eng, in)
			if !*all {
				set = set.Stable()
			}
			writeOptions(e.stdout, set, seen)
		}
	}
	if hidden > 0 {
		fmt.Fprintf(e.stdout, "(%d GPU engines need the CUDA build: `make gpu`)\n", hidden)
	}
	if device.BuiltWithCUDA() {
		writeGPUs(e.stdout)
	}
	return nil
}

// enginesAbout is tsp engines' help text.
const enginesAbout = "Lists the registered engines, the product's first, then under a heading the lab's (the papers'\n" +
	"engines, reproduced): algorithm, backend, whether it can run here, and what it does;\n" +
	"with CUDA built in, then every GPU, and why the engines cannot use it where they cannot; without,\n" +
	"a line for the GPU engines (each on a line of its own with --verbose, in full with --all).\n" +
	"With --verbose, also each engine's options: the flag that sets it (--opt NAME=VALUE for the\n" +
	"engine-specific ones), its type, default and allowed range, and what it does; with --all also\n" +
	"the experimental ones (kept for a suite or a paper's reproduction), marked so. A default that\n" +
	"depends on the instance's size reads \"by size\"; with a TSPLIB FILE, the defaults and ranges\n" +
	"a run on that instance takes, and the plan of the engines that decide one (auto, pop)."

// listed returns the engines in tsp engines' order: the product's, then the lab's.
func listed() []solver.Engine {
	labs := slices.DeleteFunc(solver.Engines(), func(e solver.Engine) bool { return !lab.Has(e) })
	return append(slices.DeleteFunc(solver.Engines(), lab.Has), labs...)
}

// labHeading heads the lab's engines in tsp engines' list.
const labHeading = "lab: the papers' engines, reproduced by tsp bench --suite lam, oneil, rocki, delevacq and luong"

// writeOptions lists an engine's options, indented; one an earlier engine listed points there.
func writeOptions(w io.Writer, set solver.OptionSet, seen map[string]bool) {
	if len(set) == 0 {
		fmt.Fprintf(w, "    (no options besides --time, --seed and --target)\n")
		return
	}
	for _, o := range set {
		def := solver.GroupDigits(o.Default)
		switch {
		case o.Auto != "" && def != "":
			def += " (" + o.Auto + ")"
		case o.Auto != "":
			def = o.Auto
		}
		tier := ""
		if o.Experimental {
			tier = " (experimental)"
		}
		doc := "\n        " + o.Doc
		if key := o.Flag() + "\x00" + o.Doc; seen[key] {
			doc = " (as above)"
		} else {
			seen[key] = true
		}
		fmt.Fprintf(w, "    %-18s %-6s default %s; range %s%s%s\n", o.Flag(), o.Kind, def, o.Range(), tier, doc)
	}
}

func cmdVersion(_ context.Context, e *env, args []string) error {
	fs := newFlags(e, "version", "", "Prints the version and commit, the Go version, whether CUDA kernels are built in, the NVIDIA driver found, and the GPUs.")
	if _, err := parse(fs, "version", args, 0, 0); err != nil {
		return err
	}
	w := e.stdout
	fmt.Fprintf(w, "tsp %s\ngo: %s %s/%s\n", buildinfo.String(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if device.BuiltWithCUDA() {
		fmt.Fprintf(w, "cuda: kernels built in\ndriver: %s\n", cudaload.Find())
	} else {
		fmt.Fprintf(w, "cuda: not built in (build with `make gpu`)\n")
	}
	writeGPUs(w)
	return nil
}

// writeGPUs lists every GPU the driver finds, with why the engines cannot use one.
func writeGPUs(w io.Writer) {
	gpus, err := device.GPUs()
	switch {
	case err != nil && device.BuiltWithCUDA():
		fmt.Fprintf(w, "gpu: none (%s)\n", oneLine(err.Error()))
	case err == nil && len(gpus) == 0:
		fmt.Fprintf(w, "gpu: none\n")
	}
	for _, g := range gpus {
		d := g.Info
		status := "usable"
		if g.Unusable != nil {
			status = "unusable: " + oneLine(g.Unusable.Error())
		}
		fmt.Fprintf(w, "gpu %d: %s (compute capability %d.%d, sm_%d%d, %d SMs, %.1f GiB) — %s\n",
			g.Index, d.Name, d.Major, d.Minor, d.Major, d.Minor, d.Multiprocs, float64(d.GlobalMemory)/(1<<30), status)
	}
}
