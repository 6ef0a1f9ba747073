#!/bin/sh
# xvfb-test.sh — the desktop app in a real X window, without a desktop.
#
#   scripts/xvfb-test.sh                 run TestXvfbScreenshot and TestXvfbLayout (skip when
#                                        Xvfb is missing) and TestScreenshotWithoutDisplay
#                                        (no X server at all)
#   scripts/xvfb-test.sh --screenshots   also write docs/screenshots/single.png, compare.png,
#                                        points.png (a CSV point list, scripts/drill-holes.go)
#                                        and tsp-art.png (the sample portrait, 20,000 points)
#
# TestXvfbScreenshot (main_test.go) builds bin-less: it compiles the app
# into a temporary folder, starts Xvfb on a free display with -fbdir,
# runs `tsplab --open clustered-1000 --run 2s --screenshot OUT.png`, and
# checks the X server's framebuffer and the screenshot for the tour, and
# that the C locale prints no "Fyne error" lines. TestXvfbLayout opens the
# default 1400x880 window, single and compare, and checks where the window
# put the time limit, the seed, Run and the canvases ($TSPLAB_LAYOUT).
# TestScreenshotWithoutDisplay runs the same with DISPLAY unset: Fyne's
# software renderer draws it.
set -eu
cd "$(dirname "$0")/.."
GO=${GO:-go}

$GO test -count=1 -run '^(TestXvfbScreenshot|TestXvfbLayout|TestScreenshotWithoutDisplay)$' -v .

[ "${1:-}" = "--screenshots" ] || exit 0

command -v Xvfb >/dev/null || { echo "xvfb-test.sh: Xvfb is not installed (apt-get install xvfb)" >&2; exit 1; }
mkdir -p bin docs/screenshots
$GO build -o bin/tsplab .

d=90
while [ -e "/tmp/.X$d-lock" ]; do d=$((d + 1)); done
Xvfb ":$d" -screen 0 1600x1000x24 -nolisten tcp >/dev/null 2>&1 &
xpid=$!
trap 'kill $xpid 2>/dev/null || true' EXIT
i=0
while [ ! -e "/tmp/.X11-unix/X$d" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done

# A private config and cache, so saved settings of a real user play no part.
tmp=$(mktemp -d /tmp/tsplab-shots.XXXX)
export DISPLAY=":$d" XDG_CONFIG_HOME="$tmp/config" XDG_CACHE_HOME="$tmp/cache"
bin/tsplab --open clustered-1000 --algo auto --backend cpu --run "${RUN:-8s}" --screenshot docs/screenshots/single.png
bin/tsplab --open clustered-1000 --compare --run "${RUN:-8s}" --screenshot docs/screenshots/compare.png
mkdir "$tmp/pcb"
$GO run scripts/drill-holes.go >"$tmp/pcb/drill-holes.csv"
bin/tsplab --open "$tmp/pcb/drill-holes.csv" --algo auto --backend cpu --size 1600x1000 --run "${RUN:-8s}" --screenshot docs/screenshots/points.png
bin/tsplab --open portrait --points 20000 --algo auto --backend cpu --size 1600x1000 --run "${ART_RUN:-20s}" --screenshot docs/screenshots/tsp-art.png
rm -rf "$tmp"
ls -l docs/screenshots/single.png docs/screenshots/compare.png docs/screenshots/points.png docs/screenshots/tsp-art.png
