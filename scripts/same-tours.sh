#!/bin/bash
# same-tours.sh checks that a change leaves the CPU engines' behaviour as it
# was: deterministic runs (kick, restart or schedule budgets, fixed seed and
# workers) of every CPU engine and of auto's paths by two tsp binaries, the
# tours compared byte for byte (less the COMMENT line, which holds the time)
# and the reports' length, moves and stop flag compared. Runs that reach a
# known optimum stop at the first worker to find it, a race, so the cases
# that could are on a generated instance without one. About 20 minutes on 2 cores.
# Usage: scripts/same-tours.sh BASE NEW [FILTER]   (FILTER: a regexp on the case labels)
#   git worktree add /tmp/base main && (cd /tmp/base && go build -o /tmp/tsp-base ./cmd/tsp)
#   go build -o /tmp/tsp-new ./cmd/tsp && scripts/same-tours.sh /tmp/tsp-base /tmp/tsp-new
set -u
BASE=${1:?usage: same-tours.sh BASE NEW [FILTER]} NEW=${2:?usage: same-tours.sh BASE NEW [FILTER]} FILTER=${3:-.}
T=${TSPLIB_DIR:-$(dirname "$0")/../../shared/tsplib} G=${TMPDIR:-/tmp}/same-tours
[ -f "$T/a280.tsp" ] || { echo "same-tours: TSPLIB instances not found in $T (set TSPLIB_DIR)" >&2; exit 2; }
OUT=$G/out; mkdir -p $OUT
[ -f $G/u700.tsp ] || $BASE gen --kind uniform --n 700 --seed 9 --out $G/u700.tsp
[ -f $G/u100k.tsp ] || $BASE gen --kind uniform --n 100000 --seed 1 --out $G/u100k.tsp
[ -f $G/c100k.tsp ] || $BASE gen --kind clustered --n 100000 --seed 2 --out $G/c100k.tsp
[ -f $G/pc60k.tsp ] || $BASE gen --kind portcgen --n 60000 --seed 3 --out $G/pc60k.tsp
[ -f $G/u200k.tsp ] || $BASE gen --kind uniform --n 200000 --seed 4 --out $G/u200k.tsp
[ -f $G/u2m.tsp ] || $BASE gen --kind uniform --n 2000000 --seed 5 --out $G/u2m.tsp
W="--backend cpu --workers 2"
cases=(
# every CPU engine on a280 (auto below 1,000 cities: independent searches with escapes)
"auto-a280-s1|$T/a280.tsp|--algo auto $W --seed 1 --opt kicks=300"
"auto-a280-s2|$T/a280.tsp|--algo auto $W --seed 2 --opt kicks=300"
"auto-a280-s3|$T/a280.tsp|--algo auto $W --seed 3 --opt kicks=300"
"auto-a280-w1|$T/a280.tsp|--algo auto --backend cpu --workers 1 --seed 4 --opt kicks=300"
# (runs that reach a known optimum stop when the first worker finds it, a
# race between workers: these run on an instance without a known optimum)
"auto-u700-w3|$G/u700.tsp|--algo auto --backend cpu --workers 3 --seed 4 --opt kicks=300"
"auto-u700-stale|$G/u700.tsp|--algo auto $W --seed 5 --opt kicks=2000 --opt stale=1"
"auto-u700-s1|$G/u700.tsp|--algo auto $W --seed 1 --opt kicks=500"
"auto-a280-ends|$T/a280.tsp|--algo auto $W --seed 1 --opt kicks=300 --ends 1,100"
"2opt-ils-a280-s1|$T/a280.tsp|--algo 2opt-ils $W --seed 1 --opt kicks=300"
"2opt-ils-a280-s2|$T/a280.tsp|--algo 2opt-ils $W --seed 2 --opt kicks=300 --opt sync=50"
"2opt-ils-a280-quad|$T/a280.tsp|--algo 2opt-ils $W --seed 3 --opt kicks=300 --opt candidates=quadrant"
"2opt-ils-a280-union|$T/a280.tsp|--algo 2opt-ils $W --seed 3 --opt kicks=300 --opt candidates=union"
"3opt-ils-a280-s1|$T/a280.tsp|--algo 3opt-ils $W --seed 1 --opt kicks=300"
"3opt-ils-a280-rkbi|$T/a280.tsp|--algo 3opt-ils $W --seed 2 --opt kicks=300 --opt pivot=rkbi"
"3opt-ils-u700-lk5|$G/u700.tsp|--algo 3opt-ils $W --seed 3 --opt kicks=300 --opt move=lk5"
"2opt-climb-a280-s1|$T/a280.tsp|--algo 2opt-climb $W --seed 1 --opt restarts=6"
"2opt-climb-a280-s2|$T/a280.tsp|--algo 2opt-climb $W --seed 2 --opt restarts=6"
"swap-climb-a280-s1|$T/a280.tsp|--algo swap-climb $W --seed 1 --opt restarts=4"
"swap-climb-a280-s2|$T/a280.tsp|--algo swap-climb $W --seed 2 --opt restarts=4"
"sa-a280-s1|$T/a280.tsp|--algo sa $W --seed 1"
"sa-a280-s2|$T/a280.tsp|--algo sa $W --seed 2"
"pssm-a280-s1|$T/a280.tsp|--algo pssm $W --seed 1"
"pssm-a280-s2|$T/a280.tsp|--algo pssm $W --seed 2"
"pspm-a280-s1|$T/a280.tsp|--algo pspm $W --seed 1 --sweeps 1"
"sspm-a280-s1|$T/a280.tsp|--algo sspm $W --seed 1"
"sspm-a280-s2|$T/a280.tsp|--algo sspm $W --seed 2"
"pop-a280-s1|$T/a280.tsp|--algo pop $W --seed 1 --opt kicks=100 --opt rounds=4"
"pop-u700-s2|$G/u700.tsp|--algo pop $W --seed 2 --opt kicks=100 --opt rounds=4"
"pop-pr1002-s1|$T/pr1002.tsp|--algo pop $W --seed 1 --opt kicks=50 --opt rounds=3"
"sa-pr1002-s1|$T/pr1002.tsp|--algo sa $W --seed 1 --sweeps 1"
"2opt-climb-pr1002|$T/pr1002.tsp|--algo 2opt-climb $W --seed 1 --opt restarts=2"
# auto from 1,000 cities: alpha lists, the merged search, its first descent on all workers
"auto-pr1002-s1|$T/pr1002.tsp|--algo auto $W --seed 1 --opt kicks=100"
"auto-pr1002-s2|$T/pr1002.tsp|--algo auto $W --seed 2 --opt kicks=100"
"auto-pr1002-s3|$T/pr1002.tsp|--algo auto $W --seed 3 --opt kicks=100"
"auto-pr1002-w1|$T/pr1002.tsp|--algo auto --backend cpu --workers 1 --seed 1 --opt kicks=100"
"auto-pr1002-w3|$T/pr1002.tsp|--algo auto --backend cpu --workers 3 --seed 1 --opt kicks=100"
"auto-pr1002-ends|$T/pr1002.tsp|--algo auto $W --seed 1 --opt kicks=100 --ends 5,500"
"auto-pr1002-best|$T/pr1002.tsp|--algo auto $W --seed 1 --opt kicks=100 --opt share=best"
"2opt-ils-pr1002-merge|$T/pr1002.tsp|--algo 2opt-ils $W --seed 1 --opt kicks=200 --opt share=merge --opt sync=20"
"2opt-ils-pr1002-mixed|$T/pr1002.tsp|--algo 2opt-ils $W --seed 1 --opt kicks=200 --opt candidates=mixed --opt sync=50"
"2opt-ils-pr1002-alpha|$T/pr1002.tsp|--algo 2opt-ils $W --seed 2 --opt kicks=200 --opt candidates=alpha"
"3opt-ils-pr1002-s1|$T/pr1002.tsp|--algo 3opt-ils $W --seed 1 --opt kicks=200"
"auto-fnl4461-s1|$T/fnl4461.tsp|--algo auto $W --seed 1 --opt kicks=50"
"auto-fnl4461-s2|$T/fnl4461.tsp|--algo auto $W --seed 2 --opt kicks=50"
"auto-fnl4461-w3|$T/fnl4461.tsp|--algo auto --backend cpu --workers 3 --seed 1 --opt kicks=50"
"auto-rl5915-s1|$T/rl5915.tsp|--algo auto $W --seed 1 --opt kicks=50"
"auto-rl5915-s2|$T/rl5915.tsp|--algo auto $W --seed 2 --opt kicks=50"
"auto-usa13509-s1|$T/usa13509.tsp|--algo auto $W --seed 1 --opt kicks=20"
"auto-usa13509-s2|$T/usa13509.tsp|--algo auto $W --seed 2 --opt kicks=20"
"3opt-ils-usa13509|$T/usa13509.tsp|--algo 3opt-ils $W --seed 1 --opt kicks=100"
"2opt-ils-usa13509|$T/usa13509.tsp|--algo 2opt-ils $W --seed 1 --opt kicks=100"
# the partition search forced on below 50,000 cities: shapes, moves, layouts
"part-rl5915-path|$T/rl5915.tsp|--algo auto $W --seed 1 --opt kicks=3000 --opt partition=on --opt partshape=path --opt partkicks=0.2"
"part-rl5915-region|$T/rl5915.tsp|--algo auto $W --seed 1 --opt kicks=3000 --opt partition=on --opt partshape=region --opt partkicks=0.2"
"part-rl5915-alt|$T/rl5915.tsp|--algo auto $W --seed 2 --opt kicks=3000 --opt partition=on --opt partshape=alternate --opt partkicks=0.2"
"part-rl5915-auto|$T/rl5915.tsp|--algo auto $W --seed 3 --opt kicks=4000 --opt partition=on --opt partkicks=0.2"
"part-rl5915-lk5|$T/rl5915.tsp|--algo auto $W --seed 1 --opt kicks=3000 --opt partition=on --opt move=lk5 --opt partkicks=0.2"
"part-rl5915-adapt|$T/rl5915.tsp|--algo auto $W --seed 1 --opt kicks=4000 --opt partition=on --opt move=adapt --opt partkicks=0.2"
"part-rl5915-seg|$T/rl5915.tsp|--algo auto $W --seed 1 --opt kicks=3000 --opt partition=on --opt partseg=500 --opt partkicks=0.2"
"part-rl5915-w3|$T/rl5915.tsp|--algo auto --backend cpu --workers 3 --seed 1 --opt kicks=2000 --opt partition=on --opt partkicks=0.2"
"part-rl5915-deep|$T/rl5915.tsp|--algo auto $W --seed 1 --opt kicks=4000 --opt partition=on --opt partdeep=0.1 --opt partkicks=0.2"
"part-rl5915-ends|$T/rl5915.tsp|--algo auto $W --seed 1 --opt kicks=3000 --opt partition=on --opt partkicks=0.2 --ends 10,3000"
"part-fnl4461-quad|$T/fnl4461.tsp|--algo auto $W --seed 1 --opt kicks=2000 --opt partition=on --opt candidates=quadrant --opt partkicks=0.2"
"part-fnl4461-alpha|$T/fnl4461.tsp|--algo auto $W --seed 1 --opt kicks=2000 --opt partition=on --opt candidates=alpha --opt partkicks=0.2"
"part-pr1002-rep|$T/pr1002.tsp|--algo auto --backend cpu --workers 4 --seed 1 --opt kicks=500 --opt partition=on --opt partkicks=0.5"
"part-2opt-ils-rl5915|$T/rl5915.tsp|--algo 2opt-ils $W --seed 1 --opt kicks=3000 --opt partition=on --opt partkicks=0.2"
"part-3opt-ils-rl5915|$T/rl5915.tsp|--algo 3opt-ils $W --seed 1 --opt kicks=3000 --opt partition=on --opt partkicks=0.2"
"part-usa13509|$T/usa13509.tsp|--algo auto $W --seed 1 --opt kicks=5000 --opt partition=on --opt partkicks=0.1"
# auto from 50,000 cities: the partition search (mixed lists, adapt), clustered instances (cluster pass)
"auto-u100k-s1|$G/u100k.tsp|--algo auto $W --seed 1 --opt kicks=10000 --opt partkicks=0.05"
"auto-u100k-s2|$G/u100k.tsp|--algo auto $W --seed 2 --opt kicks=10000 --opt partkicks=0.05"
"auto-u100k-def|$G/u100k.tsp|--algo auto $W --seed 1 --opt kicks=20000"
"auto-u100k-region|$G/u100k.tsp|--algo auto $W --seed 3 --opt kicks=10000 --opt partkicks=0.05 --opt partshape=region"
"auto-c100k-s1|$G/c100k.tsp|--algo auto $W --seed 1 --opt kicks=10000 --opt partkicks=0.05"
"auto-c100k-s2|$G/c100k.tsp|--algo auto $W --seed 2 --opt kicks=15000 --opt partkicks=0.05"
"auto-pc60k-s1|$G/pc60k.tsp|--algo auto $W --seed 1 --opt kicks=10000 --opt partkicks=0.05"
"auto-pc60k-s2|$G/pc60k.tsp|--algo auto $W --seed 2 --opt kicks=20000 --opt partkicks=0.05"
"2opt-ils-u100k|$G/u100k.tsp|--algo 2opt-ils $W --seed 1 --opt kicks=20"
"3opt-ils-c100k-part|$G/c100k.tsp|--algo 3opt-ils $W --seed 1 --opt kicks=5000 --opt partition=on --opt partkicks=0.05"
# the plan's chain in place of the 5-opt move (over 160,000 cities a worker)
"auto-u200k-chain|$G/u200k.tsp|--algo auto --backend cpu --workers 1 --seed 1 --opt kicks=10000 --opt partkicks=0.02"
"auto-u200k-w2|$G/u200k.tsp|--algo auto $W --seed 1 --opt kicks=5000 --opt partkicks=0.02"
# the crowded set-up (2,000,000 cities a worker): grid lists, curve start, fused rounds
"auto-u2m-crowded|$G/u2m.tsp|--algo auto --backend cpu --workers 1 --seed 1 --opt kicks=600"
)
same=0 diff=0 n=0
for c in "${cases[@]}"; do
  IFS='|' read -r label file args <<<"$c"
  [[ $label =~ $FILTER ]] || continue
  n=$((n+1))
  for b in base new; do
    bin=$BASE; [ $b = new ] && bin=$NEW
    s=$(date +%s%N)
    $bin solve $file $args --quiet --out $OUT/$label.$b.tour --json $OUT/$label.$b.json >/dev/null 2>$OUT/$label.$b.err
    rc=$?
    e=$(( ($(date +%s%N) - s) / 1000000 ))
    sed '/^COMMENT/d' $OUT/$label.$b.tour > $OUT/$label.$b.body 2>/dev/null
    echo "$rc" > $OUT/$label.$b.rc
    eval "t_$b=$e"
  done
  lm() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(j['length'], j['moves_evaluated'], j['stopped'])" $1 2>/dev/null; }
  lb=$(lm $OUT/$label.base.json) ln=$(lm $OUT/$label.new.json)
  if [ "$(cat $OUT/$label.base.rc)" = 0 ] && [ "$(cat $OUT/$label.new.rc)" = 0 ] && [ -s $OUT/$label.base.body ] && cmp -s $OUT/$label.base.body $OUT/$label.new.body && [ "$lb" = "$ln" ]; then
    same=$((same+1)); printf "same  %-24s %-22s %6d ms %6d ms\n" "$label" "$lb" "$t_base" "$t_new"
  else
    diff=$((diff+1)); printf "DIFF  %-24s base[%s] new[%s] rc %s/%s\n" "$label" "$lb" "$ln" "$(cat $OUT/$label.base.rc)" "$(cat $OUT/$label.new.rc)"
  fi
done
echo "runs: $n, identical: $same, different: $diff"
[ $diff = 0 ]
