#!/bin/sh
# bench-report-carry.sh fills a folder to carry to the GPU machine for
# 'tsp bench report': bin/tsp (the CUDA build of scripts/build-gpu.sh)
# stripped and gzipped, the TSPLIB files the plan's GPU parts read (those
# present in the TSPLIB folder), optima.csv, the papers' tables, and in
# DIR/build the commit bin/tsp is taken to be of (for --build). PARTS names
# the parts whose files it takes (default: gpu-a,gpu-b; gpus for the
# several-GPU table).
# Usage: [PARTS=P,Q] scripts/bench-report-carry.sh DIR [TSPLIB_DIR [PAPERS_DIR]]
set -eu
cd "$(dirname "$0")/.."
DIR=${1:?usage: scripts/bench-report-carry.sh DIR [TSPLIB_DIR [PAPERS_DIR]]}
TSPLIB=${2:-${TSPLIB_DIR:-../shared/tsplib}}
PAPERS=${3:-${TSP_PAPERS:-../shared/papers}}
[ -x bin/tsp ] || { echo "bin/tsp missing: run scripts/build-gpu.sh first" >&2; exit 1; }
mkdir -p "$DIR/tsplib" "$DIR/papers"
strip -o "$DIR/tsp" bin/tsp
gzip -9f "$DIR/tsp"
# The file list comes from a build without CUDA: the CUDA build needs the driver to start.
go run ./cmd/tsp bench report --files --run "${PARTS:-gpu-a,gpu-b}" | while read -r f; do
	if [ -f "$TSPLIB/$f" ]; then cp "$TSPLIB/$f" "$DIR/tsplib/"; else echo "not in $TSPLIB: $f (its rows are skipped)"; fi
done
cp "$TSPLIB/optima.csv" "$DIR/tsplib/"
cp "$PAPERS"/*.csv "$DIR/papers/"
b=$(git rev-parse --short=7 HEAD)
git diff --quiet HEAD -- . ':!docs' || b="$b+dirty"
echo "$b" >"$DIR/build"
du -sh "$DIR"
