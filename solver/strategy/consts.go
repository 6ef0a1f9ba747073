package strategy

import "time"

// Sizes at which auto changes its search.
const (
	// DeepMinN is the smallest instance on which auto's workers (and
	// pop's) take the sequential 5-opt move on alpha-nearness lists of a
	// Held–Karp ascent and kicks of up to 200 cities a segment: from 1,000
	// to 6,000 cities far ahead of the 3-opt chain on nearest lists at
	// 10 s, below it level or behind where both reach the optimum
	// (docs/DECISIONS.md#deep-min-n).
	DeepMinN = 1000
	// PartitionMinN is the smallest instance auto runs the partition
	// search on (with coordinates): below it the whole-tour searches with
	// merged changes were ahead (docs/DECISIONS.md#part-min-n).
	PartitionMinN = 50000
	// AdaptMaxPerWorker is the cities per worker up to which auto's
	// partition search takes the 5-opt move in the rounds where it gains
	// more per second than the chain (move adapt): ahead up to 158,000
	// cities a worker, behind from 198,000, where a round lasts seconds
	// and 60 s hold only a few (docs/DECISIONS.md#adapt-max-per-worker).
	AdaptMaxPerWorker = 160000
	// WindowsMinN is the smallest instance on which auto's partition
	// search may hand over to the population search on windows of its
	// tour (the windows option; docs/DECISIONS.md#windows).
	WindowsMinN = 50000
	// WindowsMaxN is the largest instance on which the windows are
	// taken unless the option says so: ahead on 316,228 cities, far behind
	// on 1,000,000, where most cells' splices meet another's
	// (docs/DECISIONS.md#windows).
	WindowsMaxN = 400000
	// WindowsCoreTime is the least cores × time limit a city with which
	// the windows are taken unless the option says so: ahead with 1.2 ms
	// and more, behind with 0.6 ms; 1 ms because the limit is the
	// engine's, what a command's --time leaves after reading the instance
	// and starting the GPU (28 to 29.7 s of --time 30 with 4 cores on
	// 100,000 cities; docs/DECISIONS.md#windows).
	WindowsCoreTime = time.Millisecond
	// WindowsMinLimit is the shortest time limit on which the windows are
	// taken unless the option says so: behind on 10-s runs, which leave
	// them one short round, ahead from 30 s; 25 s because the limit is
	// what a command's --time leaves (docs/DECISIONS.md#windows).
	WindowsMinLimit = 25 * time.Second
)

// The population search in place of auto's merged search
// (docs/DECISIONS.md#pop): with its EAX population it ends ahead of the
// merged search on 2 and 16 workers from 2,392 to 18,512 cities
// (PopMaxN). Below PopLongMaxN it does so with at least PopPerCity of
// time a city, scaled by PopFewWorkers/w on fewer workers: on 24,978 and
// 33,810 cities it is behind at 10 s and ahead from 20 s on 16 cores,
// and on 2 from about 1 ms a city. Below PopMaxN on fewer workers it
// needs PopShortPerCity a city, scaled alike (0.75 ms on 2): below that
// it is behind the merged search (docs/DECISIONS.md#pop-short).
const (
	PopMaxN         = 20_000
	PopLongMaxN     = 50_000
	PopPerCity      = 500 * time.Microsecond
	PopShortPerCity = 375 * time.Microsecond
	PopFewWorkers   = 4
)

// AlphaMinPerCity is the least time of a worker a city (the time limit ×
// the workers / the cities) for which auto takes the alpha lists: below
// it the ascent's fifth of the time and the search's late start cost
// more than the lists gain, so it takes mixed lists (docs/DECISIONS.md#alpha-short).
const AlphaMinPerCity = 750 * time.Microsecond

// The merged search's restarts (docs/DECISIONS.md#restart): auto's timed
// merged search on more than RestartMinWorkers workers below RestartMaxN
// cities starts again from its best tour after RestartStall without a
// gain; on 16 cores at 30 s it was ahead on fnl4461 and rl5915 in 5 of 6
// paired runs and split on usa13509.
const (
	RestartStall      = 1500 * time.Millisecond
	RestartMaxN       = 10_000
	RestartMinWorkers = 2
)

