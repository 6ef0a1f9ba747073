package main

import (
	"testing"

	"github.com/tsplab/tsplab/app"
	"github.com/tsplab/tsplab/solver"
)

// TestEngineTextsHaveGlyphs: every text of the registry that the app
// shows (each engine's description and why it cannot run, each option's
// label, doc, default, choices and range, and the error a value out of
// range gives) has its glyphs in the app's font once made drawable, as
// the app shows it.
func TestEngineTextsHaveGlyphs(t *testing.T) {
	var texts []string
	engines := solver.Engines()
	if len(engines) < 10 {
		t.Fatalf("only %d engines registered", len(engines))
	}
	for _, e := range engines {
		texts = append(texts, e.Name(), e.Describe())
		if err := e.Available(); err != nil {
			texts = append(texts, err.Error())
		}
		for _, o := range solver.OptionsFor(e.Name(), e.Backend()) {
			texts = append(texts, app.OptionLabel(o.Name, e.Backend()), o.Doc, o.Default, o.Auto, o.Range())
			texts = append(texts, o.Choices...)
			var p solver.Params
			if err := p.Set(o.Name + "=-1e300"); err != nil {
				texts = append(texts, err.Error())
			}
		}
	}
	for _, s := range texts {
		miss, err := app.MissingGlyphs(app.Drawable(s))
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range miss {
			t.Errorf("the app's font has no glyph for %q (U+%04X) in %q", r, r, s)
		}
	}
}
