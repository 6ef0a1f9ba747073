package bench

import (
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
)

// Shard is one part of a suite run split over machines: the rows whose index modulo N is I (zero: the whole run).
type Shard struct {
	I int `json:"i"`
	N int `json:"n"`
}

// Whole reports whether s is the whole run.
func (s Shard) Whole() bool { return s.N <= 1 }

// Has reports whether row k of the suite's order is the shard's.
func (s Shard) Has(k int) bool { return s.Whole() || k%s.N == s.I }

// String is the shard as --shard takes it ("" for the whole run).
func (s Shard) String() string {
	if s.Whole() {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// shardable are the suites whose rows a Shard splits.
var shardable = map[string]bool{"cpu": true}

// Shardable reports whether the named suite takes a Shard.
func Shardable(suite string) bool { return shardable[suite] }

// Report is a suite run's tables as data (`tsp bench --json`, `tsp bench merge`).
type Report struct {
	Suite string `json:"suite"`
	// Shard is the part of the run this report holds (nil: all of it).
	Shard  *Shard      `json:"shard,omitempty"`
	Tables []TableJSON `json:"tables"`
}

// TableJSON is a Table as data; RowIndex orders merged shards' rows.
type TableJSON struct {
	File     string     `json:"file"`
	Title    string     `json:"title"`
	Header   []string   `json:"header"`
	Rows     [][]string `json:"rows"`
	RowIndex []int      `json:"row_index,omitempty"`
	Notes    []string   `json:"notes,omitempty"`
}

// addRowAt appends row k of the suite's order.
func (t *Table) addRowAt(k int, cells ...any) {
	t.AddRow(cells...)
	t.index = append(t.index, k)
}

// asJSON is t as data.
func (t *Table) asJSON() TableJSON {
	return TableJSON{File: t.file, Title: t.Title, Header: t.Header, Rows: t.Rows, RowIndex: t.index, Notes: t.Notes}
}

// Table is the table tj describes.
func (tj TableJSON) Table() *Table {
	return &Table{Title: tj.Title, Header: tj.Header, Rows: tj.Rows, Notes: tj.Notes, file: tj.File, index: tj.RowIndex}
}

// WriteJSON writes the report, indented.
func (rep Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// newReport is the suite's tables as a Report of shard.
func newReport(suite string, shard Shard, tables []*Table) Report {
	rep := Report{Suite: suite}
	if !shard.Whole() {
		rep.Shard = &shard
	}
	for _, t := range tables {
		rep.Tables = append(rep.Tables, t.asJSON())
	}
	return rep
}

// ReadReport reads a Report that `tsp bench --json` wrote.
func ReadReport(path string) (Report, error) {
	var rep Report
	b, err := os.ReadFile(path)
	if err != nil {
		return rep, err
	}
	if err := json.Unmarshal(b, &rep); err != nil {
		return rep, fmt.Errorf("%s: not a report of tsp bench --json: %v", path, err)
	}
	if rep.Suite == "" {
		return rep, fmt.Errorf("%s: not a report of tsp bench --json: no suite", path)
	}
	return rep, nil
}

// Merge joins the N shards' reports of one suite run into the one-machine report; names name the reports in errors.
func Merge(reps []Report, names []string) (Report, error) {
	if len(reps) == 0 {
		return Report{}, fmt.Errorf("no reports to merge")
	}
	first := reps[0]
	n := 0
	if first.Shard != nil {
		n = first.Shard.N
	}
	if n < 1 || len(reps) != n {
		return Report{}, fmt.Errorf("%s: %d reports given, the shards are of %d", names[0], len(reps), n)
	}
	byI := make([]*Report, n)
	for k := range reps {
		r := &reps[k]
		switch {
		case r.Suite != first.Suite:
			return Report{}, fmt.Errorf("%s: suite %s, %s's is %s", names[k], r.Suite, names[0], first.Suite)
		case r.Shard == nil || r.Shard.N != n:
			return Report{}, fmt.Errorf("%s: not a shard of %d", names[k], n)
		case r.Shard.I < 0 || r.Shard.I >= n:
			return Report{}, fmt.Errorf("%s: shard %d/%d out of range", names[k], r.Shard.I, n)
		case byI[r.Shard.I] != nil:
			return Report{}, fmt.Errorf("%s: shard %d/%d given twice", names[k], r.Shard.I, n)
		}
		byI[r.Shard.I] = r
	}
	out := Report{Suite: first.Suite}
	for ti, t0 := range byI[0].Tables {
		type row struct {
			k     int
			cells []string
		}
		var rows []row
		for i, r := range byI {
			if len(r.Tables) != len(byI[0].Tables) || r.Tables[ti].File != t0.File || !slices.Equal(r.Tables[ti].Header, t0.Header) {
				return Report{}, fmt.Errorf("shard %d/%d: its tables differ from shard 0's", i, n)
			}
			t := r.Tables[ti]
			if len(t.RowIndex) != len(t.Rows) {
				return Report{}, fmt.Errorf("shard %d/%d: table %s has no row order", i, n, t.File)
			}
			for j, c := range t.Rows {
				rows = append(rows, row{t.RowIndex[j], c})
			}
		}
		slices.SortStableFunc(rows, func(a, b row) int { return cmp.Compare(a.k, b.k) })
		m := TableJSON{File: t0.File, Title: t0.Title, Header: t0.Header, Notes: t0.Notes}
		for j, r := range rows {
			if j > 0 && rows[j-1].k == r.k {
				return Report{}, fmt.Errorf("table %s: row %d is in two shards", t0.File, r.k)
			}
			m.Rows = append(m.Rows, r.cells)
			m.RowIndex = append(m.RowIndex, r.k)
		}
		out.Tables = append(out.Tables, m)
	}
	return out, nil
}

// Print writes the report's tables as markdown, as the suite prints them.
func (rep Report) Print(w io.Writer) error {
	for i, tj := range rep.Tables {
		if i > 0 {
			fmt.Fprintln(w)
		}
		if err := tj.Table().Markdown(w); err != nil {
			return err
		}
	}
	return nil
}

// Save writes each table's markdown and CSV into dir, as --out does.
func (rep Report) Save(dir string) error {
	for _, tj := range rep.Tables {
		if err := tj.Table().Save(dir, tj.File); err != nil {
			return err
		}
	}
	return nil
}
