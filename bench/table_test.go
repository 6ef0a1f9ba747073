package bench

import (
	"bytes"
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTableMarkdownAndCSV(t *testing.T) {
	tb := &Table{
		Title:  "demo",
		Header: []string{"instance", "gap %"},
		Notes:  []string{"machine: test"},
	}
	tb.AddRow("a280", 0.5)
	tb.AddRow("x|y", "1,5")

	var md bytes.Buffer
	if err := tb.Markdown(&md); err != nil {
		t.Fatal(err)
	}
	want := "### demo\n\n| instance | gap % |\n| --- | --- |\n| a280 | 0.5 |\n| x\\|y | 1,5 |\n\n- machine: test\n"
	if md.String() != want {
		t.Fatalf("markdown:\n%q\nwant\n%q", md.String(), want)
	}

	var c bytes.Buffer
	if err := tb.CSV(&c); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&c).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 3 || recs[2][0] != "x|y" || recs[2][1] != "1,5" || recs[0][1] != "gap %" {
		t.Fatalf("csv round trip: %q", recs)
	}
}

func TestTableSave(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	tb := &Table{Header: []string{"a"}, Rows: [][]string{{"1"}}}
	if err := tb.Save(dir, "t"); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"t.md", "t.csv"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "1") {
			t.Fatalf("%s lacks the row: %q", f, b)
		}
	}
}

func TestHostCPU(t *testing.T) {
	h := HostCPU()
	if !strings.Contains(h, "core") {
		t.Fatalf("HostCPU() = %q, want a core count", h)
	}
	p := filepath.Join(t.TempDir(), "cpuinfo")
	os.WriteFile(p, []byte("processor\t: 0\nmodel name\t: Test CPU 9000\n"), 0o644)
	if m := cpuModel(p); m != "Test CPU 9000" {
		t.Fatalf("cpuModel = %q", m)
	}
	if m := cpuModel(filepath.Join(t.TempDir(), "none")); m != "" {
		t.Fatalf("cpuModel of a missing file = %q", m)
	}
}
