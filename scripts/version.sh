#!/bin/sh
# Prints the version the builds are stamped with (Makefile, release.sh,
# wheel.sh): `git describe` of the newest tag (v1.2.0, v1.2.0-3-g<commit>,
# -dirty); in a clone without tags the version FyneApp.toml gives, as a
# development build of it (v0.1.0-dev-g<commit>[-dirty]); "dev" outside git.
set -u
cd "$(dirname "$0")/.."
if v=$(git describe --tags --abbrev=12 --dirty 2>/dev/null); then
	echo "$v"
	exit 0
fi
if h=$(git rev-parse --short=12 HEAD 2>/dev/null); then
	base=$(sed -n 's/^[[:space:]]*Version[[:space:]]*=[[:space:]]*"\([^"]*\)".*/\1/p' FyneApp.toml | head -n 1)
	dirty=
	git diff --quiet HEAD -- 2>/dev/null || dirty=-dirty
	echo "v${base:-0.0.0}-dev-g$h$dirty"
	exit 0
fi
echo dev
