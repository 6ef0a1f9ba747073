#!/bin/sh
# windows-bench.sh: the cheap protocol of the large-instance floors
# (docs/DECISIONS.md#windows): the best so far at 10, 30 and 60 s of a
# 60-s run, seed 1, of a base binary and a new one on E100k.0 and
# pla85900, two runs at once on the two halves of the cores (taskset),
# each pair once with the base on the first half and once on the second.
#
#   scripts/windows-bench.sh BASE NEW PLA85900.tsp OUTDIR [RUN...]
#
# A RUN is NAME:INSTANCE:BINARY:OPTIONS (options comma-separated, without
# --opt), e.g. win:E100k.0:new:windows=on; without RUNs the
# protocol's four pairs run (base and new with windows=on on both
# instances), about 4 minutes. Each run's progress goes to
# OUTDIR/NAME-INSTANCE.json; the table, gap above the best known tour in
# %, to stdout and OUTDIR/table.txt. The time is set by TIME (default 60),
# the seed by SEED (default 1),
# and the cores a run by CORES (default: half the host's; a run's workers
# are the cores taskset gives it); with more than half, the runs go one
# after the other. On a host of two GPUs, GPU_LO and GPU_HI name the GPU
# (CUDA_VISIBLE_DEVICES) of the runs on the first and the second half.
set -eu
base=$1 new=$2 pla=$3 out=$4
shift 4
time=${TIME:-60}
ncpu=$(nproc)
cores=${CORES:-$((ncpu / 2))}
mkdir -p "$out"
e100k="$out/E100k.0.tsp"
[ -f "$e100k" ] || "$base" gen --kind portgen --n 100000 --seed 100000 --out "$e100k" >/dev/null
best_of() {
	case $1 in
	E100k.0) echo 225784127 ;;
	pla85900) echo 142382641 ;;
	esac
}
file_of() {
	case $1 in
	E100k.0) echo "$e100k" ;;
	pla85900) echo "$pla" ;;
	esac
}
# one NAME:INSTANCE:BINARY:OPTIONS on cpus $2 and GPU $3 (empty: all)
one() {
	cpus=$2 gpu=$3
	name=${1%%:*} rest=${1#*:}
	inst=${rest%%:*} rest=${rest#*:}
	bin=${rest%%:*} opts=${rest#*:}
	case $bin in base) b=$base ;; new) b=$new ;; *) b=$bin ;; esac
	extra=""
	for o in $(echo "$opts" | tr ',' ' '); do extra="$extra --opt $o"; done
	set -- --time "$time" --seed "${SEED:-1}" --optimum "$(best_of "$inst")" --progress json
	# shellcheck disable=SC2086
	env ${gpu:+CUDA_VISIBLE_DEVICES=$gpu} taskset -c "$cpus" "$b" solve "$(file_of "$inst")" "$@" $extra --json "$out/$name-$inst.report.json" \
		>/dev/null 2>"$out/$name-$inst.json" || echo "run $name on $inst failed: $(tail -1 "$out/$name-$inst.json")" >&2
}
lo="0-$((cores - 1))" hi="$cores-$((2 * cores - 1))"
if [ $# -eq 0 ]; then
	set -- base:E100k.0:base: win:E100k.0:new:windows=on win:pla85900:new:windows=on base:pla85900:base:
fi
i=0
while [ $# -gt 0 ]; do
	a=$1
	shift
	if [ $# -gt 0 ] && [ $((2 * cores)) -le "$ncpu" ]; then
		b=$1
		shift
		if [ $((i % 2)) -eq 0 ]; then
			one "$a" "$lo" "${GPU_LO:-}" &
			one "$b" "$hi" "${GPU_HI:-}" &
		else
			one "$a" "$hi" "${GPU_HI:-}" &
			one "$b" "$lo" "${GPU_LO:-}" &
		fi
		wait
	else
		one "$a" "$lo" "${GPU_LO:-}"
	fi
	i=$((i + 1))
done
python3 - "$out" "$time" <<'EOF' | tee "$out/table.txt"
import glob, json, os, sys
out, T = sys.argv[1], float(sys.argv[2])
best = {"E100k.0": 225784127, "pla85900": 142382641}
print("| run | instance | 10 s | 30 s | %g s | note |" % T)
print("| --- | --- | --- | --- | --- | --- |")
for f in sorted(glob.glob(os.path.join(out, "*.json"))):
    if f.endswith(".report.json"):
        continue
    name, inst = os.path.basename(f)[:-5].split("-", 1)
    at = {10: None, 30: None}
    for line in open(f):
        if not line.startswith("{"):
            continue
        d = json.loads(line)
        if not d.get("best"):
            continue
        for s in at:
            if d["elapsed_s"] <= s:
                at[s] = d["best"]
    note, end = "", None
    try:
        r = json.load(open(f[:-5] + ".report.json"))
        end, note = r["length"], r.get("note", "")[-90:]
        w = r.get("account", {}).get("tour_windows")
        if w:
            note = "windows from %.1f s, %d of %d shortened by %.0f" % (w["from_seconds"], w["improved"], w["searched"], w["gain"])
            if w.get("gpu_searched"):
                note += "; GPU %d of %d by %.0f" % (w.get("gpu_improved", 0), w["gpu_searched"], w.get("gpu_gain", 0))
    except (OSError, ValueError, KeyError):
        pass
    gap = lambda l: "—" if l is None else "%.3f %%" % (100.0 * (l - best[inst]) / best[inst])
    print("| %s | %s | %s | %s | %s | %s |" % (name, inst, gap(at[10]), gap(at[30]), gap(end), note))
EOF
