// Package canvas draws tours: the Fyne widget that shows a run live, the
// rasteriser behind it, and export to PNG, SVG and PDF.
package canvas

import "github.com/tsplab/tsplab/solver"

// Scene is what a picture of a tour shows.
type Scene struct {
	Instance *solver.Instance
	Tour     []int  // tour to draw (0-based); nil draws the cities alone
	Best     []int  // optional second tour (the best so far), drawn beneath Tour
	Optimal  []int  // optional optimal tour overlay, drawn dashed/faint
	Title    string // e.g. "a280 — 2587 (0.31% above 2579)"
}
