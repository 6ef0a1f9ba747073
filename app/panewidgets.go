package app

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/solver/session"
)

// runControls is a pane's block of run buttons, enabled by the run's state, laid out in controlColumns.
type runControls struct {
	widget.BaseWidget
	run, pause, step, stop, reset, fit *widget.Button
}

// controlColumns is how many buttons a row of runControls holds.
const controlColumns = 3

// runActions are what the run buttons do.
type runActions struct {
	run, pause, step, stop, reset, fit func()
}

func newRunControls(do runActions) *runControls {
	c := &runControls{
		run:   widget.NewButtonWithIcon("Run", theme.MediaPlayIcon(), do.run),
		pause: widget.NewButtonWithIcon("Pause", theme.MediaPauseIcon(), do.pause),
		step:  widget.NewButtonWithIcon("Step", theme.MediaSkipNextIcon(), do.step),
		stop:  widget.NewButtonWithIcon("Stop", theme.MediaStopIcon(), do.stop),
		reset: widget.NewButtonWithIcon("Reset", theme.MediaReplayIcon(), do.reset),
		fit:   widget.NewButtonWithIcon("Fit", theme.ZoomFitIcon(), do.fit),
	}
	c.run.Importance = widget.HighImportance
	c.ExtendBaseWidget(c)
	return c
}

// SetState enables the buttons that make sense for a run in state st (has: an instance; valid: runnable settings).
func (c *runControls) SetState(st session.RunState, has, valid bool) {
	startable := has && (valid || st == session.Paused)
	enable(c.run, startable && st != session.Running)
	text := "Run"
	if st == session.Paused {
		text = "Resume"
	}
	if c.run.Text != text {
		c.run.SetText(text)
	}
	enable(c.pause, st == session.Running)
	enable(c.step, startable && st != session.Running)
	enable(c.stop, st == session.Running || st == session.Paused)
	enable(c.reset, has)
}

func (c *runControls) buttons() []fyne.CanvasObject {
	return []fyne.CanvasObject{c.run, c.pause, c.step, c.stop, c.reset, c.fit}
}

// CreateRenderer returns the renderer of the button grid.
func (c *runControls) CreateRenderer() fyne.WidgetRenderer {
	return &runControlsRenderer{objectsRenderer{c.buttons()}}
}

// objectsRenderer is what the panes' and settings' renderers share: objects refreshed in turn.
type objectsRenderer struct{ objects []fyne.CanvasObject }

func (r *objectsRenderer) Objects() []fyne.CanvasObject { return r.objects }
func (r *objectsRenderer) Destroy()                     {}

func (r *objectsRenderer) Refresh() {
	for _, o := range r.objects {
		o.Refresh()
	}
}

// runControlsRenderer lays the buttons out in rows of controlColumns equal cells.
type runControlsRenderer struct{ objectsRenderer }

func (r *runControlsRenderer) cell() fyne.Size {
	var s fyne.Size
	for _, o := range r.objects {
		s = s.Max(o.MinSize())
	}
	return s
}

func (r *runControlsRenderer) rows() int {
	return (len(r.objects) + controlColumns - 1) / controlColumns
}

// Layout gives each button an equal share of the width and the height.
func (r *runControlsRenderer) Layout(size fyne.Size) {
	pad := theme.Padding()
	w := (size.Width - pad*(controlColumns-1)) / controlColumns
	h := (size.Height - pad*float32(r.rows()-1)) / float32(r.rows())
	for i, o := range r.objects {
		col, row := float32(i%controlColumns), float32(i/controlColumns)
		o.Move(fyne.NewPos(col*(w+pad), row*(h+pad)))
		o.Resize(fyne.NewSize(w, h))
	}
}

// MinSize is the grid of the largest button's size.
func (r *runControlsRenderer) MinSize() fyne.Size {
	c, pad := r.cell(), theme.Padding()
	rows := float32(r.rows())
	return fyne.NewSize(c.Width*controlColumns+pad*(controlColumns-1), c.Height*rows+pad*(rows-1))
}

// runNumbers is a pane's live numbers and the schedule of the last run, laid out as a form.
type runNumbers struct {
	widget.BaseWidget
	names, value map[string]*widget.Label
	schedule     *widget.Label // wraps however many lines it takes (see secondaryLabel)
	anneals      bool
	// compact packs the rows and drops the schedule in a compare pane; set before the first render.
	compact bool
}

