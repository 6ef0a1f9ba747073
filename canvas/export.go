package canvas

import (
	"io"

	"github.com/tsplab/tsplab/canvas/export"
)

// Export draws s as a width × height picture (pixels for PNG, points for
// SVG and PDF) in format "png", "svg" or "pdf" and writes it to w: the
// optimal tour faint, the best tour beneath the tour, the tour as a closed
// polyline, the cities as dots (up to export.DotLimit cities) and the
// title at the top, the instance's aspect ratio kept. height <= 0 takes the
// aspect ratio's height. An instance without coordinates is an error. The
// drawing lives in package canvas/export, which the command line uses
// without linking Fyne.
func Export(w io.Writer, format string, s Scene, width, height int) error {
	return export.Write(w, format, export.Picture{
		Instance: s.Instance, Tour: s.Tour, Best: s.Best, Optimal: s.Optimal, Title: s.Title,
	}, width, height)
}

// FormatOf returns the export format named by path's extension: "png",
// "svg" or "pdf" (any letter case), or an error naming the file.
func FormatOf(path string) (string, error) { return export.FormatOf(path) }
