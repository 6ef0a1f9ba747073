//go:build !race

package bound

// raceDetector is true in a -race build.
const raceDetector = false
