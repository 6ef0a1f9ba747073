package app

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/solver"
)

// fieldRow is one settings field: label and input on a line, help and error beneath.
type fieldRow struct {
	widget.BaseWidget
	label  *widget.Label
	input  fyne.CanvasObject
	help   fyne.CanvasObject
	errMsg *widget.Label
}

func newFieldRow(label *widget.Label, input, help fyne.CanvasObject, errMsg *widget.Label) *fieldRow {
	r := &fieldRow{label: label, input: input, help: help, errMsg: errMsg}
	r.ExtendBaseWidget(r)
	return r
}

// ShowError shows err under the field, or hides the line when nil.
func (r *fieldRow) ShowError(err error) {
	was := r.errMsg.Visible()
	showFieldError(r.errMsg, err)
	if was != r.errMsg.Visible() {
		r.Refresh()
	}
}

// CreateRenderer returns the field's renderer.
func (r *fieldRow) CreateRenderer() fyne.WidgetRenderer {
	return &fieldRowRenderer{objectsRenderer{[]fyne.CanvasObject{r.label, r.input, r.help, r.errMsg}}, r}
}

// fieldRowRenderer lays out label and input on a line, then help and error at full width.
type fieldRowRenderer struct {
	objectsRenderer
	r *fieldRow
}

func (fr *fieldRowRenderer) headHeight() float32 {
	return max(fr.r.label.MinSize().Height, fr.r.input.MinSize().Height)
}

// below are the lines under the label and input that are shown.
func (fr *fieldRowRenderer) below() []fyne.CanvasObject {
	var out []fyne.CanvasObject
	for _, o := range []fyne.CanvasObject{fr.r.help, fr.r.errMsg} {
		if o.Visible() {
			out = append(out, o)
		}
	}
	return out
}

func (fr *fieldRowRenderer) Layout(size fyne.Size) {
	h, pad := fr.headHeight(), theme.Padding()
	fr.r.label.Move(fyne.NewPos(0, 0))
	fr.r.label.Resize(fyne.NewSize(labelWidth, h))
	fr.r.input.Move(fyne.NewPos(labelWidth+pad, 0))
	fr.r.input.Resize(fyne.NewSize(max(size.Width-labelWidth-pad, 0), h))
	y := h
	for _, o := range fr.below() {
		y += pad
		o.Move(fyne.NewPos(0, y))
		o.Resize(fyne.NewSize(size.Width, o.MinSize().Height))
		o.Resize(fyne.NewSize(size.Width, o.MinSize().Height)) // a wrapped text's height follows its width
		y += o.MinSize().Height
	}
}

func (fr *fieldRowRenderer) MinSize() fyne.Size {
	pad := theme.Padding()
	w, h := labelWidth+pad+fr.r.input.MinSize().Width, fr.headHeight()
	for _, o := range fr.below() {
		m := o.MinSize()
		w, h = max(w, m.Width), h+pad+m.Height
	}
	return fyne.NewSize(w, h)
}

func (fr *fieldRowRenderer) Refresh() {
	fr.Layout(fr.r.Size())
	fr.objectsRenderer.Refresh()
}

// BackendLabel is how a backend's button names it: CPU, GPU, Auto.
func BackendLabel(b string) string {
	if b == solver.BackendAuto {
		return "Auto"
	}
	return strings.ToUpper(b)
}

// enginePicker is the engine choice: the algorithm menu, a button per backend and why the GPU cannot run it.
type enginePicker struct {
	widget.BaseWidget
	algoSelect  *widget.Select
	backendBtns map[string]*widget.Button
	backendRow  *fyne.Container
	gpuNote     *widget.Label
	names       []fyne.CanvasObject // the "Algorithm" and "Backend" labels
	oneLine     bool                // the menu and the buttons on one line, unnamed (a compare pane)
}

// newEnginePicker offers algos; onAlgo and onBackend follow the user's picks.
func newEnginePicker(algos []string, onAlgo func(string), onBackend func(string)) *enginePicker {
	p := &enginePicker{algoSelect: widget.NewSelect(algos, onAlgo), backendBtns: map[string]*widget.Button{}}
	var btns []fyne.CanvasObject
	for _, b := range backends {
		btn := widget.NewButton(BackendLabel(b), func() { onBackend(b) })
		p.backendBtns[b] = btn
		btns = append(btns, btn)
	}
	p.backendRow = container.NewGridWithColumns(len(backends), btns...)
	p.gpuNote = newWrapLabel("")
	p.gpuNote.Importance = widget.WarningImportance
	p.gpuNote.Hide()
	p.names = []fyne.CanvasObject{widget.NewLabel("Algorithm"), widget.NewLabel("Backend")}
	p.ExtendBaseWidget(p)
	return p
}

