package bench

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver/report"
)

// Table is one result table of a suite, written as markdown and CSV from the same rows.
type Table struct {
	Title  string
	Header []string
	Rows   [][]string
	Notes  []string
	file   string // the base name the suite saves it under
	index  []int  // each row's index in the suite's order, when the suite runs in shards (addRowAt)
}

// AddRow appends one row; cells are formatted with fmt's %v.
func (t *Table) AddRow(cells ...any) {
	row := make([]string, len(cells))
	for i, c := range cells {
		row[i] = fmt.Sprint(c)
	}
	t.Rows = append(t.Rows, row)
}

// Markdown writes t as a GitHub-flavoured markdown table under its title, its notes as a list below.
func (t *Table) Markdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	if t.Title != "" {
		fmt.Fprintf(bw, "### %s\n\n", t.Title)
	}
	cols := len(t.Header)
	for _, r := range t.Rows {
		cols = max(cols, len(r))
	}
	if cols > 0 {
		writeMDRow(bw, t.Header, cols)
		writeMDRow(bw, slices.Repeat([]string{"---"}, cols), cols)
		for _, r := range t.Rows {
			writeMDRow(bw, r, cols)
		}
	}
	if len(t.Notes) > 0 {
		bw.WriteString("\n")
		for _, n := range t.Notes {
			fmt.Fprintf(bw, "- %s\n", n)
		}
	}
	return bw.Flush()
}

func writeMDRow(w *bufio.Writer, cells []string, cols int) {
	w.WriteString("|")
	for i := 0; i < cols; i++ {
		c := ""
		if i < len(cells) {
			c = strings.ReplaceAll(cells[i], "|", `\|`)
			c = strings.ReplaceAll(c, "\n", " ")
		}
		w.WriteString(" " + c + " |")
	}
	w.WriteString("\n")
}

// CSV writes the header and the rows of t as RFC 4180 CSV.
func (t *Table) CSV(w io.Writer) error {
	cw := csv.NewWriter(w)
	if len(t.Header) > 0 {
		if err := cw.Write(t.Header); err != nil {
			return err
		}
	}
	if err := cw.WriteAll(t.Rows); err != nil {
		return err
	}
	cw.Flush()
	return cw.Error()
}

// Save writes dir/base.md and dir/base.csv, creating dir if needed; each file is replaced whole or not at all.
func (t *Table) Save(dir, base string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	if err := atomicfile.Write(filepath.Join(dir, base+".md"), t.Markdown); err != nil {
		return err
	}
	return atomicfile.Write(filepath.Join(dir, base+".csv"), t.CSV)
}

// HostCPU describes this machine's processor for result tables ("AMD EPYC, 2 cores").
func HostCPU() string {
	model := cpuModel("/proc/cpuinfo")
	if model == "" {
		model = runtime.GOOS + "/" + runtime.GOARCH
	}
	return model + ", " + report.Plural(runtime.NumCPU(), "core")
}

// cpuModel returns the first "model name" in a cpuinfo file, or "".
func cpuModel(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), ":")
		if !ok {
			continue
		}
		k = strings.TrimSpace(k)
		if k == "model name" || k == "Model" || k == "cpu model" {
			if v = strings.TrimSpace(v); v != "" {
				return v
			}
		}
	}
	return ""
}
