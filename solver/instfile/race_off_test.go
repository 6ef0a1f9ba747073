//go:build !race

package instfile

// raceOn is true in a -race build.
const raceOn = false
