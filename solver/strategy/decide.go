package strategy

import "time"

// Engine is the engine whose run is decided.
type Engine int8

const (
	// ILS is 2opt-ils or 3opt-ils, which take only the partition search and crowded lists.
	ILS Engine = iota
	// Auto is CPU auto.
	Auto
	// Pop is the population search (CPU pop, GPU pop).
	Pop
	// GPUAuto is GPU auto: CPU auto with the GPU's roles.
	GPUAuto
)

// Kind is what an instance's distances come from.
type Kind int8

const (
	// Coords: coordinates and a distance function of them.
	Coords Kind = iota
	// Matrix: an explicit distance matrix.
	Matrix
)

// Toggle is an on/off option that may be left to the strategy.
type Toggle int8

const (
	// ByStrategy leaves the choice to Decide.
	ByStrategy Toggle = iota
	// On is given on.
	On
	// Off is given off.
	Off
)

// Options are what Decide reads of the options a run was given.
type Options struct {
	// Partition is the partition option.
	Partition Toggle
	// Any: some of the engine's own options were given (workers aside).
	Any bool
	// Move: the move option was given.
	Move bool
	// Merge: the workers' changes are merged (the share in effect).
	Merge bool
	// NoWindows: GPU auto's windows were turned off (beside=0).
	NoWindows bool
	// NoLK: chained Lin–Kernighan was turned off (solo=off).
	NoLK bool
	// Windows is the windows option after the partition search.
	Windows Toggle
}

// Devices are the devices a run may use.
type Devices struct {
	// GPU: the run has a GPU (GPU auto, GPU pop).
	GPU bool
	// OrSpan: the instance's coordinates fit the GPU's or-ils.
	OrSpan bool
}

// Limits are the crowded set-up's per-worker sizes (zero: the default), smaller in tests.
type Limits struct {
	CrowdedMinPerWorker, CrowdedShortMinPerWorker int
}

// Facts are what a run's strategy is decided from.
type Facts struct {
	Engine Engine
	// N is the cities; Kind what their distances come from.
	N    int
	Kind Kind
	// Cuttable: the instance is large enough to cut into pieces.
	Cuttable bool
	// FixedEdges: the instance has edges every tour must keep.
	FixedEdges bool
	// StartGiven: the run was given its start tour.
	StartGiven bool
	// Workers is the run's workers (0: not known yet).
	Workers int
	// TimeLimit is the time left when decided (solver.LeftOf; 0: none); Kicks the kicks budget (0: none).
	TimeLimit time.Duration
	Kicks     int
	Options   Options
	Devices   Devices
	Limits    Limits
}

// Decide returns the strategy of a run with facts f.
func Decide(f Facts) Strategy {
	auto := f.Engine == Auto || f.Engine == GPUAuto
	s := Strategy{LocalSearch: BySize(f.N), Ascent: AscentShare.Of(f.TimeLimit)}
	if f.Engine == Pop {
		s.LocalSearch = popSearch(f.N)
	}
	part := UsesPartition(f)
	if auto && s.LocalSearch.Lists == Alpha && f.TimeLimit > 0 && f.Workers > 0 && f.Kicks == 0 &&
		f.TimeLimit*time.Duration(f.Workers) < AlphaMinPerCity*time.Duration(f.N) {
		s.LocalSearch.Lists, s.ShortLists = Mixed, true
	}
	s.Crowded = f.Limits.Crowded(f.N, f.Workers, f.TimeLimit)
	s.CrowdSetUp = auto && part && s.Crowded
	s.Chain = auto && s.LocalSearch.Move == Adapt && !f.Options.Move && f.Workers > 0 && f.N/f.Workers > AdaptMaxPerWorker
	pop := f.Engine == Pop || (auto && !part && popSize(f.N, f.Workers, f.TimeLimit) && f.Kicks == 0 && !f.Options.Any)
	switch {
	case pop:
		// the population search runs pop's local search
		s.Search = Population
		s.LocalSearch, s.ShortLists = popSearch(f.N), false
	case part:
		s.Search = Partition
	case f.Options.Merge:
		s.Search = Merged
	}
	if auto && s.Search == Merged && f.N >= DeepMinN && f.N < RestartMaxN && f.Workers > RestartMinWorkers &&
		f.TimeLimit > 0 && f.Kicks == 0 {
		s.Restart = RestartStall
	}
	if auto && s.Search == Merged && f.Kind == Coords && !f.FixedEdges && f.N >= LKStartMinN && f.N < PartitionMinN && f.Workers > 0 &&
		f.TimeLimit > 0 && f.Kicks == 0 && !f.Options.NoLK {
		s.LKStart = time.Duration(LKStartShare * float64(f.TimeLimit))
	}
	if auto && s.Search == Partition && !s.CrowdSetUp && f.N > PartSliceMinN && f.N <= PartSliceMaxN {
		s.PartSlice = time.Duration(min(f.N, 2*PartSliceMinN)) * PartSlicePerCity
	}
	s.Windows = auto && s.Search == Partition && windowsOn(f)
	s.Start = start(f, s.CrowdSetUp)
	s.GPU = gpuRoles(f, s.Search)
	if s.Start == StartGPUDescent {
		s.GPU.StartDescent = startDescent(f.N, f.TimeLimit)
	}
	return s
}

