package solver

// Phase names a part of a run, reported in Snapshot.Phase so front ends can say what a long set-up does.
type Phase string

// The phases of a run. An engine reports the ones it has; most go from
// PhaseNeighbours or PhaseStart to PhaseSearch.
const (
	// PhaseReading: the instance is being read (front ends only).
	PhaseReading Phase = "reading"
	// PhaseNeighbours: candidate (neighbour) lists are being built.
	PhaseNeighbours Phase = "neighbour lists"
	// PhaseStart: the start tour is being built.
	PhaseStart Phase = "start tour"
	// PhaseSetup: device memory, distance tables and launch configuration.
	PhaseSetup Phase = "set-up"
	// PhaseDescent: the first local-search descent from the start tour.
	PhaseDescent Phase = "descent"
	// PhaseSearch: the main search (annealing schedule, kicks, restarts).
	PhaseSearch Phase = "search"
	// PhasePolish: a final local search on the best tour.
	PhasePolish Phase = "polish"
	// PhaseBound: a lower bound is being computed.
	PhaseBound Phase = "bound"
	// PhaseEvolve: a population is built by descents and evolved by
	// edge assembly crossover (Snapshot.Account's EAX says how far).
	PhaseEvolve Phase = "evolve"
	// PhaseFill: the pool of a population search fills with descents of
	// new tours.
	PhaseFill Phase = "fill"
	// PhaseRecombine: the pool's members are recombined by partition
	// crossover and the children descended.
	PhaseRecombine Phase = "recombine"
)

// UnknownProgress is the PhaseProgress of a phase whose length is unknown.
const UnknownProgress = -1.0
