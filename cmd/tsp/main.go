// Command tsp is the headless front end of TSP Lab: it reads, evaluates and solves TSPLIB instances with the registered engines, generates and draws
// instances and tours, and runs the bench suites ('tsp help' lists the commands). Exit codes: 0 done; 1 failed (one line on stderr); 2 usage;
// 130 SIGINT and 143 SIGTERM, after solve has written its outputs, each replaced whole or not at all.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/internal/seconds"
	"github.com/tsplab/tsplab/solver"

	// The engines register themselves in their init functions.
	_ "github.com/tsplab/tsplab/gpu"
	_ "github.com/tsplab/tsplab/solver/cpu"
)

func main() {
	processStarted = processStart(time.Now())
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

const (
	// A run stopped by a signal exits 128 plus the signal's number, as a shell reports a process the signal killed.
	exitInterrupt = 128 + 2  // SIGINT
	exitTerminate = 128 + 15 // SIGTERM
	// stopGrace is how long a command may wind up after the first signal before tsp exits without it, so a stuck engine never keeps it alive.
	stopGrace = 5 * time.Second
	// signalEcho is how soon a second signal counts as the first again (timeout(1) and Ctrl-C may deliver one twice).
	signalEcho = 500 * time.Millisecond
)

// run executes args and returns the exit code: a signal cancels the command, which still writes its outputs; a second one, or stopGrace, exits at once.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	var code atomic.Int32
	defer func() {
		// once stopped by a signal, a second one between here and the
		// exit would kill the process instead of exiting with its code
		if code.Load() != 0 {
			signal.Ignore(os.Interrupt, syscall.SIGTERM)
		}
		signal.Stop(sigs)
	}()
	done := make(chan struct{})
	defer close(done)
	go func() {
		var sig os.Signal
		select {
		case sig = <-sigs:
		case <-done:
			return
		}
		code.Store(int32(signalCode(sig)))
		cancel()
		why, ok := secondSignal(sigs, done, time.Now())
		if !ok {
			return
		}
		atomicfile.RemoveTemps()
		fmt.Fprintf(stderr, "tsp: %s: exiting without finishing the outputs\n", why)
		os.Exit(int(code.Load()))
	}()
	c := runCtx(ctx, args, stdin, stdout, stderr)
	if sc := int(code.Load()); sc != 0 && (c == 0 || c == exitInterrupt) {
		return sc
	}
	return c
}

// secondSignal waits for a second signal after signalEcho, or stopGrace; false when the command ended first.
func secondSignal(sigs <-chan os.Signal, done <-chan struct{}, first time.Time) (string, bool) {
	grace := time.After(stopGrace)
	for {
		select {
		case <-sigs:
			if time.Since(first) < signalEcho {
				continue
			}
			return "interrupted again", true
		case <-grace:
			return fmt.Sprintf("still running %v after the signal", stopGrace), true
		case <-done:
			return "", false
		}
	}
}

// signalCode is the exit code after sig.
func signalCode(sig os.Signal) int {
	if sig == syscall.SIGTERM {
		return exitTerminate
	}
	return exitInterrupt
}

// command is one subcommand.
type command struct {
	name    string
	usage   string // argument synopsis
	summary string // one line
	run     func(ctx context.Context, env *env, args []string) error
}

// env carries the streams of one invocation.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func commands() []command {
	return []command{
		{"info", "FILE", "print an instance's name, type, dimension, distance type and known optimum", cmdInfo},
		{"eval", "FILE TOUR", "print the length of a tour (the last line of output is the integer length)", cmdEval},
		{"solve", "FILE [flags]", "solve an instance with a registered engine", cmdSolve},
		{"batch", "FILES|DIR... --out RESULTS.jsonl [--time-each T] [flags]", "solve many instances, one JSON line each, resumable", cmdBatch},
		{"bound", "FILE [--time D] [--json FILE|-]", "compute a proven lower bound (Held–Karp) of the optimal tour length", cmdBound},
		{"gen", genSynopsis, "generate an instance (circle and grid have a known optimum)", cmdGen},
		{"render", "FILE [--tour TOUR] --out X.png|X.svg|X.pdf [--width PX]", "draw an instance and a tour", cmdRender},
		{"bench", "--suite NAME [flags] | merge SHARDS... --out FILE", "run a benchmark or reproduction suite", cmdBench},
		{"engines", "", "list the registered engines and whether each can run here", cmdEngines},
		{"version", "", "print the version, the Go version and the GPU support", cmdVersion},
		{"help", "[COMMAND]", "show help", nil},
	}
}

