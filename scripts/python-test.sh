#!/bin/sh
# python-test.sh runs the Python package's tests (python/tests) against a
# CPU build of tsp, then installs the host's wheel into a fresh venv
# offline and solves the unit square from it. Without python3 it skips
# with a message; without venv (Debian: python3-venv) it skips the wheel.
set -eu
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
if ! command -v "$PY" >/dev/null 2>&1; then
	echo "test-python: $PY not found: the Python package's tests skipped (Debian: apt-get install python3 python3-venv python3-pip python3-numpy)"
	exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
scripts/wheel.sh --host-cpu "$tmp/wheels" >/dev/null
wheel=$(ls "$tmp"/wheels/tsplab-*.whl)
mkdir -p "$tmp/bin"
unzip -q -j "$wheel" 'tsplab/bin/*' -d "$tmp/bin"
echo "test-python: $("$PY" --version) on python/tests"
TSPLAB_CACHE_DIR=$tmp/cache TSPLAB_TSP=$tmp/bin/tsp PYTHONPATH=python "$PY" -m unittest discover -s python/tests
if ! "$PY" -m venv "$tmp/venv" >/dev/null 2>&1; then
	echo "test-python: '$PY -m venv' failed: the wheel's install was not tested (Debian: apt-get install python3-venv)"
	exit 0
fi
"$tmp/venv/bin/python" -m pip install -q --no-index "$wheel"
got=$(cd "$tmp" && TSPLAB_CACHE_DIR=$tmp/cache env -u TSPLAB_TSP "$tmp/venv/bin/python" -c "import tsplab; r = tsplab.solve(points=[(0,0),(1,0),(1,1),(0,1)], time=1); print(r.length)")
if [ "$got" != 4.0 ]; then
	echo "test-python: the installed wheel solved the unit square to '$got', want 4.0" >&2
	exit 1
fi
echo "test-python: $(basename "$wheel") installed offline in a fresh venv: the unit square's tour is $got long"
