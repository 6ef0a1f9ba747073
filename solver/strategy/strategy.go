package strategy

import "time"

// Search is the kind of search a run makes.
type Search int8

const (
	// Independent: each worker searches the whole tour alone (below DeepMinN).
	Independent Search = iota
	// Merged: workers kick in their stretches of one tour, changes merged (docs/DECISIONS.md#merge).
	Merged
	// Partition: all workers on pieces of one tour (docs/DECISIONS.md#part-min-n).
	Partition
	// Population: pop's EAX population, then its pool recombined (docs/DECISIONS.md#pop).
	Population
)

// Start is how a run builds its start tour.
type Start int8

const (
	// StartGreedy is the greedy edge tour on the candidate lists.
	StartGreedy Start = iota
	// StartCurve is the space-filling-curve tour of a crowded run.
	StartCurve
	// StartGPUDescent is a GPU 2opt-or optimum from the greedy tour.
	StartGPUDescent
	// StartGiven is the tour the run was given.
	StartGiven
)

// Lists are the candidate lists of a local search.
type Lists int8

const (
	// Nearest: the k nearest cities.
	Nearest Lists = iota
	// Alpha: the k alpha-nearest of a Held–Karp ascent.
	Alpha
	// Mixed: nearest on even workers, quadrant on odd ones.
	Mixed
)

// Move is the deep move after 2-opt and Or-opt.
type Move int8

const (
	// Chain: a chain of 2-opt steps (the 3-opt chain at depth 1).
	Chain Move = iota
	// FiveOpt: the LKH sequential 5-opt move, chained while it gains.
	FiveOpt
	// Adapt: per round, the move that gained more per second.
	Adapt
)

// LocalSearch are a worker's local-search settings by size.
type LocalSearch struct {
	Lists     Lists
	Neighbors int  // candidates a city
	Move      Move // the deep move
	Depth     int  // steps of the chain after its first 2-opt step
	Or3       bool // the pure 3-opt moves with the chain
	Bridge    bool // the non-sequential bridge move where the 5-opt move finds nothing
	Segment   int  // longest segment of a kick's double bridge
	Stale     int  // escape after Stale·n kicks without a gain (0: never)
	Merge     bool // the workers' changes merged into one tour
	Sync      int  // kicks per worker between merges of a run without a time limit
}

// GPU are the GPU's roles in a run. Each is off on a run without a GPU.
type GPU struct {
	// Ascent: the Held–Karp ascent behind alpha lists runs on the GPU.
	Ascent bool
	// Early: or-ils until the CPU engine's first tour (GPUEarlyMinN).
	Early bool
	// Windows: the GPU's windows beside the partition search.
	Windows bool
	// Pool: the GPU's block search on copies of pop's pool members.
	Pool bool
	// StartDescent is how long the GPU's start descent may take.
	StartDescent time.Duration
}

// Strategy is what a run decides once, before any search.
type Strategy struct {
	// Search is the kind of search.
	Search Search
	// Start is the start tour.
	Start Start
	// LocalSearch are the local search's settings by size, overridden by given options.
	LocalSearch LocalSearch
	// Crowded: nearest lists from a grid and segments prepared late (docs/DECISIONS.md#crowded-min-per-worker);
	// CrowdSetUp: auto's crowded set-up on a crowded partition search.
	Crowded, CrowdSetUp bool
	// ShortLists: too short for the ascent (AlphaMinPerCity): mixed lists instead.
	ShortLists bool
	// Chain: the partition search takes the chain over the adaptive move past AdaptMaxPerWorker cities a worker.
	Chain bool
	// LKStart is how long chained LK searches the whole tour before the merged search goes on from its best (0: not).
	LKStart time.Duration
	// Restart is the stall before the merged search restarts from its best (0: never).
	Restart time.Duration
	// Ascent is the ascent's share of the time limit (0: its own schedule).
	Ascent time.Duration
	// PartSlice is the partition search's round slice (0: the option's; PartSliceMinN, PartSliceMaxN).
	PartSlice time.Duration
	// Windows: the partition search hands over to windows at their start time (solver/cpu/window, docs/DECISIONS.md#windows).
	Windows bool
	// GPU are the GPU's roles.
	GPU GPU
}
