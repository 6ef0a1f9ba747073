//go:build race

package ils

// raceOn is true in a -race build: the detector slows a search five- to
// tenfold, and the checks that need a long one run without it.
const raceOn = true
