#!/usr/bin/env bash
# wheel.sh builds the Python package's wheels (python/build_wheel.py), one a
# platform with that platform's tsp, into dist/wheels/, and copies the
# host's into dist/ (so `pip install dist/tsplab-*.whl` takes it). The Linux
# x86-64 wheel carries the CUDA build (it runs with or without the NVIDIA
# driver) when the fatbin is built or nvcc can build it, else the CPU build;
# the others carry the CPU build (no cgo).
# Usage: scripts/wheel.sh [--host-cpu DIR]   (only the host's wheel, from a
# CPU build, into DIR: what the Python tests install)
set -euo pipefail
cd "$(dirname "$0")/.."
VERSION=${VERSION:-$(sh scripts/version.sh)}
COMMIT=${COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || true)}
BI=github.com/tsplab/tsplab/solver/buildinfo
LDFLAGS="-s -w ${TSPLAB_LDFLAGS:--X $BI.version=$VERSION -X $BI.commit=$COMMIT}"
PY=${PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# tag PLATFORM: the wheel platform tags of a static (cgo-free) tsp.
tag() {
	case $1 in
	linux/amd64) echo manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64 ;;
	linux/arm64) echo manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64 ;;
	darwin/amd64) echo macosx_12_0_x86_64 ;; # Go 1.26 needs macOS 12
	darwin/arm64) echo macosx_12_0_arm64 ;;
	windows/amd64) echo win_amd64 ;;
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
	"$PY" python/build_wheel.py --binary "$tmp/host/tsp$(go env GOEXE)" --platform "$(tag "$host")" --version "$VERSION" --out "$2"
	exit 0
fi

out=dist/wheels
rm -rf "$out" dist/tsplab-*.whl && mkdir -p "$out"
for p in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64; do
	bin=$(cpu "$p") plat=$(tag "$p")
	if [ "$p" = linux/amd64 ] && { [ -f gpu/device/kernels.fatbin ] || command -v nvcc >/dev/null; }; then
		bin=dist/tsplab-$VERSION-linux-amd64-cuda/tsp
		if [ ! -x "$bin" ]; then
			[ -f gpu/device/kernels.fatbin ] || sh scripts/build-gpu.sh fatbin
			mkdir -p "$tmp/cuda"
			CGO_LDFLAGS="-L$PWD/internal/cudaload/link" go build -tags cuda -trimpath -ldflags "$LDFLAGS" -o "$tmp/cuda/tsp" ./cmd/tsp
			bin=$tmp/cuda/tsp
		fi
		# The newest glibc symbol version it needs sets the manylinux tag.
		glibc=$(objdump -T "$bin" | grep -o 'GLIBC_2\.[0-9]*' | sort -t. -k2 -n | tail -n 1)
		plat=manylinux_2_${glibc#GLIBC_2.}_x86_64
	elif [ "$p" = linux/amd64 ]; then
		echo "wheel: no fatbin and no nvcc: the linux x86-64 wheel carries the CPU build" >&2
	fi
	w=$("$PY" python/build_wheel.py --binary "$bin" --platform "$plat" --version "$VERSION" --out "$out")
	echo "wheel: $w ($(du -h "$w" | cut -f1))"
	if [ "$p" = "$host" ]; then cp "$w" dist/; fi
done
