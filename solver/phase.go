package solver

// Phase names a part of a run, reported in Snapshot.Phase so front ends can say what a long set-up does.
type Phase string

// The phases of a run, each reported by the engines that have it.
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
	// PhaseEvolve: a population built by descents evolves by EAX.
	PhaseEvolve Phase = "evolve"
	// PhaseFill: a population search's pool fills with descents.
	PhaseFill Phase = "fill"
	// PhaseRecombine: the pool's members are recombined and descended.
	PhaseRecombine Phase = "recombine"
)

// UnknownProgress is the PhaseProgress of a phase whose length is unknown.
const UnknownProgress = -1.0
