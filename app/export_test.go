package app

import (
	"encoding/json"
	"fmt"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/canvas"
	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/solver/report"
)

// An export that cannot be made yet (no run) fails before anything is
// written: an existing file keeps its content, in single and compare
// mode, and the save dialog (which empties the file it hands back) is
// not opened for it.
func TestExportFailsBeforeWriting(t *testing.T) {
	for _, compare := range []bool{false, true} {
		ap, loads := newTestApp(t, Options{Compare: compare})
		waitLoad(t, loads)
		dir := t.TempDir()
		for _, kind := range []string{ExportTour, ExportJSON} {
			path := filepath.Join(dir, "keep."+kind)
			names := []string{path, filepath.Join(dir, "keep-A."+kind), filepath.Join(dir, "keep-B."+kind)}
			for _, n := range names {
				if err := os.WriteFile(n, []byte("keep"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := ap.prepareExport(kind, 0, 0); err == nil {
				t.Errorf("compare %v: %s export prepared with no run", compare, kind)
			}
			if files, err := ap.ExportFile(path, kind, 0, 0); err == nil {
				t.Errorf("compare %v: %s export with no run wrote %v", compare, kind, files)
			}
			for _, n := range names {
				if b, _ := os.ReadFile(n); string(b) != "keep" {
					t.Errorf("compare %v: %s export with no run left %s as %q", compare, kind, filepath.Base(n), b)
				}
			}
		}
	}
}

// An export replaces the file whole: a new file is renamed over the old
// one (never the old one truncated and rewritten in place).
func TestExportReplacesWhole(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	path := filepath.Join(t.TempDir(), "pic.png")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(path)
	if _, err := ap.ExportFile(path, ExportPNG, 120, 90); err != nil {
		t.Fatal(err)
	}
	after, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if os.SameFile(before, after) {
		t.Error("the export rewrote the old file in place")
	}
	if after.Size() <= 3 || after.Mode().Perm() != 0o600 {
		t.Errorf("export: size %d, mode %v (want the new picture with the old file's 0600)", after.Size(), after.Mode().Perm())
	}
}

// TestExportSVGPath: TSP art's tour exports as one SVG path through every
// city, in a .svg file; with no run there is nothing to export.
func TestExportSVGPath(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	path := filepath.Join(t.TempDir(), "art.svg")
	if _, err := ap.ExportFile(path, ExportSVGPath, 800, 0); err == nil {
		t.Error("an SVG path exported with no run")
	}
	p := ap.Single
	p.SetSettings(fakeSettings(0))
	if err := p.RunFor(100 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	settle(t, p)
	if _, err := ap.ExportFile(path, ExportSVGPath, 800, 0); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	svg := string(b)
	_, d, _ := strings.Cut(svg, ` d="`)
	d, _, _ = strings.Cut(d, `"`)
	if strings.Count(svg, "<path") != 1 || strings.Count(d, ",") != p.Instance().N {
		t.Errorf("SVG path export: %d paths, %d points, want one path through %d cities", strings.Count(svg, "<path"), strings.Count(d, ","), p.Instance().N)
	}
	if fileExt(ExportSVGPath) != "svg" || !isPicture(ExportSVGPath) {
		t.Error("the SVG path is not saved as an .svg of a chosen width")
	}
}

// No export can land on a file the app has read (the instance, its
// optimal tour, a start tour): the names the save dialog proposes are
// none of theirs, the writer the dialog opens refuses them before it
// empties them, and the export refuses them, each kind, single and
// compare mode. The convergence CSV's lengths are in the file's units.
func TestExportNeverOntoAnInput(t *testing.T) {
	for _, compare := range []bool{false, true} {
		ap, loads := newTestApp(t, Options{Compare: compare})
		waitLoad(t, loads)
		dir := t.TempDir()
		inst := writeFile(t, dir, "holes.csv", "x,y\n0.5,0\n10.25,0\n10.25,10.125\n0,10\n5,5.5\n")
		ap.OpenFile(inst)
		if err := waitLoad(t, loads); err != nil {
			t.Fatal(err)
		}
		start := writeFile(t, dir, "holes.tour", "TYPE : TOUR\nDIMENSION : 5\nTOUR_SECTION\n1 2 3 4 5\n-1\nEOF\n")
		if err := ap.OpenStartTour(start); err != nil {
			t.Fatal(err)
		}
		opt := writeFile(t, dir, "holes.opt.tour", "TYPE : TOUR\nDIMENSION : 5\nTOUR_SECTION\n1 2 3 5 4\n-1\nEOF\n")
		inputs := []string{inst, start, opt}
		before := map[string]string{}
		for _, f := range inputs {
			b, _ := os.ReadFile(f)
			before[f] = string(b)
		}
		for _, p := range ap.Panes() {
			p.SetSettings(fakeSettings(0))
			if err := p.RunFor(100 * time.Millisecond); err != nil {
				t.Fatal(err)
			}
			settle(t, p)
		}
		for _, c := range exportChoices {
			name := exportName(c.kind, ap.Single.Instance().Name, ap.inputs())
			for _, in := range inputs {
				if strings.EqualFold(name, filepath.Base(in)) {
					t.Errorf("compare %v: %s proposes %s, an input", compare, c.label, name)
				}
			}
			for _, in := range inputs {
				if files, err := ap.ExportFile(in, c.kind, 200, 0); err == nil || !strings.Contains(err.Error(), "has read") {
					t.Errorf("compare %v: %s onto %s: wrote %v, error %v", compare, c.label, filepath.Base(in), files, err)
				}
				// what the save dialog does with the name chosen
				if w, err := storage.Writer(storage.NewFileURI(in)); err == nil {
					w.Close()
					t.Errorf("compare %v: the save dialog's writer opened %s", compare, filepath.Base(in))
				}
			}
			for _, f := range inputs {
				if b, _ := os.ReadFile(f); string(b) != before[f] {
					t.Fatalf("compare %v: %s export rewrote %s as %q", compare, c.label, filepath.Base(f), b)
				}
			}
		}
		// another file is written as before
		other := filepath.Join(dir, "holes-convergence.csv")
		files, err := ap.ExportFile(other, ExportCSV, 0, 0)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := os.ReadFile(files[0])
		if lines := strings.Split(string(b), "\n"); lines[0] != "elapsed_s,best_length" || len(lines) < 3 || !strings.Contains(lines[1], ".") {
			t.Errorf("compare %v: convergence CSV not in the file's units:\n%s", compare, b)
		}
	}
}

// The run report the app exports carries the lower bound the pane shows
// and the gap above it, as the CLI's --json does.
func TestExportReportCarriesTheBound(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	p.SetInstance(uniformInts("u400", 400, 3), nil)
	p.SetSettings(fakeSettings(3 * time.Second))
	if err := p.RunFor(0); err != nil {
		t.Fatal(err)
	}
	pump(t, "the lower bound", func() bool { return p.bound.value > 0 })
	p.Stop() // the bound is there: the rest of the run adds nothing to check
	settle(t, p)
	if v := p.numbers.value["Gap"].Text; !strings.HasPrefix(v, "at most ") {
		t.Fatalf("Gap shows %q", v)
	}
	out := filepath.Join(t.TempDir(), "r.json")
	if _, err := ap.ExportFile(out, ExportJSON, 0, 0); err != nil {
		t.Fatal(err)
	}
	var rep report.Report
	b, _ := os.ReadFile(out)
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if rep.LowerBoundScaled == nil || *rep.LowerBoundScaled != p.bound.value || rep.GapPercent == nil || rep.GapAbove != "lower_bound" {
		t.Errorf("report: lower bound %v, gap %v above %q: want the pane's bound %d and the gap above it", rep.LowerBoundScaled, rep.GapPercent, rep.GapAbove, p.bound.value)
	}
}

// An exported picture is drawn as the window draws it: one palette (the
// app's orange tour, dashed blue optimal tour, on its dark background)
// and the legend of what it shows.
func TestExportPictureMatchesTheApp(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	p.SetSettings(fakeSettings(0))
	if err := p.RunFor(100 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	settle(t, p)
	st := export.DefaultStyle() // what the window's view draws with
	hex := func(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }
	svgFile := filepath.Join(t.TempDir(), "p.svg")
	if _, err := ap.ExportFile(svgFile, ExportSVG, 500, 0); err != nil {
		t.Fatal(err)
	}
	b, _ := os.ReadFile(svgFile)
	svg := string(b)
	scene := p.ExportScene()
	if scene.Optimal == nil {
		t.Fatal("the sample shows no optimal tour")
	}
	for _, want := range []string{"stroke:" + hex(st.Tour), "stroke:" + hex(st.Optimal), "stroke-dasharray", "fill:" + hex(st.Background), canvas.LegendTour, canvas.LegendOptimal} {
		if !strings.Contains(svg, want) {
			t.Errorf("the SVG export lacks %q (the app's palette and legend)", want)
		}
	}
	pngFile := filepath.Join(t.TempDir(), "p.png")
	if _, err := ap.ExportFile(pngFile, ExportPNG, 500, 0); err != nil {
		t.Fatal(err)
	}
	f, _ := os.Open(pngFile)
	img, err := png.Decode(f)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if got := color.RGBAModel.Convert(img.At(1, 1)).(color.RGBA); got != st.Background {
		t.Errorf("PNG background %v, want the app's %v", got, st.Background)
	}
	if n := countTourPixels(img); n < 100 {
		t.Errorf("PNG: %d pixels of the app's tour colour", n)
	}
}

// objectsIn are o and every object under it, through containers and
// widgets' renderers.
func objectsIn(o fyne.CanvasObject) []fyne.CanvasObject {
	out := []fyne.CanvasObject{o}
	switch v := o.(type) {
	case *fyne.Container:
		for _, c := range v.Objects {
			out = append(out, objectsIn(c)...)
		}
	case fyne.Widget:
		for _, c := range test.WidgetRenderer(v).Objects() {
			out = append(out, objectsIn(c)...)
		}
	}
	return out
}

// overlayButton is the button labelled text in the window's top overlay.
func overlayButton(t *testing.T, ap *App, text string) *widget.Button {
	t.Helper()
	top := ap.Win.Canvas().Overlays().Top()
	if top == nil {
		t.Fatalf("no dialog open to tap %q", text)
	}
	for _, o := range objectsIn(top) {
		if b, ok := o.(*widget.Button); ok && b.Text == text {
			return b
		}
	}
	t.Fatalf("no button %q in the dialog", text)
	return nil
}

// Export… → Convergence (CSV) → Choose file… as a user does it, in the
// instance's folder: the name proposed is not the instance's, and
// typing the instance's name and accepting the overwrite prompt leaves
// the instance as it was, with an error saying why.
func TestExportDialogKeepsTheInstance(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	dir := t.TempDir()
	const data = "x,y\n0.5,0\n10.25,0\n10.25,10.125\n0,10\n5,5.5\n"
	inst := writeFile(t, dir, "holes.csv", data)
	ap.OpenFile(inst)
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	p := ap.Single
	p.SetSettings(fakeSettings(0))
	if err := p.RunFor(100 * time.Millisecond); err != nil {
		t.Fatal(err)
	}
	settle(t, p)
	ap.saveDialog(ExportCSV, 0, 0)
	var name *widget.Entry
	for _, o := range objectsIn(ap.Win.Canvas().Overlays().Top()) {
		if e, ok := o.(*widget.Entry); ok && strings.HasSuffix(e.Text, ".csv") {
			name = e
		}
	}
	if name == nil {
		t.Fatal("the save dialog has no file name")
	}
	if name.Text == "holes.csv" {
		t.Errorf("the save dialog proposes the instance's own name %q", name.Text)
	}
	name.SetText("holes.csv")
	test.Tap(overlayButton(t, ap, "Save"))
	test.Tap(overlayButton(t, ap, "Yes")) // "Are you sure you want to overwrite the file holes.csv?"
	if b, _ := os.ReadFile(inst); string(b) != data {
		t.Fatalf("the export replaced the instance with %q", b)
	}
	said := false
	for _, o := range objectsIn(ap.Win.Canvas().Overlays().Top()) {
		if l, ok := o.(*widget.Label); ok && strings.Contains(l.Text, "has read") {
			said = true
		}
	}
	if !said {
		t.Error("no error says why nothing was written")
	}
}

// The message after an export names each file written, and in compare
// mode whose pane each is.
func TestWroteMessage(t *testing.T) {
	if got := wroteMessage([]string{"/d/a.png"}); got != "Wrote /d/a.png" {
		t.Errorf("one file: %q", got)
	}
	got := wroteMessage([]string{"/d/r-A-auto-cpu.tour", "/d/r-B-pspm-cpu.tour"})
	if !strings.Contains(got, "2 files, one per pane") || !strings.Contains(got, "A: /d/r-A-auto-cpu.tour") || !strings.Contains(got, "B: /d/r-B-pspm-cpu.tour") {
		t.Errorf("two files: %q", got)
	}
}
