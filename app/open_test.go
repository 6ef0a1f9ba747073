package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver/instfile"
)

// An empty file is "the file is empty" in the folder list, as tsp says
// of it (the same reader, instfile.Read), not a complaint about its
// header.
func TestEmptyFileSaysWhatTheCLISays(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"empty.tsp", "blank.csv"} {
		p := writeFile(t, dir, name, map[string]string{"empty.tsp": "", "blank.csv": "\n  \n"}[name])
		_, rerr := instfile.Read(p)
		if rerr == nil || !strings.HasSuffix(rerr.Error(), "the file is empty") {
			t.Fatalf("%s: the reader says %v", name, rerr)
		}
		if e := ReadEntry(p); e.Err != rerr.Error() {
			t.Errorf("%s: the folder list says %q, the reader %q", name, e.Err, rerr.Error())
		}
	}
}

// A tour opened with Open tour… can be exported before any run: Export
// is enabled and writes it.
func TestExportAfterOpenTour(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	dir := t.TempDir()
	inst := writeFile(t, dir, "sq.csv", "x,y\n0,0\n1,0\n1,1\n0,1\n2,2\n")
	tour := writeFile(t, dir, "sq.tour", "TYPE : TOUR\nDIMENSION : 5\nTOUR_SECTION\n1\n2\n5\n3\n4\n-1\nEOF\n")
	waitLoad(t, loads)
	ap.OpenFile(inst)
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	if !ap.exportBtn.Disabled() {
		t.Fatal("Export enabled with no tour")
	}
	if err := ap.OpenStartTour(tour); err != nil {
		t.Fatal(err)
	}
	if ap.exportBtn.Disabled() {
		t.Error("Export stays disabled after Open tour…")
	}
	var b bytes.Buffer
	if err := ap.Single.WriteExport(&b, ExportTour, 0, 0); err != nil || !strings.Contains(b.String(), "TOUR_SECTION\n1\n2\n5\n3\n4\n") {
		t.Errorf("export of the opened tour: %v\n%s", err, b.String())
	}
}
