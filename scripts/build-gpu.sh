#!/bin/sh
# build-gpu.sh builds the CUDA variant: every .cu file under gpu/ and
# lab/gpu/ (each beside the Go code that launches it; the shared headers
# in gpu/device) into one fatbin (SASS for sm_70, sm_80, sm_90 and
# compute_90 PTX for newer GPUs), embedded by gpu/device/device_cuda.go,
# then bin/tsp and bin/tsplab with -tags cuda. It installs the toolkit
# first when nvcc is missing.
# Usage: scripts/build-gpu.sh [fatbin|nofatbin]   (fatbin: only the kernels;
# nofatbin: only the binaries, from the fatbin already built)
set -eu
cd "$(dirname "$0")/.."
if [ "${1:-}" != nofatbin ]; then
command -v nvcc >/dev/null 2>&1 || sh scripts/cuda-toolkit.sh
NVCC=${NVCC:-nvcc}
OUT=gpu/device/kernels.fatbin
# -use_fast_math: the kernels rank moves in float; every applied move is
# re-checked with exact integer distances on the CPU (gpu/doc.go, "Exactness").
# -compress-all: the SASS images compressed too (the driver inflates them
# when it loads the module), a fatbin of about 40 % the size.
FLAGS="-O3 -use_fast_math -fatbin -Xfatbin -compress-all -I gpu/device
	-gencode arch=compute_70,code=sm_70
	-gencode arch=compute_80,code=sm_80
	-gencode arch=compute_90,code=sm_90
	-gencode arch=compute_90,code=compute_90"
# A fatbin built before from the same sources, flags and nvcc is taken
# from the user's cache (TSPLAB_FATBIN_CACHE moves it): nvcc takes
# minutes of both cores for the four targets.
CACHE=${TSPLAB_FATBIN_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tsplab/fatbin}
KEY=$({ $NVCC --version; echo "$FLAGS"; for f in $(find gpu lab/gpu -name '*.cu' -o -name '*.cuh' -o -name '*.h' | LC_ALL=C sort); do echo "$f"; cat "$f"; done; } | sha256sum | cut -c1-32)
if [ -f "$CACHE/$KEY.fatbin" ]; then
	cp "$CACHE/$KEY.fatbin" "$OUT"
	echo "built $OUT ($(wc -c <"$OUT") bytes): the same sources' kernels from $CACHE"
else
UNITY=$(mktemp -d)/kernels.cu
# one translation unit, the files in the order of their names
for f in $(find gpu lab/gpu -name '*.cu' | awk -F/ '{print $NF, $0}' | LC_ALL=C sort | cut -d' ' -f2); do
	printf '#include "%s"\n' "$PWD/$f" >>"$UNITY"
done
# -t 0: the four targets compiled at once, one a core (the same fatbin).
# shellcheck disable=SC2086 # FLAGS is split into nvcc's arguments
$NVCC -t 0 $FLAGS -o "$OUT" "$UNITY"
rm -f "$UNITY"
echo "built $OUT ($(wc -c <"$OUT") bytes)"
if mkdir -p "$CACHE" 2>/dev/null && cp "$OUT" "$CACHE/$KEY.fatbin.$$" 2>/dev/null; then
	mv "$CACHE/$KEY.fatbin.$$" "$CACHE/$KEY.fatbin"
fi
fi
fi
[ "${1:-}" = fatbin ] && exit 0
# On x86-64 the binaries link internal/cudaload's empty libcuda.so, so
# they do not name libcuda.so.1 and start on machines without the NVIDIA
# driver (cudaload opens it at run time); elsewhere the toolkit's stub
# satisfies the linker and the driver is needed to start.
# TSPLAB_LDFLAGS (from the Makefile) stamps the version; OUTDIR: where
# the binaries go (bin).
LINK=""
if [ "$(go env GOARCH)" = amd64 ] && [ "$(go env GOOS)" = linux ]; then
	LINK=" -L$PWD/internal/cudaload/link"
else
	for d in /usr/local/cuda/lib64/stubs /usr/lib/x86_64-linux-gnu/stubs /usr/lib/aarch64-linux-gnu/stubs; do
		[ -e "$d/libcuda.so" ] && LINK="$LINK -L$d"
	done
fi
export CGO_LDFLAGS="${CGO_LDFLAGS:-}$LINK"
OUTDIR=${OUTDIR:-bin}
mkdir -p "$OUTDIR"
go build -tags cuda -trimpath -ldflags "${TSPLAB_LDFLAGS:-}" -o "$OUTDIR/tsp" ./cmd/tsp
echo "built $OUTDIR/tsp"
if [ -f main.go ]; then
	go build -tags cuda -trimpath -ldflags "${TSPLAB_LDFLAGS:-}" -o "$OUTDIR/tsplab" .
	echo "built $OUTDIR/tsplab"
else
	echo "main.go not found: skipping $OUTDIR/tsplab"
fi
