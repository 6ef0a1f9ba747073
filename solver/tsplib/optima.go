package tsplib

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"github.com/tsplab/tsplab/solver/problem"
)

// OptimaFile is the CSV of known optima looked for beside an instance and in the optima folders.
const OptimaFile = "optima.csv"

// OptimaEnv names the variable of one more optima.csv folder.
const OptimaEnv = "TSPLIB_OPTIMA"

// csvTable is a CSV file with a header row.
type csvTable struct {
	header []string
	col    map[string]int // lower-case column name -> index
	rows   [][]string
	lines  []int
}

// maxCSVSize bounds an optima CSV: it is a small table.
const maxCSVSize = 64 << 20

func readCSV(path string) (*csvTable, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxCSVSize+1))
	if err != nil {
		return nil, FileError(path, err)
	}
	if len(data) > maxCSVSize {
		return nil, &Error{File: path, Line: 1, Msg: "file too large for a table of optima"}
	}
	data = bytes.TrimPrefix(data, []byte("\xEF\xBB\xBF"))
	r := csv.NewReader(bytes.NewReader(data))
	r.FieldsPerRecord = -1
	r.TrimLeadingSpace = true
	r.Comment = '#'
	tab := &csvTable{col: map[string]int{}}
	for {
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			break
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return nil, &Error{File: path, Line: pe.Line, Msg: oneLine(pe.Err.Error())}
			}
			return nil, &Error{File: path, Line: line, Msg: oneLine(err.Error())}
		}
		if tab.header == nil {
			if err := tab.setHeader(path, line, rec); err != nil {
				return nil, err
			}
			continue
		}
		if len(rec) == 1 && strings.TrimSpace(rec[0]) == "" {
			continue
		}
		for len(rec) < len(tab.header) {
			rec = append(rec, "")
		}
		tab.rows = append(tab.rows, rec)
		tab.lines = append(tab.lines, line)
	}
	if tab.header == nil {
		return nil, &Error{File: path, Line: 1, Msg: "empty file: want a header row naming name and optimum"}
	}
	return tab, nil
}

// setHeader takes rec as the table's header: names, none twice, name and optimum among them.
func (tab *csvTable) setHeader(path string, line int, rec []string) error {
	tab.header = rec
	for i, h := range rec {
		h = strings.ToLower(strings.TrimSpace(h))
		if _, dup := tab.col[h]; dup && h != "" {
			return &Error{File: path, Line: line, Msg: "column " + Quote(h) + " given twice in the header"}
		}
		tab.col[h] = i
	}
	for _, need := range []string{"name", "optimum"} {
		if _, ok := tab.col[need]; !ok {
			return &Error{File: path, Line: line, Msg: "header has no " + Quote(need) + " column (want a header row naming name and optimum)"}
		}
	}
	return nil
}

// OpenRegular opens path only when it is a regular file (a FIFO or device would block); errors are *Error.
func OpenRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, FileError(path, err)
	}
	if !st.Mode().IsRegular() {
		return nil, &Error{File: path, Msg: "not a regular file"}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, FileError(path, err)
	}
	return f, nil
}

// ReadOptima reads a CSV of known optima with "name" and "optimum" columns (empty skipped, later rows win).
func ReadOptima(path string) (map[string]int64, error) {
	tab, err := readCSV(path)
	if err != nil {
		return nil, err
	}
	nc, oc := tab.col["name"], tab.col["optimum"]
	out := make(map[string]int64, len(tab.rows))
	for i, rec := range tab.rows {
		name := strings.TrimSpace(rec[nc])
		v := strings.TrimSpace(rec[oc])
		if name == "" || v == "" {
			continue
		}
		opt, err := strconv.ParseInt(v, 10, 64)
		if err != nil || opt < 0 {
			return nil, &Error{File: path, Line: tab.lines[i], Msg: "optimum " + Quote(v) + " of " + Quote(name) + " is not a non-negative integer"}
		}
		out[name] = opt
	}
	return out, nil
}

// instanceNames returns an instance's names, best first.
func instanceNames(path, name string) []string {
	var names []string
	if path != "" {
		names = append(names, strings.TrimSuffix(TrimGz(filepath.Base(path)), ".tsp"))
	}
	if name != "" && (len(names) == 0 || names[0] != name) {
		names = append(names, name)
	}
	return names
}

// withEnv returns dirs and then the directory $TSPLIB_OPTIMA names.
func withEnv(dirs []string) []string {
	if d := os.Getenv(OptimaEnv); d != "" {
		return append(dirs[:len(dirs):len(dirs)], d)
	}
	return dirs
}

// FindOptimum looks up in's known optimal tour length: optima.csv beside in.Path, then in dirs (or a .csv named there),
// then NAME.opt.tour(.gz) beside it or in opt/, by base name then in.Name; source is the file. Fixed edges' lengths are
// added to a path's table value (linhp318).
func FindOptimum(in *problem.Instance, dirs ...string) (opt int64, source string, ok bool) {
	if in == nil {
		return 0, "", false
	}
	if opt, source, ok := tableOptimum(in.Path, instanceNames(in.Path, in.Name), dirs); ok {
		if fixed := fixedEdgesLength(in); fixed > 0 {
			return opt + fixed, fmt.Sprintf("%s (path %d + fixed edges %d)", source, opt, fixed), true
		}
		return opt, source, true
	}
	if in.Path == "" {
		return 0, "", false
	}
	for _, p := range optTourCandidates(in.Path, in) {
		tour, err := ReadTour(p, in.N)
		if err != nil || in.CheckFixedEdges(tour) != nil {
			continue
		}
		return problem.TourLength(in, tour), p, true
	}
	return 0, "", false
}

