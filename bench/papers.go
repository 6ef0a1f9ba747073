package bench

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/tsplab/tsplab/internal/tsplibdir"
)

// PapersEnv names the environment variable that points at the folder of the papers' tables (one CSV per printed table) when --papers is not given.
const PapersEnv = "TSP_PAPERS"

// PaperNA fills a paper column whose figure cannot be read: the suites never type a published number themselves.
const PaperNA = "not available"

// PapersDir returns the papers' folder: $TSP_PAPERS, else ../shared/papers beside the repository; "" when neither exists.
func PapersDir() string {
	if d := os.Getenv(PapersEnv); d != "" {
		return d
	}
	if root := tsplibdir.ModuleRoot(); root != "" {
		d := filepath.Join(root, "..", "shared", "papers")
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			return d
		}
	}
	return ""
}

// paperTable is one of the papers' CSV files: its header and rows, cells as printed.
type paperTable struct {
	header []string
	rows   [][]string
}

// papers reads the papers' CSV files from one folder, each once; a missing folder or file gives nil tables (every cell PaperNA) and one note.
type papers struct {
	dir    string
	mu     sync.Mutex
	tables map[string]*paperTable
	errs   []string
}

func newPapers(dir string) *papers {
	if dir == "" {
		dir = PapersDir()
	}
	return &papers{dir: dir, tables: map[string]*paperTable{}}
}

// table returns the named CSV ("lam-table2.csv"), or nil when it cannot be read (the reason is kept for the notes).
func (p *papers) table(file string) *paperTable {
	p.mu.Lock()
	defer p.mu.Unlock()
	if t, ok := p.tables[file]; ok {
		return t
	}
	t, err := readPaperTable(p.dir, file)
	if err != nil {
		p.errs = append(p.errs, err.Error())
	}
	p.tables[file] = t
	return t
}

func readPaperTable(dir, file string) (*paperTable, error) {
	if dir == "" {
		return nil, fmt.Errorf("papers' tables not found (no --papers, no $%s, no ../shared/papers)", PapersEnv)
	}
	path := filepath.Join(dir, file)
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: not found", path)
	} else if err != nil {
		return nil, err
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: empty", path)
	}
	return &paperTable{header: recs[0], rows: recs[1:]}, nil
}

// note is the line the tables carry about the papers' figures: where they were read from or why they are not available ("" when none were asked for).
func (p *papers) note() string {
	if p == nil {
		return ""
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch {
	case len(p.errs) > 0:
		return "Paper columns not available: " + p.errs[0] + " (pass --papers DIR or set $" + PapersEnv + ")."
	case len(p.tables) == 0:
		return ""
	}
	return "Paper columns read at run time from " + filepath.Join(p.dir, "*.csv") + " (cells as printed)."
}

// col returns the index of the column whose header is name, or -1.
func (t *paperTable) col(name string) int {
	if t == nil {
		return -1
	}
	return slices.Index(t.header, name)
}

// cell returns the cell of column name in the first row whose leading cells equal keys, as printed, or PaperNA.
func (t *paperTable) cell(name string, keys ...string) string {
	c := t.col(name)
	if c < 0 {
		return PaperNA
	}
rows:
	for _, r := range t.rows {
		if len(r) < len(keys) {
			continue
		}
		for i, k := range keys {
			if strings.TrimSpace(r[i]) != k {
				continue rows
			}
		}
		if c >= len(r) || strings.TrimSpace(r[c]) == "" {
			return PaperNA
		}
		return strings.TrimSpace(r[c])
	}
	return PaperNA
}

// where returns the rows whose column name equals value.
func (t *paperTable) where(name, value string) [][]string {
	c := t.col(name)
	if c < 0 {
		return nil
	}
	var out [][]string
	for _, r := range t.rows {
		if c < len(r) && strings.TrimSpace(r[c]) == value {
			out = append(out, r)
		}
	}
	return out
}

// paperFloat parses a printed cell ("4.6", "1, 120, 000", "20 µs") as a number in its own unit; ok is false for placeholders ("-", ".").
func paperFloat(s string) (float64, bool) {
	s = strings.ReplaceAll(strings.ReplaceAll(s, ", ", ""), ",", "")
	var v float64
	_, err := fmt.Sscan(s, &v)
	return v, err == nil
}
