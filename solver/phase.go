package solver

// Phase names a part of a run, in the order a run goes through them.
// Engines report it in Snapshot.Phase so that front ends can say what a
// long set-up is doing before the first tour exists.
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

// SendPhase sends a snapshot that carries only the phase and its progress
// (Tour and Best nil: the receiver keeps the tour it has), subject to the
// same rate bound as Send unless the phase differs from the last one sent
// through SendPhase, which always goes out.
func (s *Sink) SendPhase(ph Phase, progress float64) { s.SendStage(ph, progress, nil) }

// SendStage is SendPhase with the run's account so far (nil: none).
func (s *Sink) SendStage(ph Phase, progress float64, acc *Account) {
	if s == nil || s.ch == nil {
		return
	}
	if ph == s.phase && !s.Due() {
		return
	}
	s.phase = ph
	s.Send(Snapshot{Phase: ph, PhaseProgress: progress, Account: acc})
}
