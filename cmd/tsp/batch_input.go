package main

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// batchItem is one instance of a batch: a file, or one line of a file of
// many instances.
type batchItem struct {
	file string // the path as given or found in a folder
	line int    // the line of an instance line, 0 for a whole file
	text []byte // the instance line's text, nil for a whole file
	err  error  // why the file could not be listed (an item that fails)
	id   uint64 // its place in the inputs' order, which seeds its search
	seq  int    // its place among the items this run solves: the order of the lines
}

// key names the item in the results, for resuming: the file, and the line
// of an instance line.
func (it batchItem) key() string { return it.atLine(it.file) }

// name is the instance's name in the results.
func (it batchItem) name() string { return it.atLine(instfile.BaseName(it.file)) }

// atLine is s with ":line" after it for an instance line.
func (it batchItem) atLine(s string) string {
	if it.line == 0 {
		return s
	}
	return s + ":" + strconv.Itoa(it.line)
}

// load reads the item's instance, with the length of the tour an instance
// line gives after "output" (ok false when none or not a tour of it).
func (it batchItem) load(optima []string) (in *solver.Instance, ref int64, hasRef bool, err error) {
	if it.err != nil {
		return nil, 0, false, it.err
	}
	if it.text == nil {
		in, err = instfile.Load(it.file, optima...)
		if err == nil && in.Name == "" {
			in.Name = it.name()
		}
		return in, 0, false, err
	}
	return parseInstanceLine(it.text, it.file, it.line)
}

// maxInstanceLine bounds a line of a file of instances (a million cities
// at 24 bytes each).
const maxInstanceLine = 1 << 25

// isInstanceLines reports whether the file at path holds one instance a
// line, "x1 y1 x2 y2 …" with an optional " output …", as the data sets
// of learned TSP solvers do: its first line has "output" after numbers,
// or an even count of at least six numbers and is not the first row of a
// cost matrix (whose first number is 0, as is the second row's second).
func isInstanceLines(path string) (bool, error) {
	f, err := tsplib.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	br := bufio.NewReader(f)
	first, err := readLongLine(br)
	if err != nil {
		return false, f.Err(err)
	}
	nums, out := instanceFields(first)
	if len(nums) < 6 || len(nums)%2 != 0 || !allNumbers(nums) {
		return false, nil
	}
	if out {
		return true, nil
	}
	if v, _ := strconv.ParseFloat(string(nums[0]), 64); v != 0 {
		return true, nil
	}
	second, err := readLongLine(br)
	if err != nil {
		return false, f.Err(err)
	}
	f2, _ := instanceFields(second)
	if len(f2) < 2 {
		return true, nil
	}
	v, err := strconv.ParseFloat(string(f2[1]), 64)
	return err != nil || v != 0, nil
}

