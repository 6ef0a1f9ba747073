package app

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tsplab/tsplab/canvas/export"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/session"
)

// checkGlyphs fails t for each character of s the app's font cannot draw.
func checkGlyphs(t *testing.T, where, s string) {
	t.Helper()
	miss, err := MissingGlyphs(s)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range miss {
		t.Errorf("%s: the font has no glyph for %q (U+%04X) in %q", where, r, r, s)
	}
}

// TestMissingGlyphsFindsTheArrow: the check sees what the schedule line
// showed as "�", and Drawable's stand-ins are drawn.
func TestMissingGlyphsFindsTheArrow(t *testing.T) {
	s := "alpha 0.92244 \u2192 0.95849, gap \u2264 1 %"
	miss, err := MissingGlyphs(s)
	if err != nil || len(miss) != 2 || miss[0] != '\u2192' || miss[1] != '\u2264' {
		t.Fatalf("MissingGlyphs(%q) = %q, %v; want the arrow and the sign", s, miss, err)
	}
	if got := Drawable(s); got != "alpha 0.92244 -> 0.95849, gap <= 1 %" {
		t.Errorf("Drawable: %q", got)
	}
	checkGlyphs(t, "Drawable", Drawable("\u2192\u2190\u2264\u2265\u2248\u2212"))
	checkGlyphs(t, "kept", "· – — … × µ é ü ñ ö å")
}

// TestAppStringsHaveGlyphs: every string literal in the app's source,
// which is where all of its own text comes from, has its glyphs in the
// bundled font (glyphs.go's stand-ins excepted: they name the missing ones).
func TestAppStringsHaveGlyphs(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	n := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "glyphs.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(nd ast.Node) bool {
			lit, ok := nd.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			s, err := strconv.Unquote(lit.Value)
			if err != nil {
				t.Fatalf("%s: %v", fset.Position(lit.Pos()), err)
			}
			n++
			checkGlyphs(t, fset.Position(lit.Pos()).String(), s)
			return true
		})
	}
	if n < 100 {
		t.Errorf("only %d string literals found in the app's source", n)
	}
}

// TestShownFormatsHaveGlyphs: the lines the app builds from a run's
// numbers and the solver's texts (status, schedule, compare summary) have
// their glyphs once made drawable.
func TestShownFormatsHaveGlyphs(t *testing.T) {
	sched := &solver.ScheduleRun{Fitted: true, LamAlpha: 0.92, Alpha0: 0.92244, Alpha: 0.95849, Steps: 1220, Sweeps: 10, T0: 1e4, TLast: 0.1, Descent: 12 * time.Millisecond}
	checkGlyphs(t, "schedule", Drawable("Schedule: "+sched.String()))
	sched.Fitted = false
	checkGlyphs(t, "schedule", Drawable("Schedule: "+sched.String()))
	for _, ph := range []solver.Phase{solver.PhaseReading, solver.PhaseNeighbours, solver.PhaseStart, solver.PhaseSetup,
		solver.PhaseDescent, solver.PhaseSearch, solver.PhasePolish, solver.PhaseBound} {
		for _, pp := range []float64{-1, 0.42} {
			pr := session.Progress{State: session.Running, Engine: "pspm/gpu", Phase: ph, PhaseProgress: pp, Note: "windows of \u2264512 cities"}
			checkGlyphs(t, "status", Drawable(StatusLine(pr, solver.StopOptimum)))
		}
	}
	curve := []export.CurvePoint{{Elapsed: time.Second, Best: 1200}, {Elapsed: 2 * time.Second, Best: 1004}}
	c := PaneSummary{Label: "A pspm/cpu", Backend: solver.BackendCPU, Best: 1200, Reference: 1000, MovesPerS: 3e7, Curve: curve[:1]}
	g := PaneSummary{Label: "B pspm/gpu", Backend: solver.BackendGPU, Best: 1004, Reference: 1000, Bound: true, MovesPerS: 2e11, Curve: curve}
	for _, s := range []string{CompareSummary(c, g), CompareSummary(PaneSummary{Label: "A x/cpu"}, PaneSummary{Label: "B x/gpu"}),
		CompareSummary(PaneSummary{Label: "A x/cpu", Best: 5}, PaneSummary{Label: "B x/cpu", Backend: solver.BackendCPU, Best: 6}),
		FormatCount(2.03e11), boundGap(1004, 1000)} {
		checkGlyphs(t, "summary", Drawable(s))
	}
}
