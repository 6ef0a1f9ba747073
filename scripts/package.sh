#!/usr/bin/env bash
# Builds a Linux desktop package of TSP Lab into dist/: a tar.xz with the
# app, tsp beside it, a .desktop entry and the icon, and the Makefile that
# installs them, made by the `fyne` command that ships inside
# fyne.io/fyne/v2 v2.7.1. `fyne package` bumps Build in FyneApp.toml, so
# the file is restored afterwards. PACKAGE_BIN names a folder whose tsplab
# and tsp to package (the CUDA build's bin/, say); by default both are
# built here, the CPU variant. TSPLAB_LDFLAGS (from the Makefile) stamps
# the version.
set -euo pipefail
cd "$(dirname "$0")/.."
backup=$(mktemp)
tmp=$(mktemp -d)
cp FyneApp.toml "$backup"
trap 'cp "$backup" FyneApp.toml; rm -rf "$backup" "$tmp"' EXIT
bin=${PACKAGE_BIN:-}
if [ -z "$bin" ]; then
	bin=$tmp/bin
	go build -ldflags "${TSPLAB_LDFLAGS:-}" -o "$bin/tsplab" .
	go build -ldflags "${TSPLAB_LDFLAGS:-}" -o "$bin/tsp" ./cmd/tsp
fi
go tool fyne package -os linux -release --exe "$bin/tsplab"
# tsp goes beside the app in the archive and in its installing Makefile.
mkdir -p "$tmp/pkg"
tar -xJf "TSP Lab.tar.xz" -C "$tmp/pkg"
rm -f "TSP Lab.tar.xz"
app=$(cd "$tmp/pkg" && find . -path '*/bin/*' -type f | head -n 1)
[ -n "$app" ] || { echo "package: no binary in fyne's archive" >&2; exit 1; }
cp "$bin/tsp" "$tmp/pkg/$(dirname "$app")/tsp"
# fyne's archive is NAME/Makefile and NAME/usr/local/...: each install and
# rm line of the app gains its twin for tsp.
mk=$tmp/pkg/${app%/usr/local/bin/*}/Makefile
[ -f "$mk" ] || { echo "package: no Makefile beside fyne's usr/ folder" >&2; exit 1; }
awk '{ print } /^\t(install|-rm) .*bin\/\$\(Exec\)/ { line = $0; gsub(/bin\/\$\(Exec\)/, "bin/tsp", line); print line }' "$mk" >"$mk.new"
mv "$mk.new" "$mk"
[ "$(grep -c 'bin/tsp' "$mk")" -ge 4 ] || { echo "package: could not add tsp to fyne's Makefile" >&2; exit 1; }
mkdir -p dist
tar -C "$tmp/pkg" --owner=0 --group=0 -cJf dist/tsplab-linux-amd64.tar.xz .
echo "package: dist/tsplab-linux-amd64.tar.xz:"
tar -tJf dist/tsplab-linux-amd64.tar.xz | sed 's/^/  /'
