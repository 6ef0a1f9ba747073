package app

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage"

	"github.com/tsplab/tsplab/solver"
)

// writePicture writes a 64×48 PNG, dark on its left half, to dir.
func writePicture(t *testing.T, dir string) string {
	t.Helper()
	img := image.NewGray(image.Rect(0, 0, 64, 48))
	for y := range 48 {
		for x := range 64 {
			img.SetGray(x, y, color.Gray{Y: uint8(40 + 200*(x/32))})
		}
	}
	p := filepath.Join(dir, "portrait.png")
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestPointListsInTheBrowser: the folder browser lists point lists beside
// TSPLIB files (not other files, not pictures); a point list opens in the
// panes, and its lengths show in the file's unit (a unit square's tour is
// about 4, not millions).
func TestPointListsInTheBrowser(t *testing.T) {
	dir := t.TempDir()
	csv := writeFile(t, dir, "stops.csv", "x,y\n0,0\n1,0\n1,1\n0,1\n")
	writeFile(t, dir, "holes.txt", "0 0\n2 0\n2 2\n0 2\n1 3\n")
	writeFile(t, dir, "notes.md", "# not points\n")
	writePicture(t, dir)
	entries, err := ScanFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
	}
	if !slices.Equal(names, []string{"stops", "holes"}) {
		t.Errorf("folder lists %v, want the point lists stops and holes by size", names)
	}
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	ap.OpenFile(csv)
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	in := ap.Single.Instance()
	if in == nil || in.N != 4 || in.ScaleExp <= 0 {
		t.Fatalf("opened %+v, want the 4 points of stops.csv on a decimal scale", in)
	}
	p := ap.Single
	p.SetSettings(fakeSettings(0))
	if err := p.RunFor(100_000_000); err != nil {
		t.Fatal(err)
	}
	settle(t, p)
	_, best := p.Runner.Best()
	if got, want := p.numbers.value["Best"].Text, in.FormatLength(best); got != want || strings.Contains(got, "000000") {
		t.Errorf("best shown %q, want %q (the length %d in the file's unit)", got, want, best)
	}
}

// TestOpenPicture: a picture opens as TSP art of the number of points
// asked for, named after the file; it joins neither the recent files nor
// the folders, which list instance files.
func TestOpenPicture(t *testing.T) {
	pic := writePicture(t, t.TempDir())
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	ap.OpenPicture(pic, 300)
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	if in := ap.Single.Instance(); in == nil || in.N != 300 || in.Name != "portrait" {
		t.Fatalf("picture opened as %+v, want 300 points named portrait", in)
	}
	if slices.Contains(ap.prefs.StringList(PrefRecent), pic) {
		t.Error("the picture joined the recent files")
	}
	if _, err := checkArtPoints("0"); err == nil {
		t.Error("0 points accepted")
	}
	if n, err := checkArtPoints(" 20000 "); err != nil || n != DefaultArtPoints {
		t.Errorf("20000 points: %d, %v", n, err)
	}
	if ext := openExtensions(); !slices.Contains(ext, ".csv") || !slices.Contains(ext, ".png") || !slices.Contains(ext, ".tsp") {
		t.Errorf("the Open dialog offers %v", ext)
	}
}

// TestDropPointsAndPicture: point lists dropped onto the window open as
// TSPLIB files do (the recent files, the first opened); a picture dropped
// asks for its number of points.
func TestDropPointsAndPicture(t *testing.T) {
	dir := t.TempDir()
	csv := writeFile(t, dir, "stops.csv", "x,y\n0,0\n1,0\n1,1\n0,1\n")
	ap, loads := newTestApp(t, Options{})
	waitLoad(t, loads)
	ap.dropped(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI(csv)})
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	if ap.Source() != SourceRecent || ap.Single.Instance().N != 4 {
		t.Errorf("after the drop the list shows %q and the pane %d cities", ap.Source(), ap.Single.Instance().N)
	}
	ap.dropped(fyne.NewPos(10, 10), []fyne.URI{storage.NewFileURI(writePicture(t, dir))})
	if top := ap.Win.Canvas().Overlays().Top(); top == nil {
		t.Error("dropping a picture asked nothing")
	}
}

// TestFolderLeavesOutOtherTexts: a .txt or .csv that is not a point list
// (a table of optima, notes) is not listed; a broken .tsp is, marked.
func TestFolderLeavesOutOtherTexts(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "optima.txt", "berlin52 : 7542\nrd100 : 7910\n")
	writeFile(t, dir, "readme.csv", "name,comment\nthis,is not a point\n")
	writeFile(t, dir, "bad.tsp", "NAME : bad\nTYPE : TSP\nDIMENSION : x\n")
	writeFile(t, dir, "ok.txt", "1 0 0\n2 3 4\n3 6 0\n")
	entries, err := ScanFolder(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name)
		if e.Name == "bad" && e.Err == "" {
			t.Error("bad.tsp not marked")
		}
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"bad", "ok"}) {
		t.Errorf("folder lists %v, want bad and ok", names)
	}
}

// TestOpenSamplePortrait: --open portrait opens the sample picture among
// the bundled samples as TSP art of --points points, without asking, and
// the list shows it as the entry on screen.
func TestOpenSamplePortrait(t *testing.T) {
	ap, loads := newTestApp(t, Options{Open: "portrait", ArtPoints: 400})
	if err := waitLoad(t, loads); err != nil {
		t.Fatal(err)
	}
	if in := ap.Single.Instance(); in == nil || in.N != 400 || in.Name != "portrait" {
		t.Fatalf("--open portrait gave %+v, want 400 points named portrait", in)
	}
	// The picture on screen is listed once, as a picture, and marked.
	n := 0
	for _, e := range ap.Entries() {
		if strings.HasSuffix(e.Path, ".png") {
			n++
			if !e.picture || !strings.HasPrefix(e.Summary(), "picture") {
				t.Errorf("the picture is listed as %q", e.Summary())
			}
		}
	}
	if n != 1 || ap.selected < 0 || !ap.Entries()[ap.selected].picture {
		t.Errorf("the picture is listed %d times, the list marks entry %d", n, ap.selected)
	}
}

// TestLongLengthsAreGrouped: the app writes long lengths with their
// thousands apart (93,809,570 m), short ones as they are.
func TestLongLengthsAreGrouped(t *testing.T) {
	in := &solver.Instance{Name: "m", Metric: solver.GreatCircle}
	if got := in.HumanLength(93809570); !strings.HasPrefix(got, "93,809,570") {
		t.Errorf("lengthText = %q", got)
	}
}
