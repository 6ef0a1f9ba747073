// Package solver is the run framework around the symmetric travelling
// salesman problem: the engine interface with its registry, the shared
// option framework, Finish, snapshots and stop reasons. The problem itself
// (instances and their TSPLIB95 distance functions, tours, lengths, units)
// lives in solver/problem, which solver names as its own; its sub-packages
// hold the TSPLIB reader, tour moves, construction heuristics and the CPU
// engines.
//
// solver knows nothing of Fyne or CUDA: the GPU engines in package gpu and
// the CPU engines implement the same Engine interface, so callers never
// branch on the backend.
//
// Settings: each engine owns a config struct and declares each of its
// options once, bound to a field of that struct, with its kind, default,
// range, doc and tier (Int, Float, Choice, Bool; SharedInt, SharedFloat and Shared
// for the shared options such as --workers and --t0; .Experimental() for
// an option kept only for a suite or a paper's reproduction). NewSpec
// gathers the declarations, BySize adds the defaults that depend on the
// instance's size (one SizeTable per engine), and Declare registers the
// spec under the engine's (algorithm, backend), in a file every build
// compiles:
//
//	type config struct{ Workers, Kicks int; Pivot string }
//
//	var spec = solver.NewSpec(
//		solver.SharedInt("workers", func(c *config) *int { return &c.Workers }).Auto("all cores"),
//		solver.Int("kicks", func(c *config) *int { return &c.Kicks }, 0, 0, math.MaxInt32, "kicks per worker (0: until the time limit)"),
//		solver.Choice("pivot", func(c *config) *string { return &c.Pivot }, "first", []string{"first", "rkbi"}, "pivoting rule").Experimental(),
//	)
//
//	func init() { solver.Declare("my-ils", solver.BackendCPU, spec) }
//
// The engine reads a run's settings once (its declared spec's Parse, or
// its own Preparer): the run pipeline calls Prepare, which checks p
// (Validate, which opens no device) and hands the engine its typed config
// with p, and solver.Configure(spec, e, in, p) in Solve
// returns that config, or checks and parses p when no pipeline prepared
// it (a *ParamError names the flag, the value and the range). Code that
// runs an engine (its tests) sets typed values instead of text:
// p.Config = func(c *config) { c.Kicks = 500 } changes the parsed config. The
// registry's view serves the front ends: OptionsFor (the declared
// options), EffectiveOptions (the defaults and ranges on an instance and
// a device, with Tuner), OptionSet.Stable (without the experimental
// ones), Params.Set (--opt name=value) and Validate. An engine that runs
// another hands it its typed config and declares the options it hands
// down as Go values; what an engine chose for a run (a launch, a tenure)
// it reports in Result.Settings, never in Params.
package solver
