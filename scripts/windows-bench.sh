#!/bin/sh
# windows-bench.sh: the cheap protocol of the large-instance floors
# (docs/DECISIONS.md#windows) on a GPU host, seed 1, best so far at 10
# and 30 s and the end: GPU auto of a base binary beside a new one on
# E100k.0, pla85900, C100k.0, C316k.0, E1M.0 (60 s, 16 cores),
# mona-lisa100k (30 s) and E100k.0 and pla85900 on 4 cores (30 s); the
# new binary's GPU auto against its CPU auto on E100k.0 and pla85900 at
# 30 s on 16 and 4 cores (the GPU's share); its 10-s GPU runs of
# fnl4461, ja9847 and vm22775; and its E10M.0 (60 s: wall time and peak
# memory); with $BATCH_TEST (the test binary of gpu/batch, go test -c
# -tags cuda), the 1,000-city batch's benchmark (1,000 instances of 1,000
# cities in 25 s against one 10-s CPU auto run each, the first 40, batch
# seeds 1 and 2). Runs go as many at once as the host has lanes of 16
# cores and a GPU (lane i: cores 16i.. and GPU i), each base beside its
# new run; about 5½ minutes on four GPUs (the 4-H100 host).
#
#   scripts/windows-bench.sh BASE NEW OUTDIR [RUN...]
#
# A RUN is batch (the batch's benchmark) or
# NAME:INSTANCE:BINARY:BACKEND:TIME:CORES:OPTIONS (BINARY base or
# new or a path, BACKEND gpu or cpu, options comma-separated without
# --opt), e.g. new:E100k.0:new:gpu:60:16:windows=off. pla85900 and
# fnl4461 are read from $TSPLIB_DIR, mona-lisa100k, ja9847 and vm22775
# from $TSPLIB_EXTRA_DIR (defaults ../shared/...); the DIMACS instances
# are generated into OUTDIR. Each run's progress goes to
# OUTDIR/NAME-INSTANCE-TIME-CORES.json, the tables (gap above the best
# known tour, %; the GPU's lead over CPU auto as a share of CPU auto's
# gap) to stdout and OUTDIR/table.txt.
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
		set -- "$@" "base:${r%%:*}:base:gpu:${r#*:}:" "new:${r%%:*}:new:gpu:${r#*:}:"
	done
	for r in E100k.0:30:16 pla85900:30:16; do
		set -- "$@" "new:${r%%:*}:new:gpu:${r#*:}:" "cpu:${r%%:*}:new:cpu:${r#*:}:"
	done
	set -- "$@" cpu:E100k.0:new:cpu:30:4: cpu:pla85900:new:cpu:30:4: new:E10M.0:new:gpu:60:16: \
		new:fnl4461:new:gpu:10:16: new:ja9847:new:gpu:10:16: new:vm22775:new:gpu:10:16:
	[ -z "${BATCH_TEST:-}" ] || set -- "$@" batch
