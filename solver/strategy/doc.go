// Package strategy decides once how a run of the auto engines (CPU auto,
// GPU auto) and of pop searches an instance: Decide turns the run's facts
// (its size, the kind of instance, the workers, the time limit, the
// devices at hand and the options given) into a typed Strategy, the start
// tour, the candidate lists, the kind of search, the local search's
// settings for the size and the GPU's roles. The engines carry the
// Strategy out; Tune and `tsp engines` print it (Strategy.String).
//
// Every threshold and time share of those decisions is named here once,
// each with the docs/DECISIONS.md section that records its measurement.
// The package imports only the standard library, so that every engine
// package (solver/cpu/ils, solver/cpu/population, gpu) and the run
// pipeline (solver/session) can import it.
package strategy
