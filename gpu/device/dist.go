package device

// OptDist is the kernel distances' option of 3opt-ils and swap-climb: auto takes coordinates for EUC_2D, CEIL_2D and ATT
// (docs/DECISIONS.md#gpu-dist), else the matrix up to MatrixMaxN cities.
const OptDist = "dist"

// MatrixMaxN is the largest n for which the engines build an n×n matrix.
const MatrixMaxN = 8192

// DistChoices are the kernels' distances (OptDist).
var DistChoices = []string{"auto", "coords", "matrix"}

// DistDoc is OptDist's documentation.
const DistDoc = "kernel distances: computed from coordinates in float, the exact integer matrix in device memory, or auto (coordinates where the kernels compute the metric)"
