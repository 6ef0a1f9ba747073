package app

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/data/binding"
	"fyne.io/fyne/v2/widget"
)

// savedField is an entry saved under a Preferences key only while valid and not showing a one-run value (--run).
type savedField struct {
	prefs fyne.Preferences
	key   string
	check func(string) error
	value binding.String // the text on screen, in memory
	entry *widget.Entry
	quiet bool // the change under way is shown, not saved
	// OnChanged, if set, is called after each change with the text's check.
	OnChanged func(text string, err error)
}

// newSavedField reads key from prefs (def when missing or invalid) into an entry check validates.
func newSavedField(prefs fyne.Preferences, key, def string, check func(string) error) *savedField {
	text := prefs.String(key)
	if strings.TrimSpace(text) == "" || check(text) != nil {
		text = def
	}
	f := &savedField{prefs: prefs, key: key, check: check, value: binding.NewString()}
	_ = f.value.Set(text)
	f.entry = widget.NewEntryWithData(f.value)
	f.entry.Validator = check
	f.entry.OnChanged = f.changed
	return f
}

// changed saves a valid text unless it is only shown, and tells OnChanged.
func (f *savedField) changed(text string) {
	err := f.check(text)
	if err == nil && !f.quiet {
		f.save(text)
	}
	if f.OnChanged != nil {
		f.OnChanged(text, err)
	}
}

func (f *savedField) save(text string) {
	if f.prefs.String(f.key) != text {
		f.prefs.SetString(f.key, text)
	}
}

// Text is the text on screen.
func (f *savedField) Text() string {
	s, _ := f.value.Get()
	return s
}

// Valid reports whether the text on screen passes the check.
func (f *savedField) Valid() bool { return f.check(f.Text()) == nil }

// Set shows text and saves it when it is valid.
func (f *savedField) Set(text string) {
	f.entry.SetText(text)
	_ = f.value.Set(text)
	if f.check(text) == nil {
		f.save(text)
	}
}

// Show shows text without saving it: the value of one run.
func (f *savedField) Show(text string) {
	f.quiet = true
	defer func() { f.quiet = false }()
	f.entry.SetText(text)
	_ = f.value.Set(text)
}