// SetNote shows note (made drawable) under the choice; "" hides it.
func (p *enginePicker) SetNote(note string) {
	was := p.gpuNote.Visible()
	p.gpuNote.SetText(Drawable(note))
	showIf(p.gpuNote, note != "")
	if was != p.gpuNote.Visible() {
		p.Refresh()
	}
}

// SetChoice marks backend cur and, when on, enables the backends that run algo here.
func (p *enginePicker) SetChoice(algo, cur string, on bool) {
	enable(p.algoSelect, on)
	for b, btn := range p.backendBtns {
		enable(btn, on && (b == solver.BackendAuto || backendStatus(algo, b) == nil))
		imp := widget.MediumImportance
		if b == cur {
			imp = widget.HighImportance
		}
		if btn.Importance != imp {
			btn.Importance = imp
			btn.Refresh()
		}
	}
}

// CreateRenderer returns the picker's renderer.
func (p *enginePicker) CreateRenderer() fyne.WidgetRenderer {
	cells := []fyne.CanvasObject{p.names[0], p.algoSelect, p.names[1], p.backendRow}
	return &pickerRenderer{p: p, form: newFormNoteRenderer(p, cells, p.gpuNote),
		line: &oneLineRenderer{w: p, left: p.algoSelect, right: p.backendRow, note: p.gpuNote}}
}

// pickerRenderer lays the picker out as a form, or on one line when oneLine is set.
type pickerRenderer struct {
	p    *enginePicker
	form *formNoteRenderer
	line *oneLineRenderer
}

func (r *pickerRenderer) current() fyne.WidgetRenderer {
	if r.p.oneLine {
		return r.line
	}
	return r.form
}

func (r *pickerRenderer) Layout(size fyne.Size) {
	for _, n := range r.p.names {
		showIf(n, !r.p.oneLine)
	}
	r.current().Layout(size)
}

func (r *pickerRenderer) MinSize() fyne.Size { return r.current().MinSize() }

func (r *pickerRenderer) Refresh() {
	r.Layout(r.p.Size())
	r.form.objectsRenderer.Refresh()
}

func (r *pickerRenderer) Objects() []fyne.CanvasObject { return r.form.objects }
func (r *pickerRenderer) Destroy()                     {}

// oneLineRenderer lays two objects side by side in proportion to their least widths, a note beneath when shown.
type oneLineRenderer struct {
	w           fyne.Widget
	left, right fyne.CanvasObject
	note        fyne.CanvasObject
}

func (r *oneLineRenderer) lineHeight() float32 {
	return max(r.left.MinSize().Height, r.right.MinSize().Height)
}

func (r *oneLineRenderer) Layout(size fyne.Size) {
	pad, h := theme.Padding(), r.lineHeight()
	lw, rw := r.left.MinSize().Width, r.right.MinSize().Width
	free := max(size.Width-pad-lw-rw, 0)
	lw += free / 2
	r.left.Move(fyne.NewPos(0, 0))
	r.left.Resize(fyne.NewSize(lw, h))
	r.right.Move(fyne.NewPos(lw+pad, 0))
	r.right.Resize(fyne.NewSize(max(size.Width-lw-pad, 0), h))
	if n := r.note; n.Visible() {
		n.Move(fyne.NewPos(0, h+pad))
		n.Resize(fyne.NewSize(size.Width, n.MinSize().Height))
		n.Resize(fyne.NewSize(size.Width, n.MinSize().Height)) // a wrapped text's height follows its width
	}
}

func (r *oneLineRenderer) MinSize() fyne.Size {
	pad := theme.Padding()
	m := fyne.NewSize(r.left.MinSize().Width+pad+r.right.MinSize().Width, r.lineHeight())
	if n := r.note; n.Visible() {
		nm := n.MinSize()
		m = fyne.NewSize(max(m.Width, nm.Width), m.Height+pad+nm.Height)
	}
	return m
}

func (r *oneLineRenderer) Refresh() { r.Layout(r.w.Size()) }

func (r *oneLineRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.left, r.right, r.note}
}
func (r *oneLineRenderer) Destroy() {}
