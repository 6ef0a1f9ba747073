#!/bin/sh
# build-gpu.sh builds the CUDA variant: every .cu file under gpu/ (each
# beside the Go code that launches it; the shared headers in gpu/device)
# into one fatbin (SASS for sm_70, sm_80, sm_90 and compute_90 PTX for
# newer GPUs), embedded by gpu/device/device_cuda.go, then bin/tsp and
# bin/tsplab with -tags cuda. It installs the toolkit first when nvcc is missing.
# Usage: scripts/build-gpu.sh [fatbin]   (fatbin: only the kernels)
set -eu
cd "$(dirname "$0")/.."
command -v nvcc >/dev/null 2>&1 || sh scripts/cuda-toolkit.sh
NVCC=${NVCC:-nvcc}
OUT=gpu/device/kernels.fatbin
UNITY=$(mktemp -d)/kernels.cu
# one translation unit, the files in the order of their names
for f in $(find gpu -name '*.cu' | awk -F/ '{print $NF, $0}' | LC_ALL=C sort | cut -d' ' -f2); do
	printf '#include "%s"\n' "$PWD/$f" >>"$UNITY"
done
# -use_fast_math: the kernels rank moves in float; every applied move is
# re-checked with exact integer distances on the CPU (gpu/doc.go, "Exactness").
# -compress-all: the SASS images compressed too (the driver inflates them
# when it loads the module), a fatbin of about 40 % the size.
$NVCC -O3 -use_fast_math -fatbin -Xfatbin -compress-all -I gpu/device \
	-gencode arch=compute_70,code=sm_70 \
	-gencode arch=compute_80,code=sm_80 \
	-gencode arch=compute_90,code=sm_90 \
	-gencode arch=compute_90,code=compute_90 \
	-o "$OUT" "$UNITY"
rm -f "$UNITY"
echo "built $OUT ($(wc -c <"$OUT") bytes)"
[ "${1:-}" = fatbin ] && exit 0
# The binaries link libcuda.so.1 from the driver at run time; at build time
# the toolkit's stub satisfies the linker.
STUBS=""
for d in /usr/local/cuda/lib64/stubs /usr/lib/x86_64-linux-gnu/stubs /usr/lib/aarch64-linux-gnu/stubs; do
	[ -e "$d/libcuda.so" ] && STUBS="$STUBS -L$d"
done
export CGO_LDFLAGS="${CGO_LDFLAGS:-}$STUBS"
mkdir -p bin
go build -tags cuda -o bin/tsp ./cmd/tsp
echo "built bin/tsp"
if [ -f main.go ]; then
	go build -tags cuda -o bin/tsplab .
	echo "built bin/tsplab"
else
	echo "main.go not found: skipping bin/tsplab"
fi
