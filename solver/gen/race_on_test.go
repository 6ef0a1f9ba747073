//go:build race

package gen_test

// raceOn reports that the race detector is on, so the slow solves skip.
const raceOn = true
