package main

import (
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver/instfile"
)

// roundTripKinds are the kinds of instance a user opens, each as a file
// of 12 cities: TSPLIB coordinates, a TSPLIB EXPLICIT matrix, point lists
// with and without ids, named lat,lon points and a named cost matrix.
func roundTripKinds() map[string]string {
	r := rand.New(rand.NewPCG(5, 6))
	const n = 12
	var tsp, xy, ids, ll, expl, named strings.Builder
	fmt.Fprintf(&tsp, "NAME : c\nTYPE : TSP\nDIMENSION : %d\nEDGE_WEIGHT_TYPE : EUC_2D\nNODE_COORD_SECTION\n", n)
	xy.WriteString("x,y\n")
	ids.WriteString("id x y\n")
	ll.WriteString("name,lat,lon,population\n")
	x, y := make([]float64, n), make([]float64, n)
	for i := range n {
		x[i], y[i] = float64(r.IntN(1000)), float64(r.IntN(1000))
		fmt.Fprintf(&tsp, "%d %g %g\n", i+1, x[i], y[i])
		fmt.Fprintf(&xy, "%g,%g\n", x[i]/10, y[i]/10)
		fmt.Fprintf(&ids, "%d %g %g\n", 100+7*i, x[i], y[i])
		// around the antimeridian, names with commas
		fmt.Fprintf(&ll, "\"Town %d, Isle\",%g,%g,%d\n", i, -30+y[i]/50, 170+x[i]/50-(x[i]/25)*float64(i%2), 1000*i)
	}
	tsp.WriteString("EOF\n")
	fmt.Fprintf(&expl, "NAME : m\nTYPE : TSP\nDIMENSION : %d\nEDGE_WEIGHT_TYPE : EXPLICIT\nEDGE_WEIGHT_FORMAT : FULL_MATRIX\nEDGE_WEIGHT_SECTION\n", n)
	for i := range n {
		named.WriteString(fmt.Sprintf(",City %c", 'A'+i))
	}
	named.WriteString("\n")
	for i := range n {
		fmt.Fprintf(&named, "City %c", 'A'+i)
		for j := range n {
			d := int(0.5 + dist(x[i], y[i], x[j], y[j]))
			fmt.Fprintf(&expl, " %d", d)
			fmt.Fprintf(&named, ",%d", d)
		}
		expl.WriteString("\n")
		named.WriteString("\n")
	}
	expl.WriteString("EOF\n")
	return map[string]string{
		"coords.tsp": tsp.String(), "explicit.tsp": expl.String(), "points.csv": xy.String(),
		"ids.txt": ids.String(), "latlon.csv": ll.String(), "named.csv": named.String(),
	}
}

func dist(x1, y1, x2, y2 float64) float64 {
	dx, dy := x1-x2, y1-y2
	return math.Sqrt(dx*dx + dy*dy)
}

// TestEveryOutputReadBack writes every tour format tsp solve writes for
// every kind of instance and reads each back with tsp eval, --start and
// tsp render --tour: the same tour, the same length.
func TestEveryOutputReadBack(t *testing.T) {
	dir := t.TempDir()
	for file, data := range roundTripKinds() {
		inst := writeTestFile(t, dir, file, data)
		in, err := instfile.Load(inst)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		latlon := instfile.IsLatLon(in)
		report := filepath.Join(dir, file+".tour.json")
		formats := []string{".tour", ".csv", ".txt"}
		if latlon {
			formats = append(formats, ".geojson", ".gpx")
		}
		var want []int
		for _, ext := range formats {
			out, rep := filepath.Join(dir, file+ext), filepath.Join(dir, file+ext+".json")
			args := []string{"solve", inst, "--backend", "cpu", "--seed", "3", "--time", "0.2", "--out", out, "--json", rep, "--quiet"}
			if code, _, stderr := tsp(t, args...); code != 0 {
				t.Fatalf("%s %s: exit %d: %s", file, ext, code, stderr)
			}
			want = reportTour(t, rep)
			if got, err := instfile.ReadStartTour(out, in); err != nil || !slices.Equal(got, want) {
				t.Errorf("%s read back: %v (tour %v, want %v)", filepath.Base(out), err, got, want)
			}
		}
		// a plain list of the ids (names) as the file gives them, a line each
		var ids strings.Builder
		for _, c := range want {
			ids.WriteString(in.CityLabel(c) + "\n")
		}
		idList := writeTestFile(t, dir, file+".ids", ids.String())
		for _, tf := range append(pathsOf(dir, file, formats), report, idList) {
			name := filepath.Base(tf)
			if tf == report || tf == idList {
				w := want
				if tf == report {
					w = reportTour(t, report)
				}
				if got, err := instfile.ReadStartTour(tf, in); err != nil || !slices.Equal(got, w) {
					t.Errorf("%s read back: %v (tour %v, want %v)", name, err, got, w)
				}
			}
			if code, _, stderr := tsp(t, "eval", inst, tf); code != 0 {
				t.Errorf("tsp eval %s: exit %d: %s", name, code, stderr)
			}
			if code, _, stderr := tsp(t, "solve", inst, "--start", tf, "--time", "0.05", "--quiet"); code != 0 {
				t.Errorf("tsp solve --start %s: exit %d: %s", name, code, stderr)
			}
			if !in.HasCoords() {
				continue
			}
			if code, _, stderr := tsp(t, "render", inst, "--tour", tf, "--out", filepath.Join(dir, "r.svg")); code != 0 {
				t.Errorf("tsp render --tour %s: exit %d: %s", name, code, stderr)
			}
		}
	}
}

func pathsOf(dir, file string, exts []string) []string {
	var out []string
	for _, e := range exts {
		out = append(out, filepath.Join(dir, file+e))
	}
	return out
}

// reportTour is the tour of a JSON report, as 0-based cities.
func reportTour(t *testing.T, path string) []int {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Tour []int `json:"tour"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	for i := range rep.Tour {
		rep.Tour[i]--
	}
	return rep.Tour
}
