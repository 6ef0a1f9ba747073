package account

import "time"

// Settings are what an engine chose where its options left it the choice, typed; zero where it chose nothing.
type Settings struct {
	// Blocks and Threads are the parallel searches and the threads of
	// each that ran (a GPU launch).
	Blocks  int `json:"blocks,omitempty"`
	Threads int `json:"threads,omitempty"`
	// LaunchWaves is the launches measured to choose the threads.
	LaunchWaves int `json:"launch_waves,omitempty"`
	// Tenure is the tabu search's tenure; Per its moves a thread.
	Tenure int `json:"tenure,omitempty"`
	Per    int `json:"per,omitempty"`
	// NNFrom is the temperature below which PSPM drew its moves from the
	// neighbour lists.
	NNFrom float64 `json:"nnfrom,omitempty"`
	// GPUs are the GPU contexts the run's searches were split over, as
	// the gpus option writes them ("0,0"; empty: one).
	GPUs string `json:"gpus,omitempty"`
	// K, T0, TEnd, Alpha and Sweeps are an annealer's schedule (temperatures in the file's units).
	K      int     `json:"k,omitempty"`
	T0     float64 `json:"t0,omitempty"`
	TEnd   float64 `json:"tend,omitempty"`
	Alpha  float64 `json:"alpha,omitempty"`
	Sweeps int     `json:"sweeps,omitempty"`
}

// Stats are figures of a run beyond its tour; zero where an engine does
// not have them.
type Stats struct {
	// AscentIterations counts the minimum 1-trees of the Held–Karp
	// ascent behind alpha-nearness candidate lists (0: no such lists).
	AscentIterations int `json:"ascent_iterations,omitempty"`
	// AscentOnGPU reports that the ascent ran on the GPU.
	AscentOnGPU bool `json:"ascent_on_gpu,omitempty"`
	// AscentTime is the ascent's time, or the wait for an ascent another
	// caller ran.
	AscentTime time.Duration `json:"ascent_time_ns,omitempty"`
	// AlphaListsAt is when the search took alpha-nearness lists that an
	// ascent made beside it (0: at set-up, or never).
	AlphaListsAt time.Duration `json:"alpha_lists_at_ns,omitempty"`
	// EarlyLength is the best tour GPU auto's or-ils gave before the CPU
	// engine's first (0: none); EarlyKept, that it stayed the result.
	EarlyLength int64 `json:"early_length,omitempty"`
	EarlyKept   bool  `json:"early_kept,omitempty"`
	// PoolSearched reports that an accelerator's searches worked on the
	// population search's pool (GPU pop).
	PoolSearched bool `json:"pool_searched,omitempty"`
}
