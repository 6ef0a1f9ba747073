//go:build race

package instfile

// raceOn is true in a -race build: the detector slows the reader of ten
// million lines tenfold, and that test runs without it.
const raceOn = true
