package app

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
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
	// ExportSVGPath is the best tour as one SVG path a pen plotter can
	// follow (TSP art), in a .svg file.
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

// ExportScene is what a pane's picture export shows: the canvas's scene
// (current tour while running, best tour, optimal overlay, title).
func (p *Pane) ExportScene() export.Scene { return p.View.Scene() }

// WriteExport writes one pane's export of kind to w; width and height
// size pictures (height 0 keeps the instance's aspect ratio).
func (p *Pane) WriteExport(w io.Writer, kind string, width, height int) error {
	return p.writeExport(w, kind, width, height, "")
}

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

// writeExport is WriteExport with the picture's title starting with
// label (compare mode names each pane and its engine).
func (p *Pane) writeExport(w io.Writer, kind string, width, height int, label string) error {
	if p.in == nil {
		return errors.New("export: no instance loaded")
	}
	switch kind {
	case ExportPNG, ExportSVG, ExportPDF:
		s := p.ExportScene()
		if label != "" {
			s.Title = label + " · " + s.Title
		}
		return export.Write(w, kind, s, width, height)
	case ExportTour:
		rep, in, err := p.record(false)
		if err != nil {
			return err
		}
		return rep.WriteTour(w, in, report.TourTSPLIB)
	case ExportSVGPath:
		tour, _, path := p.bestRoute()
		if tour == nil {
			return errors.New("export: no tour yet: run a solver first")
		}
		if path {
			return export.WriteSVGOpenPath(w, p.in, tour, width)
		}
		return export.WriteSVGPath(w, p.in, tour, width)
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

// prepareExport makes what kind exports from the panes on screen and
// returns the function that writes it to path and returns the files
// written: in compare mode a PNG or SVG holds both panes side by side, the
// other kinds go once per pane to NAME-A-ENGINE.EXT and NAME-B-ENGINE.EXT.
// It fails (no tour yet, no finished run) before anything is written.
func (a *App) prepareExport(kind string, width, height int) (write func(path string) ([]string, error), err error) {
	panes := a.Panes()
	if len(panes) == 1 || kind == ExportPNG || kind == ExportSVG {
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
		if err := p.writeExport(&buf, kind, width, height, paneLabel(i, p)); err != nil {
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

// paneLabel names compare pane i and its engine: "A auto/cpu".
func paneLabel(i int, p *Pane) string { return fmt.Sprintf("%c %s", 'A'+i, p.engineName()) }

// gutter is the grey gap between the panes of a side-by-side picture.
const gutter = 4

// paneWidths splits width into n pictures and the gutters between them.
func paneWidths(width, n int) ([]int, error) {
	free := width - gutter*(n-1)
	if free < n {
		return nil, fmt.Errorf("export: width %d is too narrow for %d panes side by side", width, n)
	}
	ws := make([]int, n)
	for i := range ws {
		ws[i] = free / n
	}
	ws[n-1] += free % n
	return ws, nil
}

// writeSideBySide draws the panes side by side, each titled, in one PNG or
// SVG of width × height (height 0: the instance's aspect ratio).
func writeSideBySide(w io.Writer, kind string, panes []*Pane, width, height int) error {
	ws, err := paneWidths(width, len(panes))
	if err != nil {
		return err
	}
	if height <= 0 {
		height = max(1, export.Height(panes[0].ExportScene(), ws[0]))
	}
	var parts [][]byte
	for i, p := range panes {
		var buf bytes.Buffer
		if err := p.writeExport(&buf, kind, ws[i], height, paneLabel(i, p)); err != nil {
			return fmt.Errorf("pane %c: %w", 'A'+i, err)
		}
		parts = append(parts, buf.Bytes())
	}
	switch kind {
	case ExportPNG:
		return composePNG(w, parts)
	case ExportSVG:
		return composeSVG(w, parts, ws, height)
	}
	return fmt.Errorf("export: %s cannot hold two panes", kind)
}

// composePNG decodes PNG pictures and writes them left to right, with a
// grey gutter between them, as one PNG.
func composePNG(w io.Writer, parts [][]byte) error {
	var imgs []image.Image
	wsum, hmax := 0, 0
	for _, b := range parts {
		img, err := png.Decode(bytes.NewReader(b))
		if err != nil {
			return err
		}
		imgs = append(imgs, img)
		wsum += img.Bounds().Dx()
		hmax = max(hmax, img.Bounds().Dy())
	}
	wsum += gutter * (len(imgs) - 1)
	out := image.NewRGBA(image.Rect(0, 0, wsum, hmax))
	draw.Draw(out, out.Rect, image.NewUniform(color.RGBA{128, 128, 128, 255}), image.Point{}, draw.Src)
	x := 0
	for _, img := range imgs {
		r := image.Rect(x, 0, x+img.Bounds().Dx(), img.Bounds().Dy())
		draw.Draw(out, r, img, img.Bounds().Min, draw.Src)
		x = r.Max.X + gutter
	}
	return png.Encode(w, out)
}

// composeSVG nests SVG documents of widths ws and height side by side,
// with the gutter between them, in one SVG document.
func composeSVG(w io.Writer, parts [][]byte, ws []int, height int) error {
	var b bytes.Buffer
	total := gutter * (len(parts) - 1)
	for _, wd := range ws {
		total += wd
	}
	fmt.Fprintf(&b, "<?xml version=\"1.0\"?>\n<svg width=\"%dpt\" height=\"%dpt\" viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n", total, height, total, height)
	x := 0
	for i, p := range parts {
		s := string(p)
		start := strings.Index(s, "<svg")
		if start < 0 {
			return errors.New("export: the SVG writer produced no <svg> element")
		}
		end := strings.Index(s[start:], ">")
		if end < 0 {
			return errors.New("export: unterminated <svg> element")
		}
		fmt.Fprintf(&b, "<svg x=\"%d\" y=\"0\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">", x, ws[i], height, ws[i], height)
		b.WriteString(s[start+end+1:])
		b.WriteString("\n")
		x += ws[i] + gutter
	}
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// isPicture reports whether kind is a picture, which has a size (the
// SVG path takes its width; its height follows the instance).
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
	// The file dialog creates (or empties) the file it hands back, so the
	// export is made first: one that cannot be made (no run yet) is
	// reported without costing the user a file.
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
			// Compare mode wrote NAME-A and NAME-B: the empty file the
			// dialog made under the chosen name goes.
			if st, serr := os.Stat(path); serr == nil && st.Size() == 0 {
				os.Remove(path)
			}
		}
		if err != nil {
			showErrorDialog(err, a.Win)
			return
		}
		dialog.ShowInformation("Exported", "Wrote "+strings.Join(files, ", "), a.Win)
	}, a.Win)
	name := "tour"
	if in := a.Panes()[0].Instance(); in != nil {
		name = in.Name
	}
	d.SetFileName(exportName(kind, name, a.inputs()))
	d.SetFilter(storage.NewExtensionFileFilter([]string{"." + fileExt(kind)}))
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}

// writeWhole replaces path with data atomically, as the command line does.
func writeWhole(path string, data []byte) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
