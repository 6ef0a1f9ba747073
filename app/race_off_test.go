//go:build !race

package app

// raceOn reports that the race detector is on: the tests that time a
// real engine on the wall clock skip, as their timing means nothing then.
const raceOn = false
