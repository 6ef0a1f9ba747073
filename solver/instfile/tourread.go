package instfile

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/tsplab/tsplab/solver/account"
	"github.com/tsplab/tsplab/solver/problem"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// maxTourJSON bounds a JSON or GPX tour file read whole.
const maxTourJSON = 1 << 30

// structured reports whether head starts with '{' or '<' past blanks and a BOM.
func structured(head []byte) byte {
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xEF\xBB\xBF")), " \t\r\n")
	if len(head) > 0 && (head[0] == '{' || head[0] == '<') {
		return head[0]
	}
	return 0
}

// parseStructuredTour reads a tour from a JSON run report, a GeoJSON LineString or a GPX route or track (kind '{' or '<'),
// and whether it is an open path.
func parseStructuredTour(r io.Reader, filename string, in *problem.Instance, kind byte) ([]int, bool, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxTourJSON+1))
	if err != nil {
		return nil, false, tsplib.Errorf(filename, 0, "%v", tsplib.BareError(err))
	}
	if len(data) > maxTourJSON {
		return nil, false, tsplib.Errorf(filename, 0, "larger than %d bytes", maxTourJSON)
	}
	if kind == '<' {
		return parseGPXTour(data, filename, in)
	}
	var doc tourJSON
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, false, tsplib.Errorf(filename, jsonLine(data, err), "not a JSON report or GeoJSON: %v", err)
	}
	switch {
	case doc.Tour != nil:
		t, err := reportTour(doc.Tour, filename, in)
		return t, doc.Account.Route != nil, err
	case doc.Type == "FeatureCollection":
		for _, f := range doc.Features {
			if f.Geometry != nil && f.Geometry.Type == "LineString" {
				return geoTour(f, filename, in)
			}
		}
		return nil, false, tsplib.Errorf(filename, 0, "a FeatureCollection without a LineString: no tour")
	case doc.Type == "Feature" && doc.Geometry != nil && doc.Geometry.Type == "LineString":
		return geoTour(geoFeature{Geometry: doc.Geometry, Properties: doc.Properties}, filename, in)
	}
	return nil, false, tsplib.Errorf(filename, 0, "JSON without a tour: want a run report (tsp solve --json) or a GeoJSON LineString")
}

// jsonLine is the line of a JSON syntax error (0 when unknown).
func jsonLine(data []byte, err error) int {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	off := int64(-1)
	switch {
	case errors.As(err, &se):
		off = se.Offset
	case errors.As(err, &te):
		off = te.Offset
	}
	if off < 0 || off > int64(len(data)) {
		return 0
	}
	return 1 + bytes.Count(data[:off], []byte("\n"))
}

// tourJSON is what the JSON reader looks at of a report or GeoJSON file.
type tourJSON struct {
	Type       string       `json:"type"`
	Tour       []int64      `json:"tour"`
	Features   []geoFeature `json:"features"`
	Geometry   *geoGeometry `json:"geometry"`
	Properties *geoProps    `json:"properties"`
	// Account is a run report's: its route says the tour is a path.
	Account struct {
		Route *account.RouteAccount `json:"route"`
	} `json:"account"`
}

type geoFeature struct {
	Geometry   *geoGeometry `json:"geometry"`
	Properties *geoProps    `json:"properties"`
}

type geoGeometry struct {
	Type        string       `json:"type"`
	Coordinates [][2]float64 `json:"coordinates"`
}

// geoProps are the properties TSP Lab writes on a tour's LineString.
type geoProps struct {
	IDs []json.RawMessage `json:"ids"`
	// Path marks the LineString as an open path.
	Path bool `json:"path"`
}

// reportTour is the tour of a run report: 1-based city numbers.
func reportTour(tour []int64, filename string, in *problem.Instance) ([]int, error) {
	cities := make([]int, len(tour))
	for k, v := range tour {
		if v < 1 || v > int64(in.N) {
			return nil, tsplib.Errorf(filename, 0, "tour entry %d is %d: the report's tour numbers the cities 1..%d", k+1, v, in.N)
		}
		cities[k] = int(v - 1)
	}
	return wholeTour(cities, filename, in)
}

// geoTour is a LineString's tour: its ids, else its coordinates.
func geoTour(f geoFeature, filename string, in *problem.Instance) ([]int, bool, error) {
	t, err := geoCities(f, filename, in)
	return t, f.Properties != nil && f.Properties.Path, err
}

// geoCities are the cities of a GeoJSON LineString (see geoTour).
func geoCities(f geoFeature, filename string, in *problem.Instance) ([]int, error) {
	if f.Properties != nil && len(f.Properties.IDs) > 0 {
		labels := make([]string, len(f.Properties.IDs))
		for i, raw := range f.Properties.IDs {
			var s string
			if json.Unmarshal(raw, &s) != nil {
				s = string(bytes.TrimSpace(raw))
			}
			labels[i] = s
		}
		return labelledTour(labels, filename, in)
	}
	pts := f.Geometry.Coordinates
	keys := make([][2]float64, len(pts))
	copy(keys, pts)
	return coordTour(keys, filename, in)
}

// gpxDoc is what the GPX reader looks at: routes and tracks.
type gpxDoc struct {
	Routes []struct {
		Desc   string     `xml:"desc"`
		Points []gpxPoint `xml:"rtept"`
	} `xml:"rte"`
	Tracks []struct {
		Segments []struct {
			Points []gpxPoint `xml:"trkpt"`
		} `xml:"trkseg"`
	} `xml:"trk"`
}

