package app

import (
	"bytes"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"

	"github.com/tsplab/tsplab/solver/instfile"
)

// circleText is n points on a circle as a TSPLIB file (tsp) or a point
// list, in the order i·step mod n, scaled by r.
func circleText(n, step int, r float64, tsp bool) string {
	var b strings.Builder
	if tsp {
		fmt.Fprintf(&b, "NAME : c\nTYPE : TSP\nDIMENSION : %d\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n", n)
	} else {
		b.WriteString("id,x,y\n")
	}
	for k := range n {
		i := k * step % n
		x, y := 500+r*math.Cos(2*math.Pi*float64(i)/float64(n)), 500+r*math.Sin(2*math.Pi*float64(i)/float64(n))
		if tsp {
			fmt.Fprintf(&b, "%d %.0f %.0f\n", k+1, x, y)
		} else {
			fmt.Fprintf(&b, "%d,%.0f,%.0f\n", k+1, x, y)
		}
	}
	if tsp {
		b.WriteString("EOF\n")
	}
	return b.String()
}

// writeTourCSV writes the tour of the instance at path that visits its
// cities in the order of their angle on the circle, as tsp solve --out
// writes a tour CSV.
func writeTourCSV(t *testing.T, path, out string, n, step int) {
	t.Helper()
	in, err := instfile.Read(path)
	if err != nil {
		t.Fatal(err)
	}
	tour := make([]int, n)
	for k := range n {
		tour[k*step%n] = k // city k lies at angle k·step mod n
	}
	var b bytes.Buffer
	if err := instfile.WriteTourCSV(&b, in, tour); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Dir(out), filepath.Base(out), b.String())
}

// TestFolderListLeavesOutTourCSVs: the tours written beside a TSPLIB
// file and beside a point list are not listed as instances; a point list
// of other cities is.
func TestFolderListLeavesOutTourCSVs(t *testing.T) {
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	dir := t.TempDir()
	inst := writeFile(t, dir, "inst.tsp", circleText(12, 5, 400, true))
	writeTourCSV(t, inst, filepath.Join(dir, "inst-tour.csv"), 12, 5)
	field := writeFile(t, dir, "field.csv", circleText(12, 7, 300, false))
	writeTourCSV(t, field, filepath.Join(dir, "field-tour.csv"), 12, 7)
	writeFile(t, dir, "other.csv", circleText(12, 5, 200, false)+"13,10,10\n")
	entries, err := ScanFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	slices.Sort(names)
	if want := []string{"field", "inst", "other"}; !slices.Equal(names, want) {
		t.Errorf("the folder lists %v, want %v", names, want)
	}
	ap.Win.Resize(fyne.NewSize(1400, 880))
	ap.ShowFolder(dir)
	pump(t, "the folder's list", func() bool { return len(shownNames(ap)) == 3 && slices.Contains(shownNames(ap), "other") })
	if got := shownNames(ap); slices.Contains(got, "inst-tour") || slices.Contains(got, "field-tour") {
		t.Errorf("the list draws %v", got)
	}
}

// TestOpenTourListsTourFiles: Open tour… lists the files a tour is read
// from, not pictures or other files.
func TestOpenTourListsTourFiles(t *testing.T) {
	for name, want := range map[string]bool{"a.tour": true, "b.csv": true, "c.txt": true, "d.geojson": true, "e.gpx": true,
		"f.json": true, "g.tour.gz": true, "h.png": false, "i.tsp": false, "j.pdf": false} {
		if got := tourFileFilter.Matches(storage.NewFileURI("/x/" + name)); got != want {
			t.Errorf("%s listed %v, want %v", name, got, want)
		}
	}
}
