// Package account is the typed record of what a run's search did
// (Account): the engines fill it, the JSON report and the progress lines
// carry it, and the front ends make words of it (solver/report). The
// solver package names its types (solver.Account and the rest), so that
// an engine needs no import of its own.
package account

import "slices"

// Account is what a run's search did, as typed figures in the file's units; a nil part or zero figure is one the
// engine did not have.
type Account struct {
	// Search is the run's kind of search ("": the engine has one kind).
	Search SearchKind `json:"search,omitempty"`
	// Workers is the CPU workers the search ran on (0: not said).
	Workers int `json:"workers,omitempty"`
	// Lists are the candidate lists the local search ended on.
	Lists *ListsAccount `json:"lists,omitempty"`
	// Pool is the population search's pool of tours.
	Pool *PoolAccount `json:"pool,omitempty"`
	// EAX is the population search's EAX populations.
	EAX *EAXAccount `json:"eax,omitempty"`
	// LKStart is the chained Lin–Kernighan search of the whole tour the merged search started from.
	LKStart *LKStartAccount `json:"lk_start,omitempty"`
	// Restarts are the merged search's restarts from the best tour.
	Restarts *RestartAccount `json:"restarts,omitempty"`
	// Windows is the path improver beside the partition search.
	Windows *WindowsAccount `json:"windows,omitempty"`
	// TourWindows is the population search on windows after a partition search.
	TourWindows *TourWindowsAccount `json:"tour_windows,omitempty"`
	// GPU is the GPU's share of the run.
	GPU *GPUAccount `json:"gpu,omitempty"`
	// Route is the path the run's tour became (nil: a tour).
	Route *RouteAccount `json:"route,omitempty"`
	// LastGain is the part of the search that found the best tour last ("": not said).
	LastGain Source `json:"last_gain,omitempty"`
	// Unfinished: no climb ended in the time given; the tour is where time ran out.
	Unfinished bool `json:"unfinished,omitempty"`
	// Warnings are the parts of the run that failed and what they said.
	Warnings []string `json:"warnings,omitempty"`
}

// SearchKind is the kind of search a run makes.
type SearchKind string

// The kinds of search of auto, pop and GPU auto.
const (
	// SearchIndependent: each worker searches the whole tour alone.
	SearchIndependent SearchKind = "independent"
	// SearchMerged: each worker kicks in its stretch of one tour, changes merged.
	SearchMerged SearchKind = "merged"
	// SearchPartition: all workers on pieces of one tour.
	SearchPartition SearchKind = "partition"
	// SearchPopulation: an EAX population, then a pool of tours recombined by partition crossover.
	SearchPopulation SearchKind = "population"
)

// Source is a part of a search that finds tours.
type Source string

// The sources of a population search's tours.
const (
	// SourceDescent: a worker's descent of a new tour.
	SourceDescent Source = "descent"
	// SourceEAX: the evolution of a population by edge assembly crossover.
	SourceEAX Source = "eax"
	// SourceCrossover: a descended partition crossover of two pool members.
	SourceCrossover Source = "crossover"
	// SourceGPU: the GPU's searches on the pool's tours.
	SourceGPU Source = "gpu"
)

// ListKind names candidate lists.
type ListKind string

// The candidate lists of auto's local search.
const (
	// ListsAlpha: alpha-nearness lists of a Held–Karp ascent.
	ListsAlpha ListKind = "alpha"
	// ListsNearest: the nearest cities.
	ListsNearest ListKind = "nearest"
	// ListsQuadrant: the nearest cities of each quadrant.
	ListsQuadrant ListKind = "quadrant"
)

// ListsAccount is the candidate lists a local search ended on.
type ListsAccount struct {
	Kind ListKind `json:"kind"`
	// AscentOnGPU: the alpha lists' ascent ran on the GPU.
	AscentOnGPU bool `json:"ascent_on_gpu,omitempty"`
	// DuringSearch: the alpha lists came from an ascent that ended during the search.
	DuringSearch bool `json:"during_search,omitempty"`
	// AscentSeconds is the time the alpha lists' ascent was given and overran.
	AscentSeconds float64 `json:"ascent_not_done_within_s,omitempty"`
}

// PoolAccount is a population search's pool and what was done with it.
type PoolAccount struct {
	Tours    int `json:"tours"`
	Capacity int `json:"capacity"`
	// SpreadEdges is the mean edge distance to the shortest, % of the cities; SpreadLength the longest above the shortest, %.
	SpreadEdges  float64 `json:"spread_edges_percent"`
	SpreadLength float64 `json:"spread_length_percent"`
	// NewTours is the descents of new tours the workers offered it.
	NewTours int `json:"new_tours"`
	// Crossovers tried, Gained with a shorter child, Entered the children the pool took.
	Crossovers int `json:"crossovers"`
	Gained     int `json:"crossovers_gained"`
	Entered    int `json:"children_entered"`
	// Merges is the crossovers with members that shortened a worker's tour.
	Merges int `json:"merge_gains"`
	// FromGPU is the members that came from the GPU's searches.
	FromGPU int `json:"from_gpu,omitempty"`
}

// EAXAccount is a population search's EAX populations.
type EAXAccount struct {
	// Populations is the populations evolved; each after the first holds the best so far.
	Populations int `json:"populations"`
	// Tours is the latest population's members; FromGPU the members the GPU searched.
	Tours   int `json:"tours"`
	FromGPU int `json:"from_gpu,omitempty"`
	// Descents the latest population wants; Built those ended.
	Descents int `json:"descents,omitempty"`
	Built    int `json:"descents_built,omitempty"`
	// Generations of all populations.
	Generations int `json:"generations"`
	// FirstBest is the first population's shortest member before evolving; Best the shortest since.
	FirstBest float64 `json:"first_best,omitempty"`
	Best      float64 `json:"best,omitempty"`
}