// readLongLine reads the next line that is not blank (nil at the end).
func readLongLine(br *bufio.Reader) ([]byte, error) {
	for {
		b, err := br.ReadBytes('\n')
		if len(b) > maxInstanceLine {
			return nil, fmt.Errorf("a line longer than %d bytes", maxInstanceLine)
		}
		if t := bytes.TrimSpace(b); len(t) > 0 {
			return t, nil
		}
		if err == io.EOF {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

// instanceFields splits an instance line at blanks or commas into the
// coordinates and reports whether an "output" part followed them (its
// fields are the rest).
func instanceFields(line []byte) (nums [][]byte, out bool) {
	f := bytes.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '\r' })
	if i := slices.IndexFunc(f, func(b []byte) bool { return string(b) == "output" }); i >= 0 {
		return f[:i], true
	}
	return f, false
}

func allNumbers(f [][]byte) bool {
	for _, b := range f {
		if _, err := strconv.ParseFloat(string(b), 64); err != nil {
			return false
		}
	}
	return true
}

// parseInstanceLine reads one instance line (line of file) as a point
// list of its coordinate pairs, scaled as a point list file is, and the
// length of the tour after "output" (1-based ids, the first city again at
// the end or not) when it is a tour of those points.
func parseInstanceLine(text []byte, file string, line int) (*solver.Instance, int64, bool, error) {
	all := bytes.FieldsFunc(text, func(r rune) bool { return r == ' ' || r == '\t' || r == ',' || r == '\r' })
	nums, out := instanceFields(text)
	if len(nums) < 2 || len(nums)%2 != 0 {
		return nil, 0, false, fmt.Errorf("%s:%d: %d numbers before the end of the coordinates, want pairs x y", file, line, len(nums))
	}
	var b bytes.Buffer
	b.Grow(len(text))
	for k := 0; k < len(nums); k += 2 {
		b.Write(nums[k])
		b.WriteByte(' ')
		b.Write(nums[k+1])
		b.WriteByte('\n')
	}
	in, err := instfile.ParsePoints(&b, file)
	if err != nil {
		var te *tsplib.Error
		if errors.As(err, &te) {
			return nil, 0, false, fmt.Errorf("%s:%d: point %d: %s", file, line, te.Line, te.Msg)
		}
		return nil, 0, false, fmt.Errorf("%s:%d: %v", file, line, err)
	}
	in.Name = instfile.BaseName(file) + ":" + strconv.Itoa(line)
	if !out {
		return in, 0, false, nil
	}
	ids := all[len(nums)+1:]
	if len(ids) == in.N+1 && string(ids[0]) == string(ids[len(ids)-1]) {
		ids = ids[:in.N]
	}
	tour := make([]int, 0, len(ids))
	for _, f := range ids {
		id, err := strconv.Atoi(string(f))
		if err != nil {
			return in, 0, false, nil
		}
		tour = append(tour, id-1)
	}
	if solver.ValidateTour(tour, in.N) != nil {
		return in, 0, false, nil
	}
	return in, solver.TourLength(in, tour), true, nil
}

// batchItems sends the items of the inputs, in order (files as given, a
// folder's instance files by name but its table of optima, a file of
// instance lines line by line), to each. An input or file that cannot be
// listed is an item of its own that fails (its err set), and the listing
// goes on with the next; it stops when ctx ends or each returns false.
func batchItems(ctx context.Context, inputs []string, forceLines bool, each func(batchItem) bool) error {
	for _, in := range inputs {
		in = filepath.Clean(in) // the keys a rerun matches do not depend on how the path was spelled
		files, err := batchFiles(in)
		if err != nil {
			if !each(batchItem{file: in, err: err}) {
				return nil
			}
			continue
		}
		for _, f := range files {
			if err := ctx.Err(); err != nil {
				return err
			}
			lines := forceLines
			if !lines {
				if lines, err = isInstanceLines(f); err != nil {
					var te *tsplib.Error
					if !errors.As(err, &te) { // a tsplib.Error names the file
						err = fmt.Errorf("%s: %v", f, err)
					}
					if !each(batchItem{file: f, err: err}) {
						return nil
					}
					continue
				}
			}
			if !lines {
				if !each(batchItem{file: f}) {
					return nil
				}
				continue
			}
			stop, err := lineItems(ctx, f, each)
			if stop {
				return err
			}
			if err != nil && !each(batchItem{file: f, err: err}) {
				return nil
			}
		}
	}
	return nil
}

// batchFiles is the instance files of one input: the file, or a folder's
// instance files by name but its table of optima.
func batchFiles(in string) ([]string, error) {
	st, err := os.Stat(in)
	if err != nil {
		return nil, fmt.Errorf("%s: no such file or folder", in)
	}
	if !st.IsDir() {
		return []string{in}, nil
	}
	ents, err := os.ReadDir(in)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", in, err)
	}
	var files []string
	for _, e := range ents {
		if !e.IsDir() && instfile.HasInstanceExtension(e.Name()) && e.Name() != tsplib.OptimaFile {
			files = append(files, filepath.Join(in, e.Name()))
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("%s: no instance files (%s) in this folder", in, strings.Join(instfile.Extensions, ", "))
	}
	return files, nil
}

// inputFiles are the files the batch reads besides its results, onto
// which no --out may be written: each input file, a folder's instance
// files, the tables of optima in their folders, and the table --optima
// names (a .csv, or optima.csv in its folder).
func (r *batchRequest) inputFiles() []string {
	var files []string
	for _, in := range r.inputs {
		listed, _ := batchFiles(in) // an input that cannot be listed fails as an item
		files = append(files, listed...)
		dir := in
		if st, err := os.Stat(in); err == nil && !st.IsDir() {
			dir = filepath.Dir(in)
		}
		files = append(files, filepath.Join(dir, tsplib.OptimaFile))
	}
	if r.optima != "" {
		files = append(files, r.optima, filepath.Join(r.optima, tsplib.OptimaFile))
	}
	return files
}

// lineItems sends the instance lines of file to each; stop is true when
// each asked to stop.
func lineItems(ctx context.Context, file string, each func(batchItem) bool) (stop bool, err error) {
	f, err := tsplib.Open(file)
	if err != nil {
		return false, err
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 1<<20)
	for line := 1; ; line++ {
		if line%1024 == 0 && ctx.Err() != nil {
			return true, ctx.Err()
		}
		b, rerr := br.ReadBytes('\n')
		if len(b) > maxInstanceLine {
			return false, fmt.Errorf("%s:%d: a line longer than %d bytes", file, line, maxInstanceLine)
		}
		if t := bytes.TrimSpace(b); len(t) > 0 && t[0] != '#' {
			if !each(batchItem{file: file, line: line, text: t}) {
				return true, nil
			}
		}
		if rerr == io.EOF {
			return false, nil
		}
		if gz := f.GzipError(); gz != nil {
			return false, gz
		}
		if rerr != nil {
			return false, fmt.Errorf("%s:%d: %v", file, line, rerr)
		}
	}
}