// UsesPartition reports whether a run with facts f takes the partition search, workers aside.
func UsesPartition(f Facts) bool {
	if f.Kind != Coords || !f.Cuttable || f.Engine == Pop {
		return false
	}
	switch f.Options.Partition {
	case On:
		return true
	case Off:
		return false
	}
	return (f.Engine == Auto || f.Engine == GPUAuto) && f.N >= PartitionMinN
}

// popSize reports whether auto's population search suits n cities, limit and w workers.
func popSize(n, w int, limit time.Duration) bool {
	if n < DeepMinN || limit <= 0 || w <= 0 || n >= PopLongMaxN {
		return false
	}
	per := PopPerCity
	if w < PopFewWorkers {
		per = per * PopFewWorkers / time.Duration(w)
		if n < PopMaxN {
			per = PopShortPerCity * PopFewWorkers / time.Duration(w)
		}
	} else if n < PopMaxN {
		return true
	}
	return limit >= time.Duration(n)*per
}

// Crowded reports whether a run of n cities on w workers within limit is crowded.
func (l Limits) Crowded(n, w int, limit time.Duration) bool {
	if w <= 0 {
		return false
	}
	most, short := l.CrowdedMinPerWorker, l.CrowdedShortMinPerWorker
	if most == 0 {
		most = CrowdedMinPerWorker
	}
	if short == 0 {
		short = CrowdedShortMinPerWorker
	}
	per := n / w
	if per >= most {
		return true
	}
	return w <= CrowdedShortMaxWorkers && per >= short && limit > 0 && limit < time.Duration(per)*CrowdedSetUpPerCity
}

// start is the start tour of a run with facts f.
func start(f Facts, crowdSetUp bool) Start {
	switch {
	case f.StartGiven:
		return StartGiven
	case f.Engine == GPUAuto && f.N >= GPUStartMinN && f.Devices.OrSpan && !f.FixedEdges:
		return StartGPUDescent
	case crowdSetUp:
		return StartCurve
	}
	return StartGreedy
}

// startDescent is how long GPU auto's start descent may take (0: none, over GPUStartDescentMax a city or no limit).
func startDescent(n int, limit time.Duration) time.Duration {
	if limit <= 0 || limit > time.Duration(n)*GPUStartDescentMax {
		return 0
	}
	return GPUStartShare.Of(limit)
}

// gpuRoles are the GPU's roles in a run with facts f and search: the pool for the population search (timed), windows
// for the partition search, or-ils within its span, fixed edges left to the CPU.
func gpuRoles(f Facts, search Search) GPU {
	g := GPU{Ascent: true}
	if !f.Devices.GPU {
		return GPU{}
	}
	g.Pool = search == Population && f.TimeLimit > 0 && f.N >= 8
	if f.Engine != GPUAuto {
		return g
	}
	free := f.Devices.OrSpan && !f.FixedEdges
	g.Early = free && f.N >= GPUEarlyMinN
	g.Windows = free && search == Partition && f.N >= GPUWindowsMinN && !f.Options.NoWindows
	return g
}

// windowsOn reports whether a partition search hands over to windows (docs/DECISIONS.md#windows).
func windowsOn(f Facts) bool {
	if f.Options.Windows == Off || f.N < WindowsMinN || f.TimeLimit <= 0 || f.Kicks != 0 {
		return false
	}
	coreTime := time.Duration(max(f.Workers, 1)) * f.TimeLimit
	minLimit := WindowsMinLimit
	if f.Engine == GPUAuto && f.Devices.GPU {
		minLimit = GPUWindowsMinLimit
	}
	return f.Options.Windows == On ||
		f.N <= WindowsMaxN && f.TimeLimit >= minLimit && coreTime >= time.Duration(f.N)*WindowsCoreTime
}
