package instfile

import (
	"bufio"
	"encoding/json"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/tsplab/tsplab/solver/problem"
)

// ErrNotLatLon is a GeoJSON or GPX tour's error for an instance not at lat,lon.
var ErrNotLatLon = errors.New("GeoJSON and GPX hold latitudes and longitudes: the instance is not a lat,lon point list")

// IsLatLon reports whether in's cities are at latitudes and longitudes.
func IsLatLon(in *problem.Instance) bool {
	return in.Metric == problem.GreatCircle && len(in.X) == in.N && len(in.Y) == in.N
}

// WriteTourGeoJSON writes tour as a GeoJSON (RFC 7946) LineString of [lon, lat] with the name, length in metres and
// ids; an open path (pathNote its description) is not closed and has "path": true. in must be IsLatLon.
func WriteTourGeoJSON(w io.Writer, in *problem.Instance, tour []int, length float64, pathNote string) error {
	if !IsLatLon(in) {
		return ErrNotLatLon
	}
	if err := problem.ValidateTour(tour, in.N); err != nil {
		return fmt.Errorf("GeoJSON %s: %w", in.Name, err)
	}
	coords := make([][2]float64, 0, len(tour)+1)
	ids := make([]string, len(tour))
	for k, c := range tour {
		coords = append(coords, [2]float64{in.X[c], in.Y[c]})
		ids[k] = in.CityLabel(c)
	}
	props := map[string]any{"name": in.Name, "length_m": length, "ids": ids}
	if pathNote != "" {
		props["path"], props["description"] = true, pathNote
	} else if len(tour) > 0 {
		coords = append(coords, coords[0])
	}
	doc := map[string]any{
		"type": "FeatureCollection",
		"features": []any{map[string]any{
			"type":       "Feature",
			"geometry":   map[string]any{"type": "LineString", "coordinates": coords},
			"properties": props,
		}},
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := json.NewEncoder(bw).Encode(doc); err != nil {
		return err
	}
	return bw.Flush()
}

// WriteTourGPX writes tour as a GPX 1.1 route named by ids, closed unless an open path (pathNote its description).
// in must be IsLatLon.
func WriteTourGPX(w io.Writer, in *problem.Instance, tour []int, pathNote string) error {
	if !IsLatLon(in) {
		return ErrNotLatLon
	}
	if err := problem.ValidateTour(tour, in.N); err != nil {
		return fmt.Errorf("GPX %s: %w", in.Name, err)
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	bw.WriteString(xml.Header)
	bw.WriteString(`<gpx version="1.1" creator="TSP Lab" xmlns="http://www.topografix.com/GPX/1/1">` + "\n<rte><name>")
	xml.EscapeText(bw, []byte(in.Name))
	bw.WriteString("</name>\n")
	if pathNote != "" {
		bw.WriteString("<desc>")
		xml.EscapeText(bw, []byte(pathNote))
		bw.WriteString("</desc>\n")
	}
	point := func(c int) {
		fmt.Fprintf(bw, `<rtept lat="%s" lon="%s"><name>`, fmtCoord(in.Y[c]), fmtCoord(in.X[c]))
		xml.EscapeText(bw, []byte(in.CityLabel(c)))
		bw.WriteString("</name></rtept>\n")
	}
	for _, c := range tour {
		point(c)
	}
	if len(tour) > 0 && pathNote == "" {
		point(tour[0])
	}
	bw.WriteString("</rte>\n</gpx>\n")
	return bw.Flush()
}

// fmtCoord writes a coordinate exactly, as the file gave it.
func fmtCoord(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
