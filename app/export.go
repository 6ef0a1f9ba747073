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
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// Export kinds: pictures of the canvas, the tour, the convergence curve,
// the run report.
const (
	ExportPNG  = "png"
	ExportSVG  = "svg"
	ExportPDF  = "pdf"
	ExportTour = "tour"
	ExportCSV  = "csv"
	ExportJSON = "json"
)

// exportChoices label the kinds in the export dialog.
var exportChoices = []struct{ label, kind string }{
	{"Picture (PNG)", ExportPNG},
	{"Picture (SVG)", ExportSVG},
	{"Picture (PDF)", ExportPDF},
	{"Tour (TSPLIB .tour)", ExportTour},
	{"Convergence (CSV)", ExportCSV},
	{"Run report (JSON)", ExportJSON},
}

// ExportScene is what a pane's picture export shows: the canvas's scene
// (current tour while running, best tour, optimal overlay, title).
func (p *Pane) ExportScene() export.Scene { return p.View.Scene() }

// WriteExport writes one pane's export of kind to w; width and height
// size pictures (height 0 keeps the instance's aspect ratio).
func (p *Pane) WriteExport(w io.Writer, kind string, width, height int) error {
	if p.in == nil {
		return errors.New("export: no instance loaded")
	}
	switch kind {
	case ExportPNG, ExportSVG, ExportPDF:
		return export.Write(w, kind, p.ExportScene(), width, height)
	case ExportTour:
		tour, length := p.Runner.Best()
		if tour == nil {
			return errors.New("export: no tour yet: run a solver first")
		}
		res, _ := p.Runner.Result()
		comment := fmt.Sprintf("length %d, %s/%s, TSP Lab", length, res.Algorithm, res.Backend)
		return tsplib.WriteTour(w, p.in.Name+".tour", comment, tour)
	case ExportCSV:
		return export.WriteCurveCSV(w, p.Curve.Points())
	case ExportJSON:
		res, ok := p.Runner.Result()
		if !ok {
			return errors.New("export: no finished run to report: stop or pause the run first")
		}
		return solver.NewReport(p.in, res).WriteJSON(w)
	}
	return fmt.Errorf("export: unknown kind %q", kind)
}

// ExportFile exports the panes on screen to path. In compare mode a PNG
// or SVG holds both panes side by side; the other kinds are written once
// per pane, to NAME-A.EXT and NAME-B.EXT beside path. It returns the
// files written. Each file is replaced whole; nothing is written when
// any pane's export cannot be made.
func (a *App) ExportFile(path, kind string, width, height int) ([]string, error) {
	write, err := a.prepareExport(kind, width, height)
	if err != nil {
		return nil, err
	}
	return write(path)
}

// prepareExport makes what kind exports from the panes on screen and
// returns the function that writes it to path as ExportFile does. It
// fails (no tour yet, no finished run) before anything is written.
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
		return func(path string) ([]string, error) { return []string{path}, writeWhole(path, buf.Bytes()) }, nil
	}
	parts := make([][]byte, len(panes))
	for i, p := range panes {
		var buf bytes.Buffer
		if err := p.WriteExport(&buf, kind, width, height); err != nil {
			return nil, fmt.Errorf("pane %c: %w", 'A'+i, err)
		}
		parts[i] = buf.Bytes()
	}
	return func(path string) ([]string, error) {
		ext := filepath.Ext(path)
		base := strings.TrimSuffix(path, ext)
		var out []string
		for i, data := range parts {
			name := fmt.Sprintf("%s-%c%s", base, 'A'+i, ext)
			if err := writeWhole(name, data); err != nil {
				return out, err
			}
			out = append(out, name)
		}
		return out, nil
	}, nil
}

