#!/usr/bin/env bash
# wheel.sh builds the Python package's wheels (python/build_wheel.py), one a
# platform with that platform's static (cgo-free) tsp, into dist/wheels/,
# and copies the host's into dist/ (so `pip install dist/tsplab-*.whl` takes
# it). Where the fatbin is built or nvcc can build it, Linux x86-64 gets a
# second wheel with the CUDA build (it runs with or without the NVIDIA
# driver), tagged by the glibc it links against: pip prefers it where that
# glibc is there and takes the static one elsewhere. A Linux wheel's tag is
# read from its binary (build_wheel.py's linux_platform: a static binary is
# manylinux2014 and musllinux).
# Usage: scripts/wheel.sh [--host-cpu DIR]   (only the host's wheel, from a
# CPU build, into DIR: seconds once go build's cache is warm; `make
# wheel-host` puts it in dist/, the Python tests install it)
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=${VERSION:-$(sh scripts/version.sh)}
COMMIT=${COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || true)}
BI=github.com/tsplab/tsplab/solver/buildinfo
LDFLAGS="-s -w ${TSPLAB_LDFLAGS:--X $BI.version=$VERSION -X $BI.commit=$COMMIT}"
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# platform PLATFORM: build_wheel.py's --platform flag for PLATFORM's tsp
# (none for Linux: the tag is read from the binary).
platform() {
	case $1 in
	linux/*) ;;
	darwin/amd64) echo --platform macosx_12_0_x86_64 ;; # Go 1.26 needs macOS 12
	darwin/arm64) echo --platform macosx_12_0_arm64 ;;
	windows/amd64) echo --platform win_amd64 ;;
	*) echo "wheel: no platform tag for $1" >&2; return 1 ;;
	esac
}

# cpu PLATFORM: the cgo-free tsp for PLATFORM: make release's of this
# version when dist/ has it, else built in $tmp; it prints its path.
cpu() {
	local os=${1%/*} arch=${1#*/} exe=tsp
	[ "$os" = windows ] && exe=tsp.exe
	if [ -x "dist/tsp-$VERSION-$os-$arch/$exe" ]; then
		echo "dist/tsp-$VERSION-$os-$arch/$exe"
		return
	fi
	mkdir -p "$tmp/$os-$arch"
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "$LDFLAGS" -o "$tmp/$os-$arch/$exe" ./cmd/tsp
	echo "$tmp/$os-$arch/$exe"
}

host=$(go env GOOS)/$(go env GOARCH)
if [ "${1:-}" = --host-cpu ]; then
	# The tests' build shares go build's cache with make build (no
	# -trimpath, cgo as the host has it): seconds once that has run.
	mkdir -p "$tmp/host"
	go build -ldflags "${TSPLAB_LDFLAGS:-}" -o "$tmp/host/tsp$(go env GOEXE)" ./cmd/tsp
	# shellcheck disable=SC2046 # platform prints a flag and its value, or nothing
	"$PY" python/build_wheel.py --binary "$tmp/host/tsp$(go env GOEXE)" $(platform "$host") --version "$VERSION" --out "$2"
	exit 0
fi

# wheel BINARY PLATFORM: writes BINARY's wheel into $out and prints its path.
wheel() {
	# shellcheck disable=SC2046
	w=$("$PY" python/build_wheel.py --binary "$1" $(platform "$2") --version "$VERSION" --out "$out")
	echo "wheel: $w ($(du -h "$w" | cut -f1))" >&2
	echo "$w"
}

out=dist/wheels
rm -rf "$out" dist/tsplab-*.whl && mkdir -p "$out"
for p in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64; do
	w=$(wheel "$(cpu "$p")" "$p")
	if [ "$p" = linux/amd64 ] && { [ -f gpu/device/kernels.fatbin ] || command -v nvcc >/dev/null; }; then
		bin=dist/tsplab-$VERSION-linux-amd64-cuda/tsp
		if [ ! -x "$bin" ]; then
			[ -f gpu/device/kernels.fatbin ] || sh scripts/build-gpu.sh fatbin
			mkdir -p "$tmp/cuda"
			CGO_LDFLAGS="-L$PWD/internal/cudaload/link" go build -tags cuda -trimpath -ldflags "$LDFLAGS" -o "$tmp/cuda/tsp" ./cmd/tsp
			bin=$tmp/cuda/tsp
		fi
		w=$(wheel "$bin" "$p") # the host's choice where its glibc takes it
	elif [ "$p" = linux/amd64 ]; then
		echo "wheel: no fatbin and no nvcc: the linux x86-64 wheels carry the CPU build alone" >&2
	fi
	if [ "$p" = "$host" ]; then cp "$w" dist/; fi
done