// RestartAccount is the merged search's restarts from the best tour.
type RestartAccount struct {
	Count int `json:"count"`
	// Gained is the restarts' crossovers with the best that shortened it.
	Gained int `json:"crossovers_gained"`
}

// LKStartAccount is the chained Lin–Kernighan search of the whole tour, one a worker, before the merged search.
type LKStartAccount struct {
	// Seconds is how long it searched, from the run's start; Length the tour it handed over (file units).
	Seconds float64 `json:"seconds"`
	Length  float64 `json:"length"`
}

// WindowsAccount is the path improver beside a partition search and what it did.
type WindowsAccount struct {
	// Improved stretches, their Gain (file units), and Refused stretches.
	Improved int     `json:"improved"`
	Gain     float64 `json:"gain"`
	Refused  int     `json:"refused,omitempty"`
	// Share is its share of the stretches at the end, in workers.
	Share float64 `json:"share_workers"`
	// OnGPU reports that the improver is the GPU's windows (GPU auto).
	OnGPU bool `json:"on_gpu,omitempty"`
}

// TourWindowsAccount is the population search on windows of the tour, each an open path spliced back when shorter.
type TourWindowsAccount struct {
	// From is when the windows took over, in seconds from the run's start.
	From float64 `json:"from_seconds"`
	// Size is a round's shortest window's cities, Cores a window search's cores.
	Size  int `json:"size"`
	Cores int `json:"cores"`
	// Rounds begun, windows Searched, Improved (spliced back shorter) and their Gain (file units).
	Rounds   int     `json:"rounds"`
	Searched int     `json:"searched"`
	Improved int     `json:"improved"`
	Gain     float64 `json:"gain"`
	// Rejected is the shorter cells dropped because their splices would cut the tour into cycles.
	Rejected int `json:"rejected,omitempty"`
	// WholeLists is the windows searched on alpha lists of the whole instance's ascent, made on the accelerator.
	WholeLists int `json:"whole_lists,omitempty"`
}

// GPUAccount is the GPU's share of a run.
type GPUAccount struct {
	// Alone: GPU auto's CPU search ran without the GPU's searches.
	Alone bool `json:"cpu_alone,omitempty"`
	// NoPool says why a population search took no GPU pool ("": it did or none offered).
	NoPool NoPoolReason `json:"no_pool,omitempty"`
	// Rounds of the GPU's searches, TourSlots a round, tours Improved and their Kicks.
	Rounds    int   `json:"rounds,omitempty"`
	TourSlots int   `json:"tours_a_round,omitempty"`
	Improved  int   `json:"tours_improved,omitempty"`
	Kicks     int64 `json:"kicks,omitempty"`
	// Entered pool tours, Bests the best so far, Members the pool's members.
	Entered int `json:"tours_entered,omitempty"`
	Bests   int `json:"new_bests,omitempty"`
	Members int `json:"members_at_end,omitempty"`
	// Start is the GPU's descent of the start tour (nil: none).
	Start *GPUStart `json:"start,omitempty"`
	// EarlyTours: or-ils on the GPU gave the run's first tours.
	EarlyTours bool `json:"early_tours,omitempty"`
	// Contexts the searches ran on, PerContext each; Selected the contexts asked for when more.
	Contexts   int `json:"contexts,omitempty"`
	PerContext int `json:"searches_a_context,omitempty"`
	Selected   int `json:"contexts_selected,omitempty"`
}

// NoPoolReason is why a population search took no GPU pool.
type NoPoolReason string

// The reasons a population search takes no GPU pool.
const (
	// NoPoolKicks: a run by a kicks budget stays on the cores.
	NoPoolKicks NoPoolReason = "kicks budget"
	// NoPoolInstance: the GPU takes no pool for the instance.
	NoPoolInstance NoPoolReason = "instance"
)

// GPUStart is the GPU's 2-opt + Or-opt descent of a run's start tour.
type GPUStart struct {
	// Construction names the start it descended ("greedy", ...).
	Construction string `json:"construction"`
	// Passes is the descent's passes (0: the construction alone).
	Passes  int     `json:"passes"`
	Seconds float64 `json:"seconds"`
}

// RouteAccount is the path a run's tour became: open, or between From and To.
type RouteAccount struct {
	Open bool   `json:"open,omitempty"`
	From string `json:"from,omitempty"`
	To   string `json:"to,omitempty"`
}

// Clone is a deep copy of a, for a snapshot that leaves the engine.
func (a *Account) Clone() *Account {
	if a == nil {
		return nil
	}
	c := *a
	c.Lists = clonePtr(a.Lists)
	c.Pool = clonePtr(a.Pool)
	c.EAX = clonePtr(a.EAX)
	c.Restarts = clonePtr(a.Restarts)
	c.Windows = clonePtr(a.Windows)
	c.Route = clonePtr(a.Route)
	if a.GPU != nil {
		g := *a.GPU
		g.Start = clonePtr(a.GPU.Start)
		c.GPU = &g
	}
	c.Warnings = slices.Clone(a.Warnings)
	return &c
}

// Warn adds a warning line.
func (a *Account) Warn(line string) {
	if line != "" {
		a.Warnings = append(a.Warnings, line)
	}
}

// GPUPart is a's GPU part, made when it has none.
func (a *Account) GPUPart() *GPUAccount {
	if a.GPU == nil {
		a.GPU = new(GPUAccount)
	}
	return a.GPU
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	c := *p
	return &c
}
