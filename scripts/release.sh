#!/usr/bin/env bash
# release.sh writes a release into dist/: the command line built without
# cgo (CPU engines) for linux/amd64, linux/arm64, darwin/amd64,
# darwin/arm64 and windows/amd64, and the Linux x86-64 CUDA build of tsp
# and tsplab (one build with or without the NVIDIA driver:
# internal/cudaload), each in an archive with README.md and LICENSE, and
# SHA256SUMS of the archives. The fatbin is rebuilt only when a kernel
# source is newer. TSPLAB_LDFLAGS (from the Makefile) stamps the version.
set -euo pipefail
cd "$(dirname "$0")/.."
t0=$(date +%s)
VERSION=${VERSION:-$(sh scripts/version.sh)}
COMMIT=${COMMIT:-$(git rev-parse --short=12 HEAD 2>/dev/null || true)}
BI=github.com/tsplab/tsplab/solver/buildinfo
LDFLAGS="-s -w ${TSPLAB_LDFLAGS:--X $BI.version=$VERSION -X $BI.commit=$COMMIT}"
DIST=dist
mkdir -p "$DIST"

# pack DIR: DIR.tar.gz, or DIR.zip for Windows, from inside dist/.
pack() {
	local d=$1
	cp README.md LICENSE "$DIST/$d/"
	rm -f "$DIST/$d.tar.gz" "$DIST/$d.zip"
	case $d in
	*windows*) (cd "$DIST" && zip -q -r -X "$d.zip" "$d") ;;
	*) tar -C "$DIST" --owner=0 --group=0 -czf "$DIST/$d.tar.gz" "$d" ;;
	esac
	echo "release: $DIST/$(cd "$DIST" && ls "$d".*)"
}

for p in linux/amd64 linux/arm64 darwin/amd64 darwin/arm64 windows/amd64; do
	os=${p%/*} arch=${p#*/}
	d=tsp-$VERSION-$os-$arch
	exe=tsp
	[ "$os" = windows ] && exe=tsp.exe
	rm -rf "${DIST:?}/$d" && mkdir -p "$DIST/$d"
	CGO_ENABLED=0 GOOS=$os GOARCH=$arch go build -trimpath -ldflags "$LDFLAGS" -o "$DIST/$d/$exe" ./cmd/tsp
	pack "$d"
done

# The CUDA build: the fatbin when missing or older than a kernel source.
fatbin=gpu/device/kernels.fatbin
if [ ! -f "$fatbin" ] || [ -n "$(find gpu lab/gpu -newer "$fatbin" \( -name '*.cu' -o -name '*.cuh' \))" ]; then
	sh scripts/build-gpu.sh fatbin
fi
d=tsplab-$VERSION-linux-amd64-cuda
rm -rf "${DIST:?}/$d" && mkdir -p "$DIST/$d"
OUTDIR=$DIST/$d TSPLAB_LDFLAGS="$LDFLAGS" sh scripts/build-gpu.sh nofatbin
cp assets/icon.png "$DIST/$d/tsplab.png"
scripts/desktop-entry.sh >"$DIST/$d/tsplab.desktop"
pack "$d"

(cd "$DIST" && sha256sum -- *.tar.gz *.zip >SHA256SUMS.tmp && mv SHA256SUMS.tmp SHA256SUMS)
echo "release: $DIST/SHA256SUMS ($(wc -l <"$DIST/SHA256SUMS") archives), $(($(date +%s) - t0)) s"