// usageError is a mistake on the command line: exit code 2.
type usageError struct {
	cmd string // subcommand, "" for the top level
	msg string
	// machine: a setting this machine cannot meet, in one line without the usage line
	machine bool
}

func (e *usageError) Error() string { return e.msg }

func usagef(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, msg: fmt.Sprintf(format, args...)}
}

// errHelp asks for the subcommand's help on stdout and exit code 0.
var errHelp = errors.New("help requested")

// runCtx is run with a given context, so tests can stop a solve as Ctrl-C does; a command whose stdout failed exits 1.
func runCtx(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	out := &checkedWriter{w: stdout}
	code := dispatch(ctx, args, &env{stdin: stdin, stdout: out, stderr: stderr})
	if out.err != nil && code != 2 {
		fmt.Fprintf(stderr, "tsp: writing to stdout: %s\n", oneLine(out.err.Error()))
		return 1
	}
	return code
}

func dispatch(ctx context.Context, args []string, e *env) int {
	stdout, stderr := e.stdout, e.stderr
	if len(args) == 0 {
		topUsage(stderr)
		return 2
	}
	name := args[0]
	switch name {
	case "help", "-h", "-help", "--help":
		if len(args) == 1 {
			topUsage(stdout)
			return 0
		}
		name, args = args[1], []string{args[1], "-h"} // the command's own help
	case "-version", "--version":
		name = "version"
	}
	c, ok := findCommand(name)
	if !ok || c.run == nil {
		fmt.Fprintf(stderr, "tsp: unknown command %q\nRun 'tsp help' for the commands.\n", name)
		return 2
	}
	err := c.run(ctx, e, args[1:])
	var ue *usageError
	switch {
	case err == nil:
		return 0
	case errors.Is(err, errHelp):
		return 0
	case errors.As(err, &ue) && ue.machine:
		fmt.Fprintf(stderr, "tsp %s: %s\n", c.name, oneLine(ue.msg))
		return 2
	case errors.As(err, &ue):
		fmt.Fprintf(stderr, "tsp %s: %s\nUsage: tsp %s %s (run 'tsp help %s' for the flags)\n", c.name, oneLine(ue.msg), c.name, c.usage, c.name)
		return 2
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		fmt.Fprintf(stderr, "tsp: %s: interrupted\n", c.name)
		return exitInterrupt
	default:
		fmt.Fprintf(stderr, "tsp: %s\n", oneLine(err.Error()))
		return 1
	}
}

// checkedWriter remembers the first write error, so that a command whose output was lost does not exit 0.
type checkedWriter struct {
	w   io.Writer
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	if err != nil {
		c.err = err
	}
	return n, err
}

func findCommand(name string) (command, bool) {
	for _, c := range commands() {
		if c.name == name {
			return c, true
		}
	}
	return command{}, false
}

func topUsage(w io.Writer) {
	fmt.Fprintf(w, "tsp — TSP Lab on the command line\n\nUsage:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  tsp %-8s %s\n", c.name, c.usage)
	}
	fmt.Fprintf(w, "\nCommands:\n")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, "\nRun 'tsp help COMMAND' (or 'tsp COMMAND -h') for its flags.\n")
	fmt.Fprintf(w, "Exit codes: 0 done, 1 failed, 2 usage, 130 interrupted (SIGINT), 143 terminated (SIGTERM).\n")
}

// oneLine keeps an error message on a single line.
func oneLine(s string) string {
	s = strings.TrimSpace(s)
	return strings.NewReplacer("\r\n", "; ", "\n", "; ", "\r", " ").Replace(s)
}

// durationVar defines a duration flag taking a bare number as seconds; usage names the value `D`.
func durationVar(fs *flag.FlagSet, p *time.Duration, name string, value time.Duration, usage string) {
	*p = value
	fs.Var(seconds.Value{D: p}, name, usage)
}

