package account

import "time"

// Settings are what an engine chose where its options left it the choice, typed; zero where it chose nothing.
type Settings struct {
	// Blocks and Threads are the parallel searches and threads that ran.
	Blocks  int `json:"blocks,omitempty"`
	Threads int `json:"threads,omitempty"`
	// LaunchWaves is the launches measured to choose the threads.
	LaunchWaves int `json:"launch_waves,omitempty"`
	// Tenure is the tabu search's tenure; Per its moves a thread.
	Tenure int `json:"tenure,omitempty"`
	Per    int `json:"per,omitempty"`
	// NNFrom is the temperature below which PSPM drew from the neighbour lists.
	NNFrom float64 `json:"nnfrom,omitempty"`
	// GPUs are the contexts the searches were split over, as the gpus option writes them.
	GPUs string `json:"gpus,omitempty"`
	// K, T0, TEnd, Alpha and Sweeps are an annealer's schedule (temperatures in the file's units).
	K      int     `json:"k,omitempty"`
	T0     float64 `json:"t0,omitempty"`
	TEnd   float64 `json:"tend,omitempty"`
	Alpha  float64 `json:"alpha,omitempty"`
	Sweeps int     `json:"sweeps,omitempty"`
}

// Stats are a run's figures beyond its tour (zero where not had).
type Stats struct {
	// AscentIterations counts the alpha lists' ascent's 1-trees.
	AscentIterations int `json:"ascent_iterations,omitempty"`
	// AscentOnGPU reports that the ascent ran on the GPU.
	AscentOnGPU bool `json:"ascent_on_gpu,omitempty"`
	// AscentTime is the ascent's time, or the wait for another's.
	AscentTime time.Duration `json:"ascent_time_ns,omitempty"`
	// AlphaListsAt is when the search took alpha lists made beside it (0: at set-up).
	AlphaListsAt time.Duration `json:"alpha_lists_at_ns,omitempty"`
	// EarlyLength is GPU auto's or-ils's best before the CPU's first tour (0: none).
	EarlyLength int64 `json:"early_length,omitempty"`
	EarlyKept   bool  `json:"early_kept,omitempty"`
	// PoolSearched: an accelerator searched the population's pool.
	PoolSearched bool `json:"pool_searched,omitempty"`
}