func newRunNumbers() *runNumbers {
	n := &runNumbers{names: map[string]*widget.Label{}, value: map[string]*widget.Label{}}
	for _, k := range numberKeys {
		n.names[k] = widget.NewLabel(k)
		n.names[k].TextStyle = fyne.TextStyle{Bold: true}
		n.value[k] = widget.NewLabel("–")
		n.value[k].Truncation = fyne.TextTruncateEllipsis
	}
	n.schedule = newHelpLabel("")
	n.schedule.Hide()
	n.ExtendBaseWidget(n)
	return n
}

// Set shows v as the number k; an unchanged text is not redrawn.
func (n *runNumbers) Set(k, v string) {
	if l := n.value[k]; l.Text != v {
		l.SetText(v)
	}
}

// Clear shows every number as unknown and hides the schedule.
func (n *runNumbers) Clear() {
	for _, k := range numberKeys {
		n.Set(k, "–")
	}
	n.SetSchedule("")
}

// SetSchedule shows the schedule line; "" hides it (a compact form never shows it).
func (n *runNumbers) SetSchedule(text string) {
	if n.compact {
		text = ""
	}
	if text = Drawable(text); n.schedule.Text != text {
		n.schedule.SetText(text)
	}
	if showing := n.schedule.Visible(); showing != (text != "") {
		showIf(n.schedule, text != "")
		n.Refresh()
	}
}

// SetAnneals shows the Temperature row when on.
func (n *runNumbers) SetAnneals(on bool) {
	n.anneals = on
	showIf(n.names["Temperature"], on)
	showIf(n.value["Temperature"], on)
	n.Refresh()
}

// CreateRenderer returns the renderer of the form of numbers.
func (n *runNumbers) CreateRenderer() fyne.WidgetRenderer {
	var cells []fyne.CanvasObject
	for _, k := range numberKeys {
		cells = append(cells, n.names[k], n.value[k])
	}
	if n.compact {
		n.schedule.Hide()
		return &tightFormRenderer{objectsRenderer{cells}}
	}
	return newFormNoteRenderer(n, cells, n.schedule)
}

// tightFormRenderer lays out name and value labels as a form whose rows are a line of text apart.
type tightFormRenderer struct{ objectsRenderer }

// pitch is the distance between two rows.
func (r *tightFormRenderer) pitch() float32 {
	return fyne.MeasureText("Mg", theme.TextSize(), fyne.TextStyle{}).Height + theme.Padding()
}

// rows are the shown pairs of cells.
func (r *tightFormRenderer) rows() [][2]fyne.CanvasObject {
	var out [][2]fyne.CanvasObject
	for i := 0; i+1 < len(r.objects); i += 2 {
		if r.objects[i].Visible() {
			out = append(out, [2]fyne.CanvasObject{r.objects[i], r.objects[i+1]})
		}
	}
	return out
}

func (r *tightFormRenderer) nameWidth() float32 {
	var w float32
	for _, row := range r.rows() {
		w = max(w, row[0].MinSize().Width)
	}
	return w
}

func (r *tightFormRenderer) Layout(size fyne.Size) {
	nw, pad, pitch := r.nameWidth(), theme.Padding(), r.pitch()
	for i, row := range r.rows() {
		y := float32(i) * pitch
		h := row[0].MinSize().Height
		row[0].Move(fyne.NewPos(0, y))
		row[0].Resize(fyne.NewSize(nw, h))
		row[1].Move(fyne.NewPos(nw+pad, y))
		row[1].Resize(fyne.NewSize(max(size.Width-nw-pad, 0), h))
	}
}

func (r *tightFormRenderer) MinSize() fyne.Size {
	rows := r.rows()
	if len(rows) == 0 {
		return fyne.Size{}
	}
	h := rows[0][0].MinSize().Height
	return fyne.NewSize(r.nameWidth()+theme.Padding()+rows[0][1].MinSize().Width, float32(len(rows)-1)*r.pitch()+h)
}

// formNoteRenderer lays out a form of name and value cells with a note beneath it when shown.
type formNoteRenderer struct {
	objectsRenderer
	w     fyne.Widget
	form  fyne.Layout
	cells []fyne.CanvasObject
	note  fyne.CanvasObject
}

func newFormNoteRenderer(w fyne.Widget, cells []fyne.CanvasObject, note fyne.CanvasObject) *formNoteRenderer {
	objects := append(append([]fyne.CanvasObject{}, cells...), note)
	return &formNoteRenderer{objectsRenderer: objectsRenderer{objects}, w: w, form: layout.NewFormLayout(), cells: cells, note: note}
}