type gpxPoint struct {
	Lat  float64 `xml:"lat,attr"`
	Lon  float64 `xml:"lon,attr"`
	Name string  `xml:"name"`
}

// parseGPXTour reads a GPX file's first route, else track, by names or coordinates; a PathNote description is a path.
func parseGPXTour(data []byte, filename string, in *problem.Instance) ([]int, bool, error) {
	t, desc, err := gpxCities(data, filename, in)
	return t, tsplib.IsPathNote(desc), err
}

// gpxCities are a GPX file's first route's (else track's) cities and description.
func gpxCities(data []byte, filename string, in *problem.Instance) ([]int, string, error) {
	var doc gpxDoc
	if err := xml.Unmarshal(data, &doc); err != nil {
		line := 0
		var se *xml.SyntaxError
		if errors.As(err, &se) {
			line = se.Line
		}
		return nil, "", tsplib.Errorf(filename, line, "not GPX: %v", err)
	}
	var pts []gpxPoint
	desc := ""
	switch {
	case len(doc.Routes) > 0:
		pts, desc = doc.Routes[0].Points, doc.Routes[0].Desc
	case len(doc.Tracks) > 0:
		for _, s := range doc.Tracks[0].Segments {
			pts = append(pts, s.Points...)
		}
	}
	if len(pts) == 0 {
		return nil, "", tsplib.Errorf(filename, 0, "GPX without a route or track: no tour")
	}
	labels := make([]string, len(pts))
	keys := make([][2]float64, len(pts))
	named := true
	for i, p := range pts {
		labels[i], keys[i] = p.Name, [2]float64{p.Lon, p.Lat}
		named = named && p.Name != ""
	}
	var t []int
	var err error
	if named {
		t, err = labelledTour(labels, filename, in)
	} else {
		t, err = coordTour(keys, filename, in)
	}
	return t, desc, err
}

// labelledTour maps labels (Instance.CityLabel) to cities, a closing repeat of the first dropped.
func labelledTour(labels []string, filename string, in *problem.Instance) ([]int, error) {
	if len(labels) == in.N+1 && labels[0] == labels[in.N] {
		labels = labels[:in.N]
	}
	city := make(map[string]int, in.N)
	for i := range in.N {
		city[in.CityLabel(i)] = i
	}
	cities := make([]int, len(labels))
	for k, l := range labels {
		c, ok := city[l]
		if !ok {
			return nil, tsplib.Errorf(filename, 0, "%s is not a city of %s (entry %d)", tsplib.Quote(l), in.Name, k+1)
		}
		cities[k] = c
	}
	return wholeTour(cities, filename, in)
}

// coordTour maps points as the file wrote them to the cities there, a closing repeat of the first dropped.
func coordTour(keys [][2]float64, filename string, in *problem.Instance) ([]int, error) {
	if len(keys) == in.N+1 && keys[0] == keys[in.N] {
		keys = keys[:in.N]
	}
	at, err := citiesAt(in)
	if err != nil {
		return nil, tsplib.Errorf(filename, 0, "%v", err)
	}
	cities := make([]int, len(keys))
	for k, p := range keys {
		cs := at[p]
		if len(cs) == 0 {
			return nil, tsplib.Errorf(filename, 0, "point %d (%s, %s) is not a city of %s", k+1, fmtCost(p[0]), fmtCost(p[1]), in.Name)
		}
		cities[k], at[p] = cs[0], cs[1:]
	}
	return wholeTour(cities, filename, in)
}

// citiesAt maps each point of in as written to its cities.
func citiesAt(in *problem.Instance) (map[[2]float64][]int, error) {
	x, y := in.X, in.Y
	if p := in.Points; p != nil && in.Metric != problem.GreatCircle {
		x, y = p.Cols[0], p.Cols[1]
	}
	if len(x) != in.N || len(y) != in.N {
		return nil, fmt.Errorf("%s has no coordinates to match a tour's points with: name its cities by id", in.Name)
	}
	at := make(map[[2]float64][]int, in.N)
	for i := range in.N {
		k := [2]float64{x[i], y[i]}
		at[k] = append(at[k], i)
	}
	return at, nil
}

// wholeTour checks that cities name each city of in once.
func wholeTour(cities []int, filename string, in *problem.Instance) ([]int, error) {
	seen := make([]bool, in.N)
	for k, c := range cities {
		if seen[c] {
			return nil, tsplib.Errorf(filename, 0, "city %s given twice (entry %d)", tsplib.Quote(in.CityLabel(c)), k+1)
		}
		seen[c] = true
	}
	if len(cities) != in.N {
		for c, ok := range seen {
			if !ok {
				return nil, tsplib.Errorf(filename, 0, "%d of the %d cities given: city %s is missing", len(cities), in.N, tsplib.Quote(in.CityLabel(c)))
			}
		}
	}
	return cities, nil
}

// pointKey is the point a tour CSV line gives under coordinate columns c.
func pointKey(fields [][]byte, c columns) ([2]float64, error) {
	var v [2]float64
	for k, col := range c.coord {
		if col >= len(fields) {
			return v, fmt.Errorf("%d fields, the header names %d", len(fields), c.width)
		}
		f, err := strconv.ParseFloat(string(fields[col]), 64)
		if err != nil {
			return v, fmt.Errorf("coordinate %s is not a number", tsplib.Quote(string(fields[col])))
		}
		v[k] = f
	}
	if c.latLon && c.latCol == 0 {
		v[0], v[1] = v[1], v[0]
	}
	return v, nil
}
