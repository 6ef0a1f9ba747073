#!/usr/bin/env bash
# Installs the system packages TSP Lab needs to build and test on Debian/Ubuntu:
# a C compiler and the X11/OpenGL headers for Fyne (cgo), and Xvfb for the
# real-window test. As root it runs apt-get; otherwise it prints the exact
# command and fails. Python 3 with venv, pip and numpy, for the tsplab
# package's tests, is installed the same way as root; otherwise its
# command is printed and the tests skip what they cannot run.
set -euo pipefail

pkgs=(gcc pkg-config libgl1-mesa-dev xorg-dev libxkbcommon-dev xvfb xauth)
pypkgs=(python3 python3-venv python3-pip python3-numpy)
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
missing=()
for p in "${pkgs[@]}"; do
	installed "$p" || missing+=("$p")
done
pymissing=()
if command -v dpkg-query >/dev/null 2>&1; then
	for p in "${pypkgs[@]}"; do
		installed "$p" || pymissing+=("$p")
	done
fi

if ! command -v go >/dev/null 2>&1; then
	echo "deps: Go is not on PATH; install Go 1.26 or newer from https://go.dev/dl/ (for example to /usr/local/go) and add /usr/local/go/bin to PATH" >&2
	exit 1
fi

[ ${#missing[@]} -eq 0 ] && [ ${#pymissing[@]} -eq 0 ] && exit 0
if [ ${#missing[@]} -eq 0 ] && { [ "$(id -u)" -ne 0 ] || ! command -v apt-get >/dev/null 2>&1; }; then
	echo "deps: for the Python package's tests run: sudo apt-get install -y ${pymissing[*]}" >&2
	exit 0
fi
missing+=("${pymissing[@]}")

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
