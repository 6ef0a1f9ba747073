//go:build race

package bound

// raceDetector is true in a -race build: the race detector slows the exact
// evaluations of the largest instances five- to tenfold.
const raceDetector = true
