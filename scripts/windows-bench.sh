#!/bin/sh
# windows-bench.sh: the cheap protocol of the large-instance floors
# (docs/DECISIONS.md#windows) on a GPU host: GPU auto of a base binary and
# a new one, seed 1, best so far at 10 and 30 s and the end, on E100k.0,
# pla85900, C100k.0, C316k.0, E1M.0 (60 s, 16 cores), mona-lisa100k (30 s)
# and E100k.0 and pla85900 on 4 cores (30 s). Runs go as many at once as
# the host has lanes of 16 cores and a GPU (lane i: cores 16i.. and GPU i),
# each base beside its new run; about 5 minutes on four GPUs, 9 on two.
#
#   scripts/windows-bench.sh BASE NEW OUTDIR [RUN...]
#
# A RUN is NAME:INSTANCE:BINARY:TIME:CORES:OPTIONS (BINARY base or new or
# a path, options comma-separated without --opt), e.g.
# new:E100k.0:new:60:16:windows=off. pla85900 is read from $TSPLIB_DIR,
# mona-lisa100k from $TSPLIB_EXTRA_DIR (defaults ../shared/...); the DIMACS
# instances are generated into OUTDIR. Each run's progress goes to
# OUTDIR/NAME-INSTANCE-TIME-CORES.json, the table (gap above the best known
# tour, %) to stdout and OUTDIR/table.txt.
set -eu
base=$1 new=$2 out=$3
shift 3
tsplib=${TSPLIB_DIR:-../shared/tsplib} extra=${TSPLIB_EXTRA_DIR:-../shared/extra}
mkdir -p "$out"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
lanes=$(($(nproc) / 16))
[ "$gpus" -gt 0 ] && [ "$gpus" -lt "$lanes" ] && lanes=$gpus
[ "$lanes" -ge 1 ] || lanes=1
if [ $# -eq 0 ]; then
	for r in E100k.0:60:16 pla85900:60:16 C100k.0:60:16 C316k.0:60:16 E1M.0:60:16 mona-lisa100k:30:16 E100k.0:30:4 pla85900:30:4; do
		set -- "$@" "base:${r%%:*}:base:${r#*:}:" "new:${r%%:*}:new:${r#*:}:"
	done
fi
file_of() {
	case $1 in
	pla85900) echo "$tsplib/pla85900.tsp" ;;
	mona-lisa100k) echo "$extra/mona-lisa100k.tsp" ;;
	*)
		f="$out/$1.tsp"
		if [ ! -f "$f" ]; then
			case $1 in
			E100k.0) "$base" gen --kind portgen --n 100000 --seed 100000 --out "$f" ;;
			E1M.0) "$base" gen --kind portgen --n 1000000 --seed 1000000 --out "$f" ;;
			C100k.0) "$base" gen --kind portcgen --n 100000 --seed 100000 --out "$f" ;;
			C316k.0) "$base" gen --kind portcgen --n 316228 --seed 316228 --out "$f" ;;
			esac >/dev/null
		fi
		echo "$f"
		;;
	esac
}
best_of() {
	case $1 in
	E100k.0) echo 225784127 ;; pla85900) echo 142382641 ;; C100k.0) echo 104617752 ;;
	C316k.0) echo 186870839 ;; E1M.0) echo 713187688 ;; mona-lisa100k) echo 5757191 ;;
	esac
}
# one RUN on lane $2
one() {
	s=$1
	name=${s%%:*} s=${s#*:}
	inst=${s%%:*} s=${s#*:}
	bin=${s%%:*} s=${s#*:}
	time=${s%%:*} s=${s#*:}
	cores=${s%%:*} opts=${s#*:}
	case $bin in base) b=$base ;; new) b=$new ;; *) b=$bin ;; esac
	extra=""
	for o in $(echo "$opts" | tr ',' ' '); do extra="$extra --opt $o"; done
	lo=$((16 * $2))
	log="$out/$name-$inst-$time-$cores"
	# shellcheck disable=SC2086
	CUDA_VISIBLE_DEVICES=$2 taskset -c "$lo-$((lo + cores - 1))" "$b" solve "$(file_of "$inst")" --backend gpu --time "$time" \
		--seed "${SEED:-1}" --optimum "$(best_of "$inst")" --progress json $extra --json "$log.report.json" \
		>/dev/null 2>"$log.json" || echo "run $1 failed: $(tail -1 "$log.json")" >&2
}
for r in "$@"; do # the instances generated before any run
	i=${r#*:}
	file_of "${i%%:*}" >/dev/null
done
while [ $# -gt 0 ]; do
	lane=0
	while [ $lane -lt "$lanes" ] && [ $# -gt 0 ]; do
		one "$1" "$lane" &
		lane=$((lane + 1))
		shift
	done
	wait
done
python3 - "$out" <<'EOF' | tee "$out/table.txt"
import glob, json, os, sys
out = sys.argv[1]
best = {"E100k.0": 225784127, "pla85900": 142382641, "C100k.0": 104617752, "C316k.0": 186870839,
        "E1M.0": 713187688, "mona-lisa100k": 5757191}
print("| run | instance | time, cores | 10 s | 30 s | end | windows |")
print("| --- | --- | --- | --- | --- | --- | --- |")
for f in sorted(glob.glob(os.path.join(out, "*.json")), key=lambda f: os.path.basename(f).split("-", 1)[::-1]):
    if f.endswith(".report.json"):
        continue
    name, rest = os.path.basename(f)[:-5].split("-", 1)
    inst, t, cores = rest.rsplit("-", 2)
    at = {10: None, 30: None}
    for line in open(f):
        if line.startswith("{"):
            d = json.loads(line)
            for s in at:
                if d.get("best") and d["elapsed_s"] <= s:
                    at[s] = d["best"]
    note, end = "", None
    try:
        r = json.load(open(f[:-5] + ".report.json"))
        end = r["length"]
        w = r.get("account", {}).get("tour_windows")
        if w:
            note = "from %.1f s, %d rounds, %d of %d shortened, %d dropped" % (
                w["from_seconds"], w["rounds"], w["improved"], w["searched"], w.get("rejected", 0))
    except (OSError, ValueError, KeyError):
        pass
    gap = lambda l: "—" if l is None else "%.3f" % (100.0 * (l - best[inst]) / best[inst])
    print("| %s | %s | %s s, %s | %s | %s | %s | %s |" % (name, inst, t, cores, gap(at[10]), gap(at[30]), gap(end), note))
EOF
