//go:build !race

package ils

// raceOn is true in a -race build.
const raceOn = false
