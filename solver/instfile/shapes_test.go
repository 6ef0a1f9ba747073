package instfile

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// TestCSVShapes reads point lists as people write them: quoted names
// holding commas, ';' with decimal commas, extra columns picked out by
// the header's names.
func TestCSVShapes(t *testing.T) {
	cases := []struct {
		name, data string
		labels     string
		latlon     bool
		x1         float64 // the second city's first coordinate as written
	}{
		{"quoted commas", "name,lat,lon\n\"New York, NY\",40.71,-74.01\n\"Boston, MA\",42.36,-71.06\nChicago,41.88,-87.63\n", "[New York, NY|Boston, MA|Chicago]", true, 42.36},
		{"doubled quote", "name,lat,lon\n\"The \"\"Big\"\" Apple\",40.71,-74.01\nB,42.36,-71.06\nC,41.88,-87.63\n", "[The \"Big\" Apple|B|C]", true, 42.36},
		{"semicolons", "name;lat;lon\nParis;48,8566;2,3522\nBerlin;52,52;13,405\nRome;41,9;12,5\n", "[Paris|Berlin|Rome]", true, 52.52},
		{"extra columns", "country,population,city,longitude,latitude\nFR,2100000,Paris,2.35,48.86\nDE,3600000,Berlin,13.4,52.52\nIT,2800000,Rome,12.5,41.9\n", "[Paris|Berlin|Rome]", true, 13.4},
		{"x y among others", "id,weight,x,y,note\n1,5,0,0,a\n2,6,3,4,b\n3,7,6,0,c\n", "[1|2|3]", false, 3},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			in, err := ParsePoints(strings.NewReader(c.data), "p.csv")
			if err != nil {
				t.Fatal(err)
			}
			var labels []string
			for i := range in.N {
				labels = append(labels, in.CityLabel(i))
			}
			if got := "[" + strings.Join(labels, "|") + "]"; got != c.labels {
				t.Errorf("cities %s, want %s", got, c.labels)
			}
			if (in.Metric == problem.GreatCircle) != c.latlon || in.Points.Cols[0][1] != c.x1 {
				t.Errorf("metric %v, second city's first coordinate %v; want lat,lon %v and %v", in.Metric, in.Points.Cols[0][1], c.latlon, c.x1)
			}
		})
	}
}

// TestCSVShapesErrors checks that the errors of those shapes stay one
// line naming the file and line.
func TestCSVShapesErrors(t *testing.T) {
	cases := []struct{ data, want string }{
		{"name,lat,lon,pop\n\"A, B\",1,2,3\nC,1\n", "p.csv:3: 2 fields, want 4"},
		{"name;lat;lon\nA;1,5;x\n", "p.csv:2: coordinate \"x\" is not a number"},
		{"name,population\nA,5\n", "p.csv:1: header \"name,population\": want columns x and y"},
	}
	for _, c := range cases {
		_, err := ParsePoints(strings.NewReader(c.data), "p.csv")
		if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%q: error %v, want one line starting %q", c.data, err, c.want)
		}
	}
}

// TestGeoJSONAndGPX checks that the GeoJSON output is a FeatureCollection
// holding a LineString of [lon, lat] pairs, closed, that the GPX is a
// route of the cities, and that both read back as the tour.
func TestGeoJSONAndGPX(t *testing.T) {
	in, err := ParsePoints(strings.NewReader("name,lat,lon\n\"Suva, Fiji\",-18.14,178.44\nApia,-13.83,-171.76\nNukualofa,-21.14,-175.2\nPort Vila,-17.73,168.32\n"), "pacific.csv")
	if err != nil {
		t.Fatal(err)
	}
	tour := []int{2, 0, 3, 1}
	var gj bytes.Buffer
	if err := WriteTourGeoJSON(&gj, in, tour, 123.5, ""); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Type     string `json:"type"`
		Features []struct {
			Type     string `json:"type"`
			Geometry struct {
				Type        string      `json:"type"`
				Coordinates [][]float64 `json:"coordinates"`
			} `json:"geometry"`
			Properties map[string]any `json:"properties"`
		} `json:"features"`
	}
	if err := json.Unmarshal(gj.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Type != "FeatureCollection" || len(doc.Features) != 1 || doc.Features[0].Type != "Feature" || doc.Features[0].Geometry.Type != "LineString" {
		t.Fatalf("not a FeatureCollection holding a LineString feature: %s", gj.String())
	}
	coords := doc.Features[0].Geometry.Coordinates
	if len(coords) != len(tour)+1 || fmt.Sprint(coords[0]) != fmt.Sprint(coords[len(tour)]) {
		t.Fatalf("coordinates %v: want the tour closed", coords)
	}
	for k, c := range tour {
		if len(coords[k]) != 2 || coords[k][0] != in.X[c] || coords[k][1] != in.Y[c] || coords[k][0] < -180 || coords[k][0] > 180 || coords[k][1] < -90 || coords[k][1] > 90 {
			t.Errorf("position %d: %v, want [lon %v, lat %v]", k, coords[k], in.X[c], in.Y[c])
		}
	}
	var gpx bytes.Buffer
	if err := WriteTourGPX(&gpx, in, tour, ""); err != nil {
		t.Fatal(err)
	}
	if err := xml.Unmarshal(gpx.Bytes(), new(struct{})); err != nil {
		t.Fatalf("GPX is not XML: %v", err)
	}
	for name, data := range map[string][]byte{"t.geojson": gj.Bytes(), "t.gpx": gpx.Bytes()} {
		got, _, err := ParseRoute(bytes.NewReader(data), name, in)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(tour) {
			t.Errorf("%s read back: %v %v", name, got, err)
		}
	}
	xy, _ := ParsePoints(strings.NewReader("0 0\n1 1\n2 0\n"), "xy.txt")
	if err := WriteTourGeoJSON(&gj, xy, []int{0, 1, 2}, 1, ""); err != ErrNotLatLon {
		t.Errorf("GeoJSON of a plane instance: %v", err)
	}
}

// FuzzParseRoute reads hostile tour files of every format against a
// named lat,lon instance: a valid tour or a one-line *Error naming the
// file, never a panic.
func FuzzParseRoute(f *testing.F) {
	in, err := ParsePoints(strings.NewReader("name,lat,lon\nA,1,2\nB,3,4\n\"C, D\",5,6\n"), "in.csv")
	if err != nil {
		f.Fatal(err)
	}
	for _, s := range []string{
		"A\nB\nC, D\n", "name,lat,lon\nB,3,4\nA,1,2\n\"C, D\",5,6\n", "lat,lon\n5,6\n1,2\n3,4\n",
		`{"tour":[2,1,3]}`, `{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[2,1],[4,3],[6,5],[2,1]]},"properties":{"ids":["A","B","C, D"]}}]}`,
		`<gpx><rte><rtept lat="1" lon="2"><name>A</name></rtept><rtept lat="5" lon="6"></rtept><rtept lat="3" lon="4"/></rte></gpx>`,
		"TOUR_SECTION\n1\n2\n3\n-1\n", "{", "<", `{"tour":[1,1,1]}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		tour, _, err := ParseRoute(bytes.NewReader(data), "t.txt", in)
		if err != nil {
			var e *tsplib.Error
			if !errors.As(err, &e) || e.File != "t.txt" || strings.ContainsAny(err.Error(), "\r\n") {
				t.Fatalf("error %q (%T) is not a one-line *Error for t.txt", err, err)
			}
			return
		}
		if err := problem.ValidateTour(tour, in.N); err != nil {
			t.Fatalf("tour %v: %v", tour, err)
		}
	})
}
