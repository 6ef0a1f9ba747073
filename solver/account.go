package solver

import "github.com/tsplab/tsplab/solver/account"

// The run's account and the engine's settings and figures are defined in solver/account, named here as solver's own.
type (
	// Account is what a run's search did, as typed figures (account.Account).
	Account = account.Account
	// SearchKind is the kind of search a run makes.
	SearchKind = account.SearchKind
	// Source is a part of a search that finds tours.
	Source = account.Source
	// ListKind names candidate lists.
	ListKind = account.ListKind
	// ListsAccount is the candidate lists a local search ended on.
	ListsAccount = account.ListsAccount
	// LKStartAccount is the chained LK search the merged search started from.
	LKStartAccount = account.LKStartAccount
	// PoolAccount is a population search's pool of tours.
	PoolAccount = account.PoolAccount
	// EAXAccount is a population search's populations evolved by EAX.
	EAXAccount = account.EAXAccount
	// RestartAccount is the merged search's restarts from the best tour.
	RestartAccount = account.RestartAccount
	// WindowsAccount is the path improver beside a partition search.
	WindowsAccount = account.WindowsAccount
	// TourWindowsAccount is the population search on windows of the tour.
	TourWindowsAccount = account.TourWindowsAccount
	// Settings are what an engine chose for a run (account.Settings).
	Settings = account.Settings
	// Stats are figures of a run beyond its tour (account.Stats).
	Stats = account.Stats
	// GPUAccount is the GPU's share of a run.
	GPUAccount = account.GPUAccount
	// NoPoolReason is why a population search took no GPU pool.
	NoPoolReason = account.NoPoolReason
	// GPUStart is the GPU's descent of a run's start tour.
	GPUStart = account.GPUStart
	// RouteAccount is the path a run's tour became.
	RouteAccount = account.RouteAccount
)

// The values of the account's kinds (solver/account says what each is).
const (
	SearchIndependent = account.SearchIndependent // each worker searches the whole tour alone
	SearchMerged      = account.SearchMerged      // stretches of one tour, their changes merged
	SearchPartition   = account.SearchPartition   // all workers on pieces of one tour
	SearchPopulation  = account.SearchPopulation  // EAX, then a pool recombined

	SourceDescent   = account.SourceDescent   // a descent of a new tour
	SourceEAX       = account.SourceEAX       // edge assembly crossover
	SourceCrossover = account.SourceCrossover // partition crossover of pool members
	SourceGPU       = account.SourceGPU       // the GPU's searches on the pool

	ListsAlpha    = account.ListsAlpha    // alpha-nearness lists
	ListsNearest  = account.ListsNearest  // the nearest cities
	ListsQuadrant = account.ListsQuadrant // the nearest of each quadrant

	NoPoolKicks    = account.NoPoolKicks    // a run by a kicks budget
	NoPoolInstance = account.NoPoolInstance // the GPU takes no pool for it
)
