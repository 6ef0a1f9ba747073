// Package assets holds the files the app ships inside its binary: the
// icon (drawn by icon_gen.go) and the bundled sample instances with their
// known optima (generated with `tsp gen` into samples/).
package assets

import "embed"

//go:generate go run icon_gen.go

// IconPNG is the application icon, a 512×512 PNG.
//
//go:embed icon.png
var IconPNG []byte

// Samples holds the bundled instances under samples/: NAME.tsp files, the
// optimal tours NAME.opt.tour where known, and optima.csv (name,
// dimension, edge_weight_type, optimum).
//
//go:embed samples/*.tsp samples/*.opt.tour samples/optima.csv
var Samples embed.FS
