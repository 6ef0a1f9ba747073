package app

import (
	"path/filepath"
	"slices"
	"testing"
)

// TestFolderListAtOnceAfterOpen opens, as tsplab --open does, a point
// list whose folder holds the tour tsp solve --out wrote beside it (ids,
// one a line) and a TSPLIB file whose body is broken: the list the
// window shows first is the list it keeps once the background check has
// read every file whole, but for the broken .tsp, which only its body
// shows. The tour is not described as a point list and then, a moment
// later, as a file that cannot be read: it is not listed at all.
func TestFolderListAtOnceAfterOpen(t *testing.T) {
	dir := t.TempDir()
	holes := writeFile(t, dir, "holes.csv", "x,y\n0,0\n10,0\n10,10\n0,10\n5,15\n")
	writeFile(t, dir, "ho.txt", "1\n2\n3\n5\n4\n")
	bad := writeFile(t, dir, "zz.tsp", "NAME : zz\nTYPE : TSP\nDIMENSION : 100\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 x 1\n")
	ap, loads := newTestApp(t, Options{Open: holes})
	shown := func() []string {
		var s []string
		for _, e := range ap.Entries() {
			if e.Path != bad {
				s = append(s, e.Name+": "+e.Summary())
			}
		}
		return s
	}
	first := shown()
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	if ap.current != holes || filepath.Dir(ap.Entries()[0].Path) != dir {
		t.Fatalf("on screen %q, listing %v", ap.current, first)
	}
	// The check reads the entries in the list's order, the broken
	// 100-city file last.
	pump(t, "the background check to mark zz.tsp", func() bool {
		for _, e := range ap.Entries() {
			if e.Path == bad {
				return e.Err != ""
			}
		}
		return false
	})
	if later := shown(); !slices.Equal(first, later) {
		t.Errorf("the folder list changed after its check:\nfirst %q\nlater %q", first, later)
	}
	for _, e := range ap.Entries() {
		if e.Name == "ho" {
			t.Errorf("the tour ho.txt is listed: %s", e.Summary())
		}
	}
}
