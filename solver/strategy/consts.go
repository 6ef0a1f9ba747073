package strategy

import "time"

// Sizes at which auto changes its search.
const (
	// DeepMinN is the smallest instance on which auto and pop take the 5-opt move on alpha lists and long kicks
	// (docs/DECISIONS.md#deep-min-n).
	DeepMinN = 1000
	// PartitionMinN is the smallest instance auto runs the partition search on (docs/DECISIONS.md#part-min-n).
	PartitionMinN = 50000
	// AdaptMaxPerWorker is the cities per worker up to which the partition search adapts its move
	// (docs/DECISIONS.md#adapt-max-per-worker).
	AdaptMaxPerWorker = 160000
	// WindowsMinN is the smallest instance on which the partition search may hand over to windows (docs/DECISIONS.md#windows).
	WindowsMinN = 50000
	// WindowsMaxN is the largest instance taking the windows by default (docs/DECISIONS.md#windows).
	WindowsMaxN = 400000
	// WindowsCoreTime is the least cores × time limit a city taking the windows by default (docs/DECISIONS.md#windows).
	WindowsCoreTime = time.Millisecond
	// WindowsMinLimit is the shortest time limit taking the windows by default (docs/DECISIONS.md#windows).
	WindowsMinLimit = 25 * time.Second
	// GPUWindowsMinLimit is WindowsMinLimit under GPU auto, whose windows take the GPU ascent's lists of the whole
	// instance and no time for ascents of their own: a 10-s command leaves 9.5–9.8 s on 100,000 cities
	// (docs/DECISIONS.md#window-lists).
	GPUWindowsMinLimit = 9 * time.Second
	// ShortWindowsLast is the latest hand-over to the windows, as a share of the limit, on limits below
	// WindowsMinLimit (GPU auto's short runs), where their one round gains more than the partition search's last
	// seconds would (docs/DECISIONS.md#short-windows-last).
	ShortWindowsLast = 0.35
)

// The partition search's round slice by size: from PartSliceMinN cities PartSlicePerCity a city, up to twice
// PartSliceMinN's slice (below, the partslice option's 300 ms, which PartSliceMinN cities at PartSlicePerCity make), so
// that a round's parts on one core (the cut, the regions' merge, the stitch), which grow with the cities, stay a share
// of it; up to PartSliceMaxN cities, where chained LK searches the pieces (docs/DECISIONS.md#part-slice).
const (
	PartSliceMinN    = 500_000
	PartSliceMaxN    = 2_000_000
	PartSlicePerCity = 600 * time.Nanosecond
)

// The population search in place of auto's merged search, by size, time a city and workers
// (docs/DECISIONS.md#pop, #pop-short).
const (
	PopMaxN         = 20_000
	PopLongMaxN     = 50_000
	PopPerCity      = 500 * time.Microsecond
	PopShortPerCity = 375 * time.Microsecond
	PopFewWorkers   = 4
)

// AlphaMinPerCity is the least worker time a city for which auto takes alpha lists (docs/DECISIONS.md#alpha-short).
const AlphaMinPerCity = 750 * time.Microsecond

// The merged search's start: chained Lin–Kernighan over the whole tour, one search a worker, for LKStartShare of the
// limit, the merged search going on from its best tour (docs/DECISIONS.md#lk-start).
const (
	LKStartMinN  = 10_000
	LKStartShare = 0.3
)

// The merged search's restarts from its best tour after RestartStall without gain (docs/DECISIONS.md#restart).
const (
	RestartStall      = 1500 * time.Millisecond
	RestartMaxN       = 10_000
	RestartMinWorkers = 2
)

// Settings of a crowded run, whose set-up would eat most of a short limit (docs/DECISIONS.md#crowded-min-per-worker).
const (
	// CrowdedMinPerWorker is the cities per worker from which auto takes the crowded set-up.
	CrowdedMinPerWorker = 2_000_000
	// CrowdedShortMinPerWorker is the cities per worker from which a run on at most CrowdedShortMaxWorkers workers with
	// under CrowdedSetUpPerCity a city takes the crowded set-up too.
	CrowdedShortMinPerWorker = 500_000
	CrowdedShortMaxWorkers   = 4
	CrowdedSetUpPerCity      = 50 * time.Microsecond
	// CrowdedNeighbors is a crowded run's nearest lists' length: 6 rather than 8 saves a quarter of their time and memory.
	CrowdedNeighbors = 6
	// CrowdedPartKicks is the kicks per city of a crowded run's later piece searches.
	CrowdedPartKicks = 0.05
)

// Share is a part of a run's time limit a phase takes: one Share-th.
type Share int64

// Of is the share of limit.
func (s Share) Of(limit time.Duration) time.Duration { return limit / time.Duration(s) }

// The shares of the time limit the phases take, each named once.
const (
	// AscentShare is the alpha lists' ascent's share of the limit (docs/DECISIONS.md#ascent-share).
	AscentShare Share = 5
	// AscentWaitShare is the share of the time the workers search on nearest lists while another's ascent runs
	// (docs/DECISIONS.md#alpha-start).
	AscentWaitShare Share = 2
	// GPUStartShare is the share of the limit GPU auto's start descent may take (docs/DECISIONS.md#gls-greedy-start).
	GPUStartShare Share = 4
)

// The GPU's roles in GPU auto.
const (
	// GPUEarlyMinN is the size from which GPU auto runs or-ils until the CPU engine's
	// first tour (docs/DECISIONS.md#gpu-orils-min-n).
	GPUEarlyMinN = 200000
	// GPUWindowsMinN is the size from which GPU auto's windows run beside the partition
	// search, which on instances that are not clustered gives them no stretch below
	// 200,000 cities (docs/DECISIONS.md#partition-beside).
	GPUWindowsMinN = PartitionMinN
	// GPUStartMinN is the size from which GPU auto starts from a GPU 2opt-or optimum (docs/DECISIONS.md#auto-ls-min-n).
	GPUStartMinN = GPUEarlyMinN
	// GPUStartDescentMax is the limit per city up to which GPU auto descends its greedy
	// start (docs/DECISIONS.md#gls-greedy-start).
	GPUStartDescentMax = 25 * time.Microsecond
	// GPUStartStall ends GPU auto's start descent once a second of its passes gains less than this share of
	// what it gained so far (docs/DECISIONS.md#start-stall).
	GPUStartStall = 0.01
)

// BoundBesideCPUMaxN is the largest instance a CPU run proves a lower bound beside (docs/DECISIONS.md#bound-beside-cpu).
const BoundBesideCPUMaxN = 2_000_000

// BoundBesideMinCores is the fewest cores on which a CPU run proves a bound beside a search without its own ascent
// (docs/DECISIONS.md#bound-beside-cpu).
const BoundBesideMinCores = 4

// BoundBesideCPU reports whether a CPU run of n cities on cores proves a bound beside.
func BoundBesideCPU(n, cores int) bool {
	return n < PartitionMinN || n <= BoundBesideCPUMaxN && cores >= BoundBesideMinCores
}