// newFlags returns a FlagSet for subcommand name whose help goes to e.stdout and whose errors become usage errors.
func newFlags(e *env, name, synopsis, about string) *flag.FlagSet {
	fs := flag.NewFlagSet("tsp "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.Usage = func() {
		fmt.Fprintf(e.stdout, "Usage: tsp %s %s\n\n%s\n", name, synopsis, about)
		fs.SetOutput(e.stdout)
		hasFlags := false
		fs.VisitAll(func(*flag.Flag) { hasFlags = true })
		if hasFlags {
			fmt.Fprintf(e.stdout, "\nFlags:\n")
			fs.PrintDefaults()
		}
		fs.SetOutput(io.Discard)
	}
	return fs
}

// parse parses args with flags and positional arguments in any order and checks that there are minPos to maxPos positional ones.
func parse(fs *flag.FlagSet, name string, args []string, minPos, maxPos int) ([]string, error) {
	var pos []string
	// the flag package prints the usage on every parse error: the help goes out only when asked for
	printUsage := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = printUsage }()
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printUsage()
				return nil, errHelp
			}
			return nil, usagef(name, "%s", flagError(fs, err))
		}
		rest := fs.Args()
		if len(rest) == 0 {
			break
		}
		// "--" ends the flags: everything after it is positional.
		if n := len(args) - len(rest); n > 0 && args[n-1] == "--" {
			pos = append(pos, rest...)
			break
		}
		pos = append(pos, rest[0])
		args = rest[1:]
	}
	switch {
	case len(pos) < minPos:
		return nil, usagef(name, "missing argument (want %d, got %d)", minPos, len(pos))
	case len(pos) > maxPos:
		return nil, usagef(name, "too many arguments: %s", strings.Join(pos[maxPos:], " "))
	}
	return pos, nil
}

// The ranges of the numeric flags that are not engine settings (solver.Validate checks those): a value past one is a usage error.
const (
	maxRuns      = 1 << 20 // bench runs per configuration
	maxCities    = 1 << 24 // gen --n
	maxWorkers   = solver.MaxWorkers
	maxNeighbors = 256 // bound's candidate neighbours per city
	maxTime      = solver.MaxTimeLimit
)

// intRange is the check of one integer flag.
type intRange struct {
	flag   string
	v      int64
	lo, hi int64
}

// checkInts fails with a usage error naming the first flag out of range.
func checkInts(cmd string, rs ...intRange) error {
	for _, r := range rs {
		if r.v < r.lo || r.v > r.hi {
			return usagef(cmd, "--%s %d is out of range: want %d..%d", r.flag, r.v, r.lo, r.hi)
		}
	}
	return nil
}

// checkTime fails with a usage error when a duration flag is negative or past maxTime.
func checkTime(cmd, flag string, d time.Duration) error {
	if d < 0 || d > maxTime {
		return usagef(cmd, "--%s %v is out of range: want 0 (none) up to %v", flag, d, maxTime)
	}
	return nil
}

// target is an output file named on the command line: the flag that named it and its path ("-" is stdout where the flag allows it).
type target struct {
	flag, path string
}

// checkTargets fails before any work when an output cannot be written: a usage error when a target is an input or another target, a plain error when the file system refuses it.
func checkTargets(cmd string, inputs []string, targets ...target) error {
	for i, t := range targets {
		if t.path == "" || t.path == "-" {
			continue
		}
		if atomicfile.InputAt(t.path, inputs) != "" {
			return usagef(cmd, "%s %s is an input file: name another file for the output", t.flag, t.path)
		}
		for _, u := range targets[:i] {
			if u.path != "" && u.path != "-" && atomicfile.SamePath(u.path, t.path) {
				return usagef(cmd, "%s and %s both name %s: give each output its own file", u.flag, t.flag, t.path)
			}
		}
		if err := checkTarget(t); err != nil {
			return err
		}
	}
	return nil
}

// checkTarget checks that t.path is not a folder and that its folder takes a new file; an existing device or named pipe is written as it is.
func checkTarget(t target) error {
	path := atomicfile.Resolve(t.path)
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("%s %s: folder %s does not exist", t.flag, t.path, dir)
	case errors.Is(err, syscall.ENOTDIR):
		return fmt.Errorf("%s %s: %s is not a folder", t.flag, t.path, firstNonDir(dir))
	case err != nil:
		return fmt.Errorf("%s %s: %v", t.flag, t.path, err)
	case !st.IsDir():
		return fmt.Errorf("%s %s: %s is not a folder", t.flag, t.path, dir)
	}
	if st, err := os.Stat(path); err == nil {
		switch {
		case st.IsDir():
			return fmt.Errorf("%s %s is a folder: name a file", t.flag, t.path)
		case atomicfile.Special(st):
			return nil
		}
	}
	f, err := os.CreateTemp(dir, atomicfile.TempPattern(path))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("%s %s: cannot create a file in %s: %v", t.flag, t.path, dir, err)
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// firstNonDir returns the first component of dir that exists and is not a folder ("/etc/passwd" of "/etc/passwd/x").
func firstNonDir(dir string) string {
	p := dir
	for {
		parent := filepath.Dir(p)
		if parent == p {
			return dir
		}
		if st, err := os.Stat(parent); err == nil {
			if st.IsDir() {
				return p
			}
		}
		p = parent
	}
}