// writeSideBySide draws each pane's picture at width × height and puts
// them side by side in one PNG (composed pixels) or SVG (nested <svg>
// elements).
func writeSideBySide(w io.Writer, kind string, panes []*Pane, width, height int) error {
	if height <= 0 {
		height = width * 3 / 4
	}
	var parts [][]byte
	for i, p := range panes {
		var buf bytes.Buffer
		if err := p.WriteExport(&buf, kind, width, height); err != nil {
			return fmt.Errorf("pane %c: %w", 'A'+i, err)
		}
		parts = append(parts, buf.Bytes())
	}
	switch kind {
	case ExportPNG:
		return composePNG(w, parts)
	case ExportSVG:
		return composeSVG(w, parts, width, height)
	}
	return fmt.Errorf("export: %s cannot hold two panes", kind)
}

// composePNG decodes PNG pictures and writes them left to right, with a
// 4-pixel grey gutter, as one PNG.
func composePNG(w io.Writer, parts [][]byte) error {
	const gutter = 4
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

// composeSVG nests SVG documents of width × height side by side in one
// SVG document.
func composeSVG(w io.Writer, parts [][]byte, width, height int) error {
	var b bytes.Buffer
	total := width * len(parts)
	fmt.Fprintf(&b, "<?xml version=\"1.0\"?>\n<svg width=\"%dpt\" height=\"%dpt\" viewBox=\"0 0 %d %d\" xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\">\n", total, height, total, height)
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
		fmt.Fprintf(&b, "<svg x=\"%d\" y=\"0\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">", i*width, width, height, width, height)
		b.WriteString(s[start+end+1:])
		b.WriteString("\n")
	}
	b.WriteString("</svg>\n")
	_, err := w.Write(b.Bytes())
	return err
}

// exportDialog asks what to export and where.
func (a *App) exportDialog() {
	labels := make([]string, len(exportChoices))
	for i, c := range exportChoices {
		labels[i] = c.label
	}
	kind := widget.NewSelect(labels, nil)
	kind.SetSelectedIndex(0)
	width := widget.NewEntry()
	width.SetText("1600")
	height := widget.NewEntry()
	height.SetText("0")
	height.SetPlaceHolder("0 = keep aspect")
	items := []*widget.FormItem{
		widget.NewFormItem("What", kind),
		widget.NewFormItem("Width", width),
		{Text: "Height", Widget: height, HintText: "pixels for PNG, points for SVG/PDF; 0 keeps the aspect ratio"},
	}
	dialog.ShowForm("Export", "Choose file…", "Cancel", items, func(ok bool) {
		if !ok {
			return
		}
		k := exportChoices[kind.SelectedIndex()].kind
		wv, err1 := strconv.Atoi(strings.TrimSpace(width.Text))
		hv, err2 := strconv.Atoi(strings.TrimSpace(height.Text))
		if err1 != nil || err2 != nil || wv <= 0 || hv < 0 || wv > export.MaxSize || hv > export.MaxSize {
			dialog.ShowError(fmt.Errorf("export: size %q × %q is not valid (width 1..%d, height 0..%d)", width.Text, height.Text, export.MaxSize, export.MaxSize), a.Win)
			return
		}
		a.saveDialog(k, wv, hv)
	}, a.Win)
}

func (a *App) saveDialog(kind string, width, height int) {
	// The file dialog creates (or empties) the file it hands back, so the
	// export is made first: one that cannot be made (no run yet) is
	// reported without costing the user a file.
	write, err := a.prepareExport(kind, width, height)
	if err != nil {
		dialog.ShowError(err, a.Win)
		return
	}
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			dialog.ShowError(err, a.Win)
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
			dialog.ShowError(err, a.Win)
			return
		}
		dialog.ShowInformation("Exported", "Wrote "+strings.Join(files, ", "), a.Win)
	}, a.Win)
	name := "tour"
	if in := a.Panes()[0].Instance(); in != nil {
		name = in.Name
	}
	d.SetFileName(name + "." + kind)
	d.SetFilter(storage.NewExtensionFileFilter([]string{"." + kind}))
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
}

// writeWhole replaces path with data atomically (internal/atomicfile, as
// the command line writes its outputs): a full disk or a crash leaves the
// previous file, never a truncated one.
func writeWhole(path string, data []byte) error {
	return atomicfile.Write(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}
