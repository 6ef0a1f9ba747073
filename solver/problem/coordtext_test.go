package problem

import "testing"

// TestCoordText gives back each coordinate's text as appended.
func TestCoordText(t *testing.T) {
	var ct CoordText
	in := []string{"11.5820", "3.10", "", "1e1", "-0.50", "+7"}
	for _, s := range in {
		ct.Append([]byte(s))
	}
	if !ct.Has(3) || ct.Has(2) {
		t.Fatalf("Has(3) %v, Has(2) %v", ct.Has(3), ct.Has(2))
	}
	for j, want := range in {
		if got := string(ct.AppendTo([]byte("x"), j/2, j%2)); got != "x"+want {
			t.Errorf("point %d column %d: %q, want %q", j/2, j%2, got, "x"+want)
		}
	}
	var none CoordText
	if none.Has(0) != true || none.Has(1) {
		t.Error("an empty CoordText holds the text of no point")
	}
}
