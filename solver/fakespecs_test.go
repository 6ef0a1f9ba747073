package solver

// The engines' options are declared by their packages (solver/cpu, gpu),
// which solver's tests do not link: these fakes declare the Params fields
// of the CPU annealers and climbers under their names, as those packages
// do, so that the fake engines of the tests (optEngine) take them.

type fakeAnneal struct {
	Workers, Blocks, Threads, K, Sweeps int
	T0, TEnd, Alpha                     float64
}

func init() {
	w := ParamInt("workers", func(c *fakeAnneal) *int { return &c.Workers }).Auto("all cores")
	b := ParamInt("blocks", func(c *fakeAnneal) *int { return &c.Blocks }).Auto("workers")
	th := ParamInt("threads", func(c *fakeAnneal) *int { return &c.Threads })
	k := ParamInt("k", func(c *fakeAnneal) *int { return &c.K })
	sched := []Decl[fakeAnneal]{
		ParamFloat("t0", func(c *fakeAnneal) *float64 { return &c.T0 }),
		ParamFloat("tend", func(c *fakeAnneal) *float64 { return &c.TEnd }),
		ParamFloat("alpha", func(c *fakeAnneal) *float64 { return &c.Alpha }),
		ParamInt("sweeps", func(c *fakeAnneal) *int { return &c.Sweeps }),
	}
	Declare("pspm", BackendCPU, NewSpec(append([]Decl[fakeAnneal]{w, b, th, k}, sched...)...))
	Declare("pssm", BackendCPU, NewSpec(append([]Decl[fakeAnneal]{w, b, k}, sched...)...))
	Declare("sspm", BackendCPU, NewSpec(append([]Decl[fakeAnneal]{w, th.Auto("workers")}, sched...)...))
	Declare("2opt-climb", BackendCPU, NewSpec(w))
	Declare("swap-climb", BackendCPU, NewSpec(w))
}
