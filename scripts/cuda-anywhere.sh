#!/bin/sh
# cuda-anywhere.sh checks that the CUDA build of tsp is one build for every
# Linux x86-64 machine: it must not name libcuda.so.1 (internal/cudaload
# opens it at run time), and without the driver `tsp version` must say so
# and `tsp solve` must solve on the CPU. Where a driver library is
# installed it also runs with it, whatever the GPU. Needs the fatbin
# (scripts/build-gpu.sh fatbin).
set -eu
cd "$(dirname "$0")/.."
if [ "$(go env GOOS)/$(go env GOARCH)" != linux/amd64 ]; then
	echo "cuda-anywhere: the run-time driver loader is for linux/amd64: skipped"
	exit 0
fi
CGO_LDFLAGS="-L$PWD/internal/cudaload/link" go test -tags cuda ./internal/cudaload
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
CGO_LDFLAGS="-L$PWD/internal/cudaload/link" go build -tags cuda -ldflags "${TSPLAB_LDFLAGS:-}" -o "$tmp/tsp" ./cmd/tsp
if readelf -d "$tmp/tsp" | grep -q 'libcuda'; then
	echo "cuda-anywhere: the CUDA build names libcuda in its dynamic section:" >&2
	readelf -d "$tmp/tsp" | grep libcuda >&2
	exit 1
fi
sample=assets/samples/clustered-1000.tsp
for lib in none /nonexistent/libcuda.so.1 ""; do
	if [ -n "$lib" ]; then
		what="TSPLAB_LIBCUDA=$lib"
	elif ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1 '; then
		what="the installed driver library"
	else
		continue
	fi
	TSPLAB_LIBCUDA=$lib "$tmp/tsp" version >"$tmp/version" 2>&1 || { cat "$tmp/version" >&2; exit 1; }
	grep '^driver: ' "$tmp/version" | sed "s|^|cuda-anywhere: $what: |"
	if [ -n "$lib" ] && ! grep -q '^driver: no NVIDIA driver: CPU engines only' "$tmp/version"; then
		echo "cuda-anywhere: $what: tsp version does not say the CPU engines run" >&2
		exit 1
	fi
	TSPLAB_LIBCUDA=$lib "$tmp/tsp" solve "$sample" --time 1 --json "$tmp/report.json" 2>"$tmp/solve.err" || { cat "$tmp/solve.err" >&2; exit 1; }
	backend=$(sed -n 's/^  "backend": "\(.*\)",$/\1/p' "$tmp/report.json")
	if grep -q 'CPU engines only' "$tmp/version" && [ "$backend" != cpu ]; then
		echo "cuda-anywhere: $what: without a usable driver the run reported backend '$backend'" >&2
		exit 1
	fi
	echo "cuda-anywhere: $what: tsp solve ran on the $backend: $(grep '"length"' "$tmp/report.json" | tr -d ' ,')"
done
