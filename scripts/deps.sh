#!/usr/bin/env bash
# Installs the system packages TSP Lab needs to build and test on Debian/Ubuntu:
# a C compiler and the X11/OpenGL headers for Fyne (cgo), and Xvfb for the
# real-window test. As root it runs apt-get; otherwise it prints the exact
# command and fails.
set -euo pipefail

pkgs=(gcc pkg-config libgl1-mesa-dev xorg-dev libxkbcommon-dev xvfb xauth)
missing=()
for p in "${pkgs[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

if ! command -v go >/dev/null 2>&1; then
	echo "deps: Go is not on PATH; install Go 1.26 or newer from https://go.dev/dl/ (for example to /usr/local/go) and add /usr/local/go/bin to PATH" >&2
	exit 1
fi

[ ${#missing[@]} -eq 0 ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
	echo "deps: missing packages (${missing[*]}) and no apt-get; install the equivalents of: ${missing[*]}" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages: ${missing[*]}" >&2
	echo "deps: run: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
