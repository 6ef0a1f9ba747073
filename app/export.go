package app

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver/report"
)

// Export kinds: pictures of the canvas, the tour, the convergence curve, the run report.
const (
	ExportPNG  = "png"
	ExportSVG  = "svg"
	ExportPDF  = "pdf"
	ExportTour = "tour"
	ExportCSV  = "csv"
	ExportJSON = "json"
	// ExportSVGPath is the best tour as one SVG path for a pen plotter (TSP art).
	ExportSVGPath = "svg-path"
)

// exportChoices label the kinds in the export dialog.
var exportChoices = []struct{ label, kind string }{
	{"Picture (PNG)", ExportPNG},
	{"Picture (SVG)", ExportSVG},
	{"Picture (PDF)", ExportPDF},
	{"Tour (TSPLIB .tour)", ExportTour},
	{"Tour as one SVG path (pen plotter)", ExportSVGPath},
	{"Convergence (CSV)", ExportCSV},
	{"Run report (JSON)", ExportJSON},
}

// ExportScene is a pane's picture export: the canvas's scene.
func (p *Pane) ExportScene() export.Scene { return p.View.Scene() }

// engineName is the engine of the pane's run ("auto/cpu"), or of its settings before any run.
func (p *Pane) engineName() string {
	if e := p.Runner.Last().Engine; e != "" {
		return e
	}
	if e := p.settings.engine(); e != nil {
		return e.Name() + "/" + e.Backend()
	}
	s, _ := p.settings.Settings()
	return s.Algorithm + "/" + s.Backend
}

// WriteExport writes one pane's export of kind to w; height 0 keeps the aspect ratio.
func (p *Pane) WriteExport(w io.Writer, kind string, width, height int) error {
	if p.in == nil {
		return errors.New("export: no instance loaded")
	}
	switch kind {
	case ExportPNG, ExportSVG, ExportPDF:
		return export.Write(w, kind, p.ExportScene(), width, height)
	case ExportTour, ExportSVGPath:
		rep, in, err := p.record(false)
		switch {
		case err != nil:
			return err
		case kind == ExportTour:
			return rep.WriteTour(w, in, report.TourTSPLIB)
		case rep.IsPath():
			return export.WriteSVGOpenPath(w, in, rep.Cities(), width)
		}
		return export.WriteSVGPath(w, in, rep.Cities(), width)
	case ExportCSV:
		return export.WriteCurveCSV(w, p.in, p.Curve.Points())
	case ExportJSON:
		rep, _, err := p.record(true)
		if err != nil {
			return err
		}
		return rep.WriteJSON(w)
	}
	return fmt.Errorf("export: unknown kind %q", kind)
}

// prepareExport makes kind's export of the panes on screen (compare mode: pictures side by side, other kinds a file per pane)
// and returns its writer; it fails before anything is written.
func (a *App) prepareExport(kind string, width, height int) (write func(path string) ([]string, error), err error) {
	panes := a.Panes()
	if len(panes) == 1 || kind == ExportPNG || kind == ExportSVG || kind == ExportPDF {
		var buf bytes.Buffer
		if len(panes) == 1 {
			err = panes[0].WriteExport(&buf, kind, width, height)
		} else {
			err = writeSideBySide(&buf, kind, panes, width, height)
		}
		if err != nil {
			return nil, err
		}
		return func(path string) ([]string, error) {
			if err := a.checkOutput(path); err != nil {
				return nil, err
			}
			return []string{path}, writeWhole(path, buf.Bytes())
		}, nil
	}
	parts := make([][]byte, len(panes))
	tags := make([]string, len(panes))
	for i, p := range panes {
		var buf bytes.Buffer
		if err := p.WriteExport(&buf, kind, width, height); err != nil {
			return nil, fmt.Errorf("pane %c: %w", 'A'+i, err)
		}
		parts[i] = buf.Bytes()
		tags[i] = fmt.Sprintf("%c-%s", 'A'+i, strings.ReplaceAll(p.engineName(), "/", "-"))
	}
	return func(path string) ([]string, error) {
		if err := a.checkOutput(path); err != nil {
			return nil, err
		}
		ext := filepath.Ext(path)
		base := strings.TrimSuffix(path, ext)
		var out []string
		for i, data := range parts {
			name := fmt.Sprintf("%s-%s%s", base, tags[i], ext)
			if err := a.checkOutput(name); err != nil {
				return out, err
			}
			if err := writeWhole(name, data); err != nil {
				return out, err
			}
			out = append(out, name)
		}
		return out, nil
	}, nil
}

// writeSideBySide draws the panes side by side, each titled with its letter and engine, in one width × height picture.
func writeSideBySide(w io.Writer, kind string, panes []*Pane, width, height int) error {
	scenes := make([]export.Scene, len(panes))
	for i, p := range panes {
		if p.in == nil {
			return errors.New("export: no instance loaded")
		}
		scenes[i] = p.ExportScene()
		scenes[i].Title = fmt.Sprintf("%c %s · %s", 'A'+i, p.engineName(), scenes[i].Title)
	}
	return export.WriteSideBySide(w, kind, scenes, width, height)
}