// Settings of a crowded run, whose workers each hold so many cities that
// the usual set-up eats most of a time limit of seconds
// (docs/DECISIONS.md#crowded-min-per-worker).
const (
	// CrowdedMinPerWorker is the cities per worker from which auto takes
	// the crowded set-up: 10,000,000 cities on 2 cores never left their
	// start tour in 30 s with the usual one, while 16 cores (625,000 a
	// worker) and 1,000,000 cities on 2 cores (500,000) keep it.
	CrowdedMinPerWorker = 2_000_000
	// CrowdedShortMinPerWorker is the cities per worker from which a run
	// on at most CrowdedShortMaxWorkers workers whose time limit is under
	// CrowdedSetUpPerCity a city a worker takes the crowded set-up too: a
	// million cities on 2 cores spend 10 s in the usual set-up with no
	// move made, and at 30 s both set-ups are level.
	CrowdedShortMinPerWorker = 500_000
	CrowdedShortMaxWorkers   = 4
	CrowdedSetUpPerCity      = 50 * time.Microsecond
	// CrowdedNeighbors is the length of a crowded run's nearest lists: 6
	// rather than 8 saves a quarter of the lists' time and memory.
	CrowdedNeighbors = 6
	// CrowdedPartKicks is the kicks per city of a crowded run's piece
	// searches after its first round (a descent of every piece).
	CrowdedPartKicks = 0.05
)

// Share is a part of a run's time limit a phase takes: one Share-th.
type Share int64

// Of is the share of limit.
func (s Share) Of(limit time.Duration) time.Duration { return limit / time.Duration(s) }

// The shares of the time limit the phases take, each named once.
const (
	// AscentShare is the Held–Karp ascent's behind the alpha-nearness
	// lists: a fifth (docs/DECISIONS.md#ascent-share).
	AscentShare Share = 5
	// AscentWaitShare is how long the workers search on the nearest lists
	// while another caller's ascent is under way before they take its
	// alpha lists: half (docs/DECISIONS.md#alpha-start).
	AscentWaitShare Share = 2
	// GPUStartShare is the part of the time limit GPU auto's 2opt-or
	// descent of its start tour may take: a quarter
	// (docs/DECISIONS.md#gls-greedy-start).
	GPUStartShare Share = 4
)

// The GPU's roles in GPU auto.
const (
	// GPUEarlyMinN is the size from which GPU auto runs or-ils beside the
	// CPU auto engine until that engine's first tour, and or-ils alone
	// without the CPU engine (docs/DECISIONS.md#gpu-orils-min-n).
	GPUEarlyMinN = 200000
	// GPUWindowsMinN is the size from which GPU auto's windows improve a
	// stretch of the tour beside the CPU auto engine's partition search:
	// the size from which that engine runs it
	// (docs/DECISIONS.md#partition-beside).
	GPUWindowsMinN = PartitionMinN
	// GPUStartMinN is the size from which GPU auto starts from a 2-opt +
	// Or-opt local optimum found on the GPU (2opt-or) instead of its
	// engines' own start tours: ahead at a million cities, mixed below
	// (behind on pla85900 at 10 s: the CPU engine's greedy start suits its
	// search better there) (docs/DECISIONS.md#auto-ls-min-n).
	GPUStartMinN = GPUEarlyMinN
	// GPUStartDescentMax is the time limit per city up to which GPU auto
	// descends its greedy start with 2opt-or; with more time the cores'
	// search from the greedy tour itself ends shorter, a 2-opt local
	// optimum being a poorer start for their deeper moves
	// (docs/DECISIONS.md#gls-greedy-start).
	GPUStartDescentMax = 25 * time.Microsecond
)

// BoundBesideCPUMaxN is the largest instance a run without an
// accelerator proves a lower bound beside (tsp solve --bound, the app's
// gap): beyond it an ascent on the CPU cannot end within a run's minutes
// and only takes cores from the search
// (docs/DECISIONS.md#bound-beside-cpu).
const BoundBesideCPUMaxN = 2_000_000

// BoundBesideMinCores is the fewest cores on which a run without an
// accelerator proves a lower bound beside a search that takes no ascent of
// its own (from PartitionMinN cities): on fewer the ascent's core is a
// third or more of the search's (docs/DECISIONS.md#bound-beside-cpu).
const BoundBesideMinCores = 4

// BoundBesideCPU reports whether a run of n cities without an accelerator,
// on cores cores, proves a lower bound beside its search.
func BoundBesideCPU(n, cores int) bool {
	return n < PartitionMinN || n <= BoundBesideCPUMaxN && cores >= BoundBesideMinCores
}
