// Command tsp is the headless front end of TSP Lab: it reads TSPLIB
// instances, evaluates and solves them with the registered CPU and GPU
// engines, generates instances with known optima, renders tours to PNG,
// SVG and PDF, and runs the benchmark suites.
//
//	tsp info a280.tsp
//	tsp eval a280.tsp a280.opt.tour          # last line: 2579
//	tsp solve a280.tsp --time 2s --out a280.tour --json run.json
//	tsp solve a280.tsp --algo pspm --backend gpu --blocks 4224 --threads 32 --k 100
//	tsp gen --kind circle --n 200 --seed 1 --out circle-200.tsp
//	tsp render a280.tsp --tour a280.tour --out a280.png --width 1200
//	tsp bench --suite cpu --time 10s --out docs/results
//	tsp version
//
// Exit codes: 0 done; 1 failed (one line on stderr, "tsp: FILE:LINE:
// problem" for bad input); 2 usage (an unknown command or flag, a value out
// of its range: one line naming the flag and the range); 130 interrupted by
// SIGINT (Ctrl-C) and 143 by SIGTERM, after solve has written its best tour
// and report (a second signal, or 5 s without the command ending, exits at
// once, leaving no partial file). Run `tsp help` for the commands and `tsp help COMMAND` for a
// command's flags. Flags may come before or after the file arguments.
//
// Output files (--out, --json) are written to a temporary file in the same
// folder, synced and renamed over the target, so a target is either its
// previous content or the complete new one, never a part. An existing
// target is replaced; the input file never is (naming it is a usage error).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// version is set at build time: -ldflags "-X main.version=v1.2.3".
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Exit codes beyond 0, 1 and 2: a run stopped by a signal exits 128 plus
// the signal's number, as a shell reports a process the signal killed.
const (
	exitInterrupt = 128 + 2  // SIGINT
	exitTerminate = 128 + 15 // SIGTERM
)

// stopGrace is how long a command may take to wind up after the first
// signal (an engine to stop, the outputs to be written) before tsp exits
// without it: a stuck engine never keeps the process alive.
const stopGrace = 5 * time.Second

// run executes the command line args and returns the exit code. SIGINT and
// SIGTERM cancel the running command alike: solve stops, keeps its best
// tour and still writes its outputs, and the exit code says the run was
// interrupted. A second signal, or stopGrace passing without the command
// ending, removes the temporary files of outputs still being written and
// exits at once with the same code.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	done := make(chan struct{})
	defer close(done)
	var code atomic.Int32
	go func() {
		var sig os.Signal
		select {
		case sig = <-sigs:
		case <-done:
			return
		}
		code.Store(int32(signalCode(sig)))
		cancel()
		var why string
		select {
		case <-sigs:
			why = "interrupted again"
		case <-time.After(stopGrace):
			why = fmt.Sprintf("still running %v after the signal", stopGrace)
		case <-done:
			return
		}
		removeTemps()
		fmt.Fprintf(stderr, "tsp: %s: exiting without finishing the outputs\n", why)
		os.Exit(int(code.Load()))
	}()
	c := runCtx(ctx, args, stdin, stdout, stderr)
	if sc := int(code.Load()); sc != 0 && (c == 0 || c == exitInterrupt) {
		return sc
	}
	return c
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
		{"bound", "FILE [--time D] [--json FILE|-]", "compute a proven lower bound (Held–Karp) of the optimal tour length", cmdBound},
		{"gen", "--kind uniform|clustered|circle|grid --n N [--seed S] [--out FILE]", "generate an instance (circle and grid have a known optimum)", cmdGen},
		{"render", "FILE [--tour TOUR] --out X.png|X.svg|X.pdf [--width PX]", "draw an instance and a tour", cmdRender},
		{"bench", "--suite NAME [flags]", "run a benchmark or reproduction suite", cmdBench},
		{"engines", "", "list the registered engines and whether each can run here", cmdEngines},
		{"version", "", "print the version, the Go version and the GPU support", cmdVersion},
		{"help", "[COMMAND]", "show help", nil},
	}
}

// usageError is a mistake on the command line: exit code 2.
type usageError struct {
	cmd string // subcommand, "" for the top level
	msg string
}

func (e *usageError) Error() string { return e.msg }

func usagef(cmd, format string, args ...any) error {
	return &usageError{cmd: cmd, msg: fmt.Sprintf(format, args...)}
}

// errHelp asks for the subcommand's help on stdout and exit code 0.
var errHelp = errors.New("help requested")

// runCtx is run with a given context, so tests can stop a solve as Ctrl-C
// does. A command whose output to stdout failed (a full disk, a closed
// pipe) fails with exit code 1 even when it finished otherwise.
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
		if len(args) > 1 {
			if c, ok := findCommand(args[1]); ok && c.run != nil {
				_ = c.run(ctx, e, []string{"-h"})
				return 0
			}
			fmt.Fprintf(stderr, "tsp: unknown command %q\nRun 'tsp help' for the commands.\n", args[1])
			return 2
		}
		topUsage(stdout)
		return 0
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

// checkedWriter remembers the first write error, so that a command whose
// output was lost does not exit 0.
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

// newFlags returns a FlagSet for subcommand name whose help goes to
// e.stdout and whose errors become usage errors.
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

// parse parses args with flags and positional arguments in any order
// ("tsp solve a280.tsp --time 2s" and "tsp solve --time 2s a280.tsp"),
// and checks the number of positional arguments is within [minPos, maxPos].
func parse(fs *flag.FlagSet, name string, args []string, minPos, maxPos int) ([]string, error) {
	var pos []string
	// The flag package prints the usage on every parse error; the help goes
	// to stdout only when asked for, and an error is one line on stderr.
	printUsage := fs.Usage
	fs.Usage = func() {}
	defer func() { fs.Usage = printUsage }()
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				printUsage()
				return nil, errHelp
			}
			return nil, usagef(name, "%v", err)
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
