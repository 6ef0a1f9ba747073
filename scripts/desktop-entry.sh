#!/bin/sh
# desktop-entry.sh prints TSP Lab's freedesktop entry from FyneApp.toml's
# details, for the release archive (Exec and Icon as installed beside it).
set -eu
cd "$(dirname "$0")/.."
get() { sed -n "s/^ *$1 = \"\(.*\)\"/\1/p" FyneApp.toml | head -n 1; }
list() { sed -n "s/^ *$1 = \[\(.*\)\]/\1/p" FyneApp.toml | tr -d '" ' | tr ',' ';'; }
cat <<EOT
[Desktop Entry]
Type=Application
Name=$(get Name)
GenericName=$(get GenericName)
Comment=$(get Comment)
Exec=tsplab
Icon=tsplab
Categories=$(list Categories);
Keywords=$(list Keywords);
EOT
