package app

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/session"
)

func TestCostMatrixOpensAndSolvesWithoutADrawing(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	file := writeFile(t, t.TempDir(), "roads.csv", "depot,a,b,c,d\n0,4,9,8,3\n4,0,5,9,7\n9,5,0,4,8\n8,9,4,0,6\n3,7,8,6,0\n")
	ap.OpenFile(file)
	if err := waitLoad(t, loads); err != nil {
		t.Fatalf("a cost matrix CSV did not open: %v", err)
	}
	p := ap.Single
	in := p.Instance()
	if in == nil || in.N != 5 || in.HasCoords() {
		t.Fatalf("instance %+v", in)
	}
	found := false
	for _, e := range ap.Entries() {
		found = found || strings.HasSuffix(e.Path, "roads.csv")
	}
	if !found {
		t.Error("the folder list leaves the matrix out")
	}
	// The canvas says why it draws nothing, and that the run goes on.
	var texts []string
	for _, st := range visibleTexts(ap.Win.Canvas().Content()) {
		texts = append(texts, st.text)
	}
	text := strings.Join(texts, " | ")
	if !strings.Contains(text, "no coordinates to draw") || !strings.Contains(text, "solved all the same") {
		t.Errorf("the canvas says %q", text)
	}
	p.SetSettings(fakeSettings(100 * time.Millisecond))
	test.Tap(p.controls.run)
	settle(t, p)
	if st := p.Runner.State(); st != session.Done {
		t.Fatalf("state %v: %s", st, p.Status())
	}
	best, l := p.Runner.Best()
	if len(best) != 5 || solver.TourLength(in, best) != l || p.numbers.value["Best"].Text == "" {
		t.Errorf("best %v of %d, Best shows %q", best, l, p.numbers.value["Best"].Text)
	}
}