// isPicture reports whether kind is a picture, which has a size (the SVG path: its width).
func isPicture(kind string) bool {
	return kind == ExportPNG || kind == ExportSVG || kind == ExportPDF || kind == ExportSVGPath
}

// fileExt is the file name extension of an export of kind, without the dot.
func fileExt(kind string) string {
	if kind == ExportSVGPath {
		return ExportSVG
	}
	return kind
}

// exportForm is the export dialog's content: what to export and, for a picture only, its size.
type exportForm struct {
	kind          *widget.Select
	width, height *widget.Entry
	size          *fyne.Container
	content       fyne.CanvasObject
}

func newExportForm() *exportForm {
	f := &exportForm{}
	labels := make([]string, len(exportChoices))
	for i, c := range exportChoices {
		labels[i] = c.label
	}
	f.width = widget.NewEntry()
	f.width.SetText("1600")
	f.height = widget.NewEntry()
	f.height.SetText("0")
	f.height.SetPlaceHolder("0 = keep aspect")
	hint := newSecondaryLabel("pixels for PNG, points for SVG/PDF; height 0 keeps the aspect ratio; in compare mode the size of the whole picture", true)
	f.size = container.NewVBox(
		container.New(layout.NewFormLayout(), widget.NewLabel("Width"), f.width, widget.NewLabel("Height"), f.height), hint)
	f.kind = widget.NewSelect(labels, func(string) { showIf(f.size, isPicture(f.Kind())) })
	f.kind.SetSelectedIndex(0)
	f.content = container.NewVBox(container.New(layout.NewFormLayout(), widget.NewLabel("What"), f.kind), f.size)
	return f
}

// Kind is the chosen export kind.
func (f *exportForm) Kind() string {
	if i := f.kind.SelectedIndex(); i >= 0 {
		return exportChoices[i].kind
	}
	return ExportPNG
}

// Size parses the picture size (0, 0 for the other kinds).
func (f *exportForm) Size() (int, int, error) {
	if !isPicture(f.Kind()) {
		return 0, 0, nil
	}
	wv, err1 := strconv.Atoi(strings.TrimSpace(f.width.Text))
	hv, err2 := strconv.Atoi(strings.TrimSpace(f.height.Text))
	if err1 != nil || err2 != nil || wv <= 0 || hv < 0 || wv > export.MaxSize || hv > export.MaxSize {
		return 0, 0, fmt.Errorf("export: size %q × %q is not valid (width 1..%d, height 0..%d)", f.width.Text, f.height.Text, export.MaxSize, export.MaxSize)
	}
	return wv, hv, nil
}

// exportDialog asks what to export (and a picture's size), then where.
func (a *App) exportDialog() {
	f := newExportForm()
	dialog.ShowCustomConfirm("Export", "Choose file…", "Cancel", f.content, func(ok bool) {
		if !ok {
			return
		}
		wv, hv, err := f.Size()
		if err != nil {
			showErrorDialog(err, a.Win)
			return
		}
		a.saveDialog(f.Kind(), wv, hv)
	}, a.Win)
}

func (a *App) saveDialog(kind string, width, height int) {
	// The dialog creates the file it hands back, so an export that cannot be made fails before it.
	write, err := a.prepareExport(kind, width, height)
	if err != nil {
		showErrorDialog(err, a.Win)
		return
	}
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			showErrorDialog(err, a.Win)
			return
		}
		if wc == nil {
			return
		}
		path := wc.URI().Path()
		wc.Close()
		files, err := write(path)
		if err == nil && !slices.Contains(files, path) {
			// Compare mode wrote NAME-A and NAME-B: the dialog's empty file goes.
			if st, serr := os.Stat(path); serr == nil && st.Size() == 0 {
				os.Remove(path)
			}
		}
		if err != nil {
			showErrorDialog(err, a.Win)
			return
		}
		dialog.ShowInformation("Exported", wroteMessage(files), a.Win)
	}, a.Win)
	name := "tour"
	if in := a.Panes()[0].Instance(); in != nil {
		name = in.Name
	}
	d.SetFileName(exportName(kind, name, a.inputs()))
	if a.current != "" {
		if l, err := storage.ListerForURI(storage.NewFileURI(filepath.Dir(a.current))); err == nil {
			d.SetLocation(l)
		}
	}
	d.SetFilter(storage.NewExtensionFileFilter([]string{"." + fileExt(kind)}))
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}

// wroteMessage says what an export wrote: the file, or in compare mode a file per pane.
func wroteMessage(files []string) string {
	if len(files) == 1 {
		return "Wrote " + files[0]
	}
	lines := []string{fmt.Sprintf("Wrote %d files, one per pane:", len(files))}
	for i, f := range files {
		lines = append(lines, fmt.Sprintf("%c: %s", 'A'+i, f))
	}
	return strings.Join(lines, "\n")
}

// writeWhole replaces path with data atomically, as the command line does.
func writeWhole(path string, data []byte) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
