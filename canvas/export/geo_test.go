package export

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver/problem"
)

// latLon is a lat,lon instance as a point list gives it: X longitude, Y
// latitude.
func latLon(lon, lat []float64) *problem.Instance {
	in := problem.NewCoordInstance("geo", problem.GreatCircle, lon, lat, nil)
	return in
}

// TestAntimeridianCluster: islands either side of ±180° are drawn side by
// side, not at the two ends of the map.
func TestAntimeridianCluster(t *testing.T) {
	in := latLon([]float64{178.4, -178.1, 179.9, -179.5}, []float64{-18.1, -14.3, -16.8, -19.0})
	b := BoundsOf(in)
	if b.Width() > 10 {
		t.Fatalf("map %v wide %.1f: the cluster is cut at the antimeridian", b, b.Width())
	}
	x0, _ := WorldXY(in, 0)
	x1, _ := WorldXY(in, 1)
	if x0 >= x1 {
		t.Errorf("178.4°E drawn at %.2f, east of 178.1°W at %.2f", x0, x1)
	}
}

// TestAntimeridianEdgeCut: an edge whose short way crosses the map's edge
// is drawn in two parts, each to the edge, never straight across.
func TestAntimeridianEdgeCut(t *testing.T) {
	// London, Suva and Apia: the widest gap lies between London and Suva,
	// whose short way (178° east) crosses the map's edge
	in := latLon([]float64{-0.13, 178.44, -171.76}, []float64{51.51, -18.14, -13.83})
	if _, _, cut := seamCut(in, 0, 1); !cut {
		t.Fatal("London to Suva is not cut at the map's edge")
	}
	if _, _, cut := seamCut(in, 1, 2); cut {
		t.Error("Suva to Apia, 10° apart, is cut")
	}
	var svg bytes.Buffer
	if err := WriteSVGPath(&svg, in, []int{0, 1, 2}, 400); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(svg.String(), " M"); n != 1 || strings.Contains(svg.String(), " Z") {
		t.Errorf("path %q: want the one seam crossing as a move, no Z", svg.String())
	}
	for _, f := range strings.FieldsFunc(svg.String(), func(r rune) bool { return r == ' ' || r == 'M' || r == 'L' || r == '"' }) {
		var x, y float64
		if n, _ := fmt.Sscanf(f, "%f,%f", &x, &y); n == 2 && (x < 0 || x > 400) {
			t.Errorf("point %s outside the 400-point drawing", f)
		}
	}
	var pdf bytes.Buffer
	if err := Write(&pdf, FormatPDF, SceneFor(in, []int{0, 1, 2}, nil, nil), 400, 0); err != nil {
		t.Fatal(err)
	}
}
