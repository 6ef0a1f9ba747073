#!/usr/bin/env bash
# Builds a Linux desktop package of TSP Lab (tar.xz with the binary, a
# .desktop entry and the icon) into dist/, with the `fyne` command that
# ships inside fyne.io/fyne/v2 v2.7.1. `fyne package` bumps Build in
# FyneApp.toml, so the file is restored afterwards.
set -euo pipefail
cd "$(dirname "$0")/.."
backup=$(mktemp)
cp FyneApp.toml "$backup"
trap 'cp "$backup" FyneApp.toml; rm -f "$backup"' EXIT
go tool fyne package -os linux -release
mkdir -p dist
mv "TSP Lab.tar.xz" dist/tsplab-linux-amd64.tar.xz
echo "package: dist/tsplab-linux-amd64.tar.xz"