// Layout places the form's rows, then the note when shown.
func (r *formNoteRenderer) Layout(size fyne.Size) {
	fh := r.form.MinSize(r.cells).Height
	r.form.Layout(r.cells, fyne.NewSize(size.Width, fh))
	if n := r.note; n.Visible() {
		n.Move(fyne.NewPos(0, fh+theme.Padding()))
		n.Resize(fyne.NewSize(size.Width, n.MinSize().Height))
		n.Resize(fyne.NewSize(size.Width, n.MinSize().Height)) // a wrapped text's height follows its width
	}
}

// MinSize is the form's, and the note's height beneath when shown.
func (r *formNoteRenderer) MinSize() fyne.Size {
	m := r.form.MinSize(r.cells)
	if n := r.note; n.Visible() {
		nm := n.MinSize()
		m = fyne.NewSize(max(m.Width, nm.Width), m.Height+theme.Padding()+nm.Height)
	}
	return m
}

func (r *formNoteRenderer) Refresh() {
	r.Layout(r.w.Size())
	r.objectsRenderer.Refresh()
}

// statusLines is the room the status line keeps so the controls below stay put (compactStatusLines in a compare pane).
const (
	statusLines        = 3
	compactStatusLines = 2
)

// runStatus is a pane's progress bar and the wrapping status line beneath it.
type runStatus struct {
	widget.BaseWidget
	bar    *fractionBar
	line   *widget.Label
	failed bool // the line shows a refused run's error
	lines  int  // the lines of room kept for the line
	// fixed keeps the height at lines lines whatever the text, which then scrolls (a compare pane)
	fixed bool
	clip  *container.Scroll
}

func newRunStatus(text string) *runStatus {
	s := &runStatus{bar: newFractionBar(), line: newWrapLabel(text), lines: statusLines}
	s.clip = container.NewVScroll(s.line)
	s.ExtendBaseWidget(s)
	return s
}

// SetText shows text, made drawable, as the status; it clears failed.
func (s *runStatus) SetText(text string) {
	s.failed = false
	if text = Drawable(text); s.line.Text != text {
		s.line.SetText(text)
	}
}

// Fail shows err as the status until the next SetText.
func (s *runStatus) Fail(err error) {
	s.SetText(err.Error())
	s.failed = true
}

// Text returns the status line's text.
func (s *runStatus) Text() string { return s.line.Text }

// CreateRenderer returns the renderer of the bar and the line.
func (s *runStatus) CreateRenderer() fyne.WidgetRenderer {
	return &runStatusRenderer{objectsRenderer{[]fyne.CanvasObject{s.bar, s.clip}}, s}
}

// runStatusRenderer puts the bar on top and the line beneath it.
type runStatusRenderer struct {
	objectsRenderer
	s *runStatus
}

// lineRoom is the height kept for a status line of n lines.
func lineRoom(n int) float32 {
	line := fyne.MeasureText("Mg", theme.TextSize(), fyne.TextStyle{}).Height + theme.LineSpacing()
	return float32(n)*line + 2*theme.InnerPadding()
}

func (r *runStatusRenderer) Layout(size fyne.Size) {
	bh := r.s.bar.MinSize().Height
	r.s.bar.Move(fyne.NewPos(0, 0))
	r.s.bar.Resize(fyne.NewSize(size.Width, bh))
	r.s.clip.Move(fyne.NewPos(0, bh+theme.Padding()))
	r.s.clip.Resize(fyne.NewSize(size.Width, max(size.Height-bh-theme.Padding(), 0)))
}

func (r *runStatusRenderer) MinSize() fyne.Size {
	b, l := r.s.bar.MinSize(), r.s.line.MinSize()
	h := max(l.Height, lineRoom(r.s.lines))
	if r.s.fixed {
		h = lineRoom(r.s.lines)
	}
	return fyne.NewSize(max(b.Width, l.Width), b.Height+theme.Padding()+h)
}

// runDetails is the run's account folded under the status line, hidden while empty.
type runDetails struct {
	*widget.Accordion
	text *widget.Label
}

func newRunDetails() *runDetails {
	text := newWrapLabel("")
	d := &runDetails{Accordion: widget.NewAccordion(widget.NewAccordionItem("Details", text)), text: text}
	d.Hide()
	return d
}

// SetLines shows lines, one a line, made drawable; none hides the expander.
func (d *runDetails) SetLines(lines []string) {
	text := Drawable(strings.Join(lines, "\n"))
	if d.text.Text != text {
		d.text.SetText(text)
	}
	if showing := d.Visible(); showing != (text != "") {
		showIf(d.Accordion, text != "")
	}
}

// Lines returns the lines shown.
func (d *runDetails) Lines() []string {
	if d.text.Text == "" {
		return nil
	}
	return strings.Split(d.text.Text, "\n")
}
