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
// Exit codes: 0 done, 1 failed (one line on stderr, "tsp: FILE:LINE:
// problem" for bad input), 2 usage. Run `tsp help` for the commands and
// `tsp help COMMAND` for a command's flags. Flags may come before or after
// the file arguments.
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
	"syscall"
)

// version is set at build time: -ldflags "-X main.version=v1.2.3".
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run executes the command line args and returns the exit code. SIGINT and
// SIGTERM cancel the running command (solve still writes its best tour);
// a second signal kills the process as usual.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		stop() // the next Ctrl-C is the default: exit at once
	}()
	return runCtx(ctx, args, stdin, stdout, stderr)
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

// runCtx is run with a given context, so tests can stop a solve as Ctrl-C does.
func runCtx(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr}
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
			fmt.Fprintf(stderr, "tsp: unknown command %q\n", args[1])
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
		fmt.Fprintf(stderr, "tsp %s: %s\nRun 'tsp help %s' for usage.\n", c.name, oneLine(ue.msg), c.name)
		return 2
	default:
		fmt.Fprintf(stderr, "tsp: %s\n", oneLine(err.Error()))
		return 1
	}
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
	fmt.Fprintf(w, "Exit codes: 0 done, 1 failed, 2 usage.\n")
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
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, errHelp // fs.Parse has printed the usage
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
