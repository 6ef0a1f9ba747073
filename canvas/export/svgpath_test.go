package export

import (
	"bytes"
	"encoding/xml"
	"io"
	"strings"
	"testing"

	"github.com/tsplab/tsplab/solver/problem"
)

// TestWriteSVGPath checks the plotter drawing: well-formed XML whose only
// element inside <svg> is one <path> with M, L and Z, visiting the cities
// in tour order.
func TestWriteSVGPath(t *testing.T) {
	in := problem.NewCoordInstance("sq", problem.Euc2D, []float64{0, 10, 10, 0}, []float64{0, 0, 10, 10}, nil)
	var b bytes.Buffer
	if err := WriteSVGPath(&b, in, []int{0, 1, 2, 3}, 100); err != nil {
		t.Fatal(err)
	}
	dec := xml.NewDecoder(&b)
	var elems []string
	var d string
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not XML: %v", err)
		}
		if se, ok := tok.(xml.StartElement); ok {
			elems = append(elems, se.Name.Local)
			for _, a := range se.Attr {
				if a.Name.Local == "d" {
					d = a.Value
				}
			}
		}
	}
	if strings.Join(elems, ",") != "svg,path" {
		t.Fatalf("elements %v, want svg and one path", elems)
	}
	// Margin 2, scale 9.6: y flips so the first city is bottom left.
	want := "M2.00,98.00 L98.00,98.00 98.00,2.00 2.00,2.00 Z"
	if d != want {
		t.Fatalf("d = %q, want %q", d, want)
	}
	if err := WriteSVGPath(io.Discard, in, []int{0, 1, 2}, 100); err == nil {
		t.Fatal("a partial tour was drawn")
	}
	if err := WriteSVGPath(io.Discard, problem.NewMatrixInstance("m", 2, make([]int32, 4)), []int{0, 1}, 100); err == nil {
		t.Fatal("an instance without coordinates was drawn")
	}
}
