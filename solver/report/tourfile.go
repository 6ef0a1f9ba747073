package report

import (
	"fmt"
	"io"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/instfile"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// Tour formats WriteTour writes.
const (
	TourTSPLIB  = "tour"    // a TSPLIB TOUR file
	TourIDs     = "txt"     // the cities' ids, one a line
	TourCSV     = "csv"     // the points in tour order with their ids
	TourGeoJSON = "geojson" // a LineString (lat,lon instances)
	TourGPX     = "gpx"     // a route (lat,lon instances)
)

// Cities is the report's tour as 0-based cities.
func (rep Report) Cities() []int {
	t := make([]int, len(rep.Tour))
	for i, id := range rep.Tour {
		t[i] = id - 1
	}
	return t
}

// IsPath reports whether the run's tour is an open path.
func (rep Report) IsPath() bool { return rep.Account.Route != nil }

// PathNote is the comment by which a tour file marks an open path with its fixed ends ("" for a closed tour).
func (rep Report) PathNote() string {
	r := rep.Account.Route
	if r == nil {
		return ""
	}
	return tsplib.PathNote(r.From, r.To)
}

// WriteTour writes the run's tour of in to w in format (TourTSPLIB, TourIDs, TourCSV, TourGeoJSON, TourGPX); an open
// path says so in every format (PathNote) and is not closed, so readers take it back as a path.
func (rep Report) WriteTour(w io.Writer, in *solver.Instance, format string) error {
	tour, note := rep.Cities(), rep.PathNote()
	switch format {
	case TourCSV, TourIDs:
		if note != "" {
			if _, err := io.WriteString(w, "# "+note+"\n"); err != nil {
				return err
			}
		}
		if format == TourCSV {
			return instfile.WriteTourCSV(w, in, tour)
		}
		return instfile.WriteTourIDs(w, in, tour)
	case TourGeoJSON:
		return instfile.WriteTourGeoJSON(w, in, tour, rep.Length, note)
	case TourGPX:
		return instfile.WriteTourGPX(w, in, tour, note)
	}
	comment := fmt.Sprintf("length %s, %s/%s, seed %d, %.2f s", in.FormatLength(rep.LengthScaled), rep.Algorithm, rep.Backend, rep.Seed, rep.ElapsedSeconds)
	if note != "" {
		comment += "\n" + note
	}
	return tsplib.WriteTour(w, in.Name, comment, tour)
}
