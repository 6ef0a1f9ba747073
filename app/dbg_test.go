package app

import (
	"testing"
	"time"

	fcanvas "fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"
)

func TestDbgSecondary(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	p := ap.Single
	p.SetSettings(fakeSettings(0))
	p.RunFor(100 * time.Millisecond)
	settle(t, p)
	var got string
	for _, o := range test.WidgetRenderer(p.status.RichText).Objects() {
		if tx, ok := o.(*fcanvas.Text); ok {
			got += tx.Text
		}
	}
	t.Logf("status %q drawn %q segs %d", p.Status(), got, len(p.status.Segments))
}
