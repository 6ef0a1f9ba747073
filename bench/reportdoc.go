package bench

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/template"

	_ "embed"
)

// reportTemplate is docs/BENCHMARKS.md's prose with {{table "ID"}} placeholders,
// compiled in so the measuring machine needs nothing else.
//
//go:embed report.md.tmpl
var reportTemplate string

// WriteReportDoc writes the benchmark page from the template and the tables' CSV files in results.
func WriteReportDoc(w io.Writer, results string) error {
	return renderReport(w, reportTemplate, results)
}

// renderReport writes tmpl with each {{table "ID"}} replaced by the table of results/report-ID.csv.
func renderReport(w io.Writer, tmpl, results string) error {
	t, err := template.New("report.md.tmpl").Option("missingkey=error").Funcs(template.FuncMap{
		"table": func(id string) (string, error) { return tableMarkdown(results, id) },
	}).Parse(tmpl)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := t.Execute(&buf, nil); err != nil {
		return err
	}
	_, err = w.Write(buf.Bytes())
	return err
}

// reportStepOf is the plan's step that writes the table id.
func reportStepOf(id string) (reportStep, bool) {
	for _, s := range reportPlan {
		if s.id == id {
			return s, true
		}
	}
	return reportStep{}, false
}

// tableMarkdown is results/report-ID.csv as Markdown under its build, machine and date.
func tableMarkdown(results, id string) (string, error) {
	step, ok := reportStepOf(id)
	if !ok {
		return "", fmt.Errorf("table %q: no such table in the plan", id)
	}
	path := filepath.Join(results, "report-"+id+".csv")
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return fmt.Sprintf("*Not measured yet: `tsp bench report --run %s` writes it.*\n", step.part), nil
	}
	if err != nil {
		return "", err
	}
	defer f.Close()
	meta, t, err := readReportCSV(f, path)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "*Build %s, %s, %s.*\n\n", meta[0], meta[1], meta[2])
	err = t.Markdown(&b)
	return b.String(), err
}

// readReportCSV reads a plan's table: build, machine and date, then the rest; errors name file and line.
func readReportCSV(r io.Reader, path string) (meta [3]string, t *Table, err error) {
	cr := csv.NewReader(r)
	recs, err := cr.ReadAll()
	if err != nil {
		return meta, nil, fmt.Errorf("%s: %v", path, err)
	}
	want := []string{"build", "machine", "date"}
	if len(recs) == 0 || len(recs[0]) <= len(want) || strings.Join(recs[0][:3], ",") != strings.Join(want, ",") {
		return meta, nil, fmt.Errorf("%s:1: want a header starting build,machine,date and at least one column more", path)
	}
	if len(recs) == 1 {
		return meta, nil, fmt.Errorf("%s: no rows", path)
	}
	t = &Table{Header: recs[0][3:]}
	copy(meta[:], recs[1][:3])
	for i, rec := range recs[1:] {
		for k, name := range want {
			if rec[k] != meta[k] {
				return meta, nil, fmt.Errorf("%s:%d: %s %q differs from the table's %q: a table is from one run", path, i+2, name, rec[k], meta[k])
			}
		}
		t.Rows = append(t.Rows, rec[3:])
	}
	return meta, t, nil
}
