package solver

import "math"

// The engines' options are declared by their packages (solver/cpu, gpu),
// which solver's tests do not link: these fakes declare the shared options
// of the annealers and the CPU climbers under their names,
// as those packages do, so that the fake engines of the tests (optEngine)
// take them.

type fakeAnneal struct {
	Workers, Blocks, Threads, K, Sweeps int
	T0, TEnd, Alpha                     float64
}

func init() {
	w := SharedInt("workers", func(c *fakeAnneal) *int { return &c.Workers }).Auto("all cores")
	b := SharedInt("blocks", func(c *fakeAnneal) *int { return &c.Blocks }).Auto("workers")
	th := SharedInt("threads", func(c *fakeAnneal) *int { return &c.Threads })
	k := SharedInt("k", func(c *fakeAnneal) *int { return &c.K })
	sched := []Decl[fakeAnneal]{
		Shared[fakeAnneal]("t0"),
		Shared[fakeAnneal]("tend"),
		Shared[fakeAnneal]("alpha"),
		SharedInt("sweeps", func(c *fakeAnneal) *int { return &c.Sweeps }),
	}
	Declare("pspm", BackendCPU, NewSpec(append([]Decl[fakeAnneal]{w, b, th, k}, sched...)...))
	Declare("pssm", BackendCPU, NewSpec(append([]Decl[fakeAnneal]{w, b, k}, sched...)...))
	Declare("sspm", BackendCPU, NewSpec(append([]Decl[fakeAnneal]{w, th.Auto("workers")}, sched...)...))
	// the GPU annealer's fields (package gpu declares its draw options too)
	Declare("pspm", BackendGPU, NewSpec(append([]Decl[fakeAnneal]{b.Auto("a full wave"), th, k}, sched...)...))
	Declare("sspm", BackendGPU, NewSpec(append([]Decl[fakeAnneal]{th}, sched...)...))
	Declare("pssm", BackendGPU, NewSpec(append([]Decl[fakeAnneal]{b.Auto("a full wave"), k}, sched...)...))
	Declare("2opt-climb", BackendCPU, NewSpec(w))
	Declare("swap-climb", BackendCPU, NewSpec(w))
}

type fakeILS struct {
	Workers, Kicks, RKBI, Sync, Stale, Neighbors, Segment int
	Pivot, Candidates, Accept                             string
	ThreeOpt                                              bool
}

// The iterated local searches' options, as solver/cpu declares them
// (a subset: those the tests set).
func init() {
	base := NewSpec(
		SharedInt("workers", func(c *fakeILS) *int { return &c.Workers }).Auto("all cores"),
		Int("kicks", func(c *fakeILS) *int { return &c.Kicks }, 0, 0, math.MaxInt32, "kicks per worker"),
		Choice("pivot", func(c *fakeILS) *string { return &c.Pivot }, "first", []string{"first", "rkbi"}, "pivoting rule"),
		Int("rkbi_k", func(c *fakeILS) *int { return &c.RKBI }, 3, 1, 64, "k of random-k-best-improvement"),
		Int("sync", func(c *fakeILS) *int { return &c.Sync }, 0, 0, math.MaxInt32, "kicks between exchanges"),
		Int("stale", func(c *fakeILS) *int { return &c.Stale }, 0, 0, 1<<20, "escape threshold"),
		Bool("threeopt", func(c *fakeILS) *bool { return &c.ThreeOpt }, false, "sequential 3-opt moves"),
		Choice("accept", func(c *fakeILS) *string { return &c.Accept }, "better", []string{"better", "equal"}, "kick acceptance"),
		Int("segment", func(c *fakeILS) *int { return &c.Segment }, 30, 1, 1<<20, "longest kick segment"),
		Int("neighbors", func(c *fakeILS) *int { return &c.Neighbors }, 8, 2, 64, "candidate list size"),
		Choice("candidates", func(c *fakeILS) *string { return &c.Candidates }, "nearest", []string{"nearest", "quadrant", "union", "mixed", "alpha"}, "candidate lists"),
	)
	Declare("2opt-ils", BackendCPU, base)
	Declare("3opt-ils", BackendCPU, base.With("threeopt", "on"))
	Declare("auto", BackendCPU, base.With("threeopt", "on").With("accept", "equal").With("stale", "20").With("candidates", "mixed"))
	// GPU auto's own option the tests ask for (package gpu declares it
	// with window and beside)
	auto := base.With("threeopt", "on").With("accept", "equal").With("stale", "20").With("candidates", "mixed")
	Declare("auto", BackendGPU, append(auto.Options(nil), Option{Name: "wsegment", Kind: KindInt, Min: 1, Max: 512, Default: "30", Experimental: true, Doc: "most cities of a segment of the windows' kicks"}))
}