// fixedEdgesLength is the summed length of in's fixed edges.
func fixedEdgesLength(in *problem.Instance) int64 {
	var l int64
	for _, e := range in.FixedEdges {
		l += in.Dist(e[0], e[1])
	}
	return l
}

// KnownOptimum looks up the instance file at path in the optima tables as Load does, without reading it.
func KnownOptimum(path, name string, dirs ...string) (opt int64, source string, ok bool) {
	return tableOptimum(path, instanceNames(path, name), withEnv(dirs))
}

// tableOptimum finds the first of names in optima.csv beside path, then in dirs.
func tableOptimum(path string, names, dirs []string) (int64, string, bool) {
	var csvs []string
	if path != "" {
		csvs = append(csvs, filepath.Join(filepath.Dir(path), OptimaFile))
	}
	for _, d := range dirs {
		if d == "" {
			continue
		}
		if strings.HasSuffix(strings.ToLower(d), ".csv") {
			csvs = append(csvs, d)
		} else {
			csvs = append(csvs, filepath.Join(d, OptimaFile))
		}
	}
	for _, c := range csvs {
		m, err := ReadOptima(c)
		if err != nil {
			continue
		}
		for _, n := range names {
			if v, found := m[n]; found {
				return v, c, true
			}
		}
	}
	return 0, "", false
}

func optTourCandidates(instancePath string, in *problem.Instance) []string {
	dir, name := filepath.Dir(instancePath), ""
	if in != nil {
		name = in.Name
	}
	var out []string
	for _, n := range instanceNames(instancePath, name) {
		for _, d := range []string{dir, filepath.Join(dir, "opt")} {
			for _, ext := range []string{".opt.tour", ".opt.tour.gz"} {
				p := filepath.Join(d, n+ext)
				if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
					out = append(out, p)
				}
			}
		}
	}
	return out
}

// OptTourPath returns the path of NAME.opt.tour(.gz) beside instancePath or in opt/ beside it, or "".
func OptTourPath(instancePath string, in *problem.Instance) string {
	if c := optTourCandidates(instancePath, in); len(c) > 0 {
		return c[0]
	}
	return ""
}

// Load reads the TSPLIB95 instance at path with its known optimum.
func Load(path string, optimaDirs ...string) (*problem.Instance, error) {
	in, err := Read(path)
	if err != nil {
		return nil, err
	}
	SetOptimum(in, optimaDirs...)
	return in, nil
}

// SetOptimum attaches in's known optimum from optimaDirs then $TSPLIB_OPTIMA, leaving in as it is when unknown.
func SetOptimum(in *problem.Instance, optimaDirs ...string) {
	if opt, src, ok := FindOptimum(in, withEnv(optimaDirs)...); ok {
		in.Optimum, in.OptimumSource = opt, src
	}
}

// AppendOptimum records name's optimum in the CSV at csvPath (created when missing), replacing its row, atomically.
func AppendOptimum(csvPath, name string, dim int, ewt string, opt int64) error {
	var tab *csvTable
	if _, err := os.Stat(csvPath); err == nil {
		tab, err = readCSV(csvPath)
		if err != nil {
			return err
		}
	} else if errors.Is(err, os.ErrNotExist) {
		tab = &csvTable{header: []string{"name", "dimension", "edge_weight_type", "optimum"},
			col: map[string]int{"name": 0, "dimension": 1, "edge_weight_type": 2, "optimum": 3}}
	} else {
		return FileError(csvPath, err)
	}
	row := make([]string, len(tab.header))
	set := func(col, v string) {
		if i, ok := tab.col[col]; ok {
			row[i] = v
		}
	}
	set("name", name)
	set("dimension", strconv.Itoa(dim))
	set("edge_weight_type", ewt)
	set("optimum", strconv.FormatInt(opt, 10))
	tab.putRow(name, row)
	var buf bytes.Buffer
	rows := slices.DeleteFunc(tab.rows, func(r []string) bool { return r == nil })
	if err := csv.NewWriter(&buf).WriteAll(append([][]string{tab.header}, rows...)); err != nil {
		return FileError(csvPath, err)
	}
	return replaceFile(csvPath, buf.Bytes())
}

// putRow puts row in place of name's first row (keeping the columns it leaves empty), or at the end.
func (tab *csvTable) putRow(name string, row []string) {
	replaced := false
	nc := tab.col["name"]
	for i, r := range tab.rows {
		if strings.TrimSpace(r[nc]) == name {
			// Keep the other columns of the old row.
			for j := range row {
				if row[j] == "" && j < len(r) {
					row[j] = r[j]
				}
			}
			if !replaced {
				tab.rows[i] = row
				replaced = true
			} else {
				tab.rows[i] = nil // a duplicate row: drop it
			}
		}
	}
	if !replaced {
		tab.rows = append(tab.rows, row)
	}
}

// replaceFile writes data beside path and renames it over path.
func replaceFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".optima-*.csv")
	if err != nil {
		return FileError(path, err)
	}
	_, werr := tmp.Write(data)
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Chmod(tmp.Name(), 0o644)
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return FileError(path, werr)
	}
	return nil
}