fi
file_of() {
	case $1 in
	pla85900 | fnl4461) echo "$tsplib/$1.tsp" ;;
	mona-lisa100k | ja9847 | vm22775) echo "$extra/$1.tsp" ;;
	*)
		f="$out/$1.tsp"
		if [ ! -f "$f" ]; then
			case $1 in
			E100k.0) "$base" gen --kind portgen --n 100000 --seed 100000 --out "$f" ;;
			E1M.0) "$base" gen --kind portgen --n 1000000 --seed 1000000 --out "$f" ;;
			E10M.0) "$base" gen --kind portgen --n 10000000 --seed 10000000 --out "$f" ;;
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
	fnl4461) echo 182566 ;; ja9847) echo 491924 ;; vm22775) echo 569288 ;; *) echo 0 ;;
	esac
}
# one RUN on lane $2; its wall time and peak memory go to its .rusage file
one() {
	s=$1 run=$1 lane=$2
	lo=$((16 * lane))
	if [ "$run" = batch ]; then
		CUDA_VISIBLE_DEVICES=$lane taskset -c "$lo-$((lo + 15))" "$BATCH_TEST" -test.run XXX \
			-test.bench 'Batch/1000x1000/polish=0.50' -test.benchtime 2x >"$out/batch.txt" 2>&1 ||
			echo "the batch's benchmark failed: $(tail -1 "$out/batch.txt")" >&2
		return
	fi
	name=${s%%:*} s=${s#*:}
	inst=${s%%:*} s=${s#*:}
	bin=${s%%:*} s=${s#*:}
	backend=${s%%:*} s=${s#*:}
	time=${s%%:*} s=${s#*:}
	cores=${s%%:*} opts=${s#*:}
	case $bin in base) b=$base ;; new) b=$new ;; *) b=$bin ;; esac
	set -- solve "$(file_of "$inst")" --backend "$backend" --time "$time" --seed "${SEED:-1}" --progress json
	[ "$(best_of "$inst")" = 0 ] || set -- "$@" --optimum "$(best_of "$inst")"
	for o in $(echo "$opts" | tr ',' ' '); do set -- "$@" --opt "$o"; done
	log="$out/$name-$inst-$time-$cores"
	CUDA_VISIBLE_DEVICES=$lane taskset -c "$lo-$((lo + cores - 1))" python3 -c '
import os, resource, subprocess, sys, time
t = time.time()
with open(sys.argv[2], "w") as err:
    rc = subprocess.call(sys.argv[3:], stdout=subprocess.DEVNULL, stderr=err)
with open(sys.argv[1], "w") as f:
    f.write("%.1f %d\n" % (time.time() - t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss // 1024))
sys.exit(rc)' "$log.rusage" "$log.json" "$b" "$@" --json "$log.report.json" || echo "run $run failed: $(tail -1 "$log.json")" >&2
}
for r in "$@"; do # the instances generated before any run
	i=${r#*:}
	[ "$r" = batch ] || file_of "${i%%:*}" >/dev/null
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
python3 - "$out" <<'PY' | tee "$out/table.txt"
import glob, json, os, sys
out = sys.argv[1]
best = {"E100k.0": 225784127, "pla85900": 142382641, "C100k.0": 104617752, "C316k.0": 186870839,
        "E1M.0": 713187688, "mona-lisa100k": 5757191, "fnl4461": 182566, "ja9847": 491924, "vm22775": 569288}
print("| run | instance | time, cores | 10 s | 30 s | end | wall s, peak MB | windows |")
print("| --- | --- | --- | --- | --- | --- | --- | --- |")
ends = {}
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
    note, end, use = "", None, "—"
    try:
        use = "%s, %s" % tuple(open(f[:-5] + ".rusage").read().split())
    except (OSError, TypeError):
        pass
    try:
        r = json.load(open(f[:-5] + ".report.json"))
        end = r["length"]
        w = r.get("account", {}).get("tour_windows")
        if w:
            note = "from %.1f s, %d rounds, %d of %d shortened, %d dropped" % (
                w["from_seconds"], w["rounds"], w["improved"], w["searched"], w.get("rejected", 0))
    except (OSError, ValueError, KeyError):
        pass
    gap = lambda l: "—" if l is None or inst not in best else "%.3f" % (100.0 * (l - best[inst]) / best[inst])
    if end is not None and inst in best:
        ends[(name, inst, t, cores)] = 100.0 * (end - best[inst]) / best[inst]
    print("| %s | %s | %s s, %s | %s | %s | %s | %s | %s |" % (name, inst, t, cores, gap(at[10]), gap(at[30]), gap(end), use, note))
print()
print("| GPU's share | time, cores | CPU auto | GPU auto | lead, share of CPU auto's gap |")
print("| --- | --- | --- | --- | --- |")
for (name, inst, t, cores), c in sorted(ends.items()):
    g = ends.get(("new", inst, t, cores))
    if name == "cpu" and g is not None and c > 0:
        print("| %s | %s s, %s | %.3f | %.3f | %.2f |" % (inst, t, cores, c, g, (c - g) / c))
try:
    import re
    b = open(os.path.join(out, "batch.txt")).read()
    m = re.search(r"([0-9]+) ns/op\s+([-0-9.]+) gap-%", b)
    print()
    print("1,000 × 1,000 cities in 25 s: " + ("%s %% above 10-s CPU auto, %.1f s a batch" % (m.group(2), int(m.group(1)) / 1e9) if m else "no figure: " + b.strip().splitlines()[-1]))
except (OSError, IndexError):
    pass
PY
