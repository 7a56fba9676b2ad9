#!/bin/sh
# railcar.sh — wall time per simulated second of projects/railcar-flex.motus.txt
# for a rigid carbody and 6, 24, 70 modes (the example's study, docs/examples.md).
#
#   sh bench/railcar.sh [BUILD_DIR] [UNTIL]      (defaults: build, 12)
#
# Each carbody runs twice with the example's solver (rk4, 1 ms, output every
# 5 ms): to 5 ms (the set-up: reading, the carbody's reduction, the start) and
# to UNTIL; the time per simulated second is their difference over UNTIL.
# Run it on an idle machine: the numbers are wall times.
set -eu
SRC=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${1:-build}
UNTIL=${2:-12}
CLI="$SRC/$BUILD/app/motus-cli"
d=$(mktemp -d); trap 'rm -rf "$d"' EXIT
cp -r "$SRC/projects/meshes" "$d/"
wall() { # wall MODEL UNTIL → seconds
    s=$(date +%s.%N)
    "$CLI" run "$1" --until "$2" --quiet --out "$d/out.csv" > /dev/null
    e=$(date +%s.%N)
    echo "$s $e" | awk '{ printf "%.3f", $2 - $1 }'
}
printf '%-8s %10s %12s %22s\n' carbody "set-up, s" "run, s" "s per simulated s"
for m in 0 6 24 70; do
    sed "s/^parameter modes 6$/parameter modes $m/" "$SRC/projects/railcar-flex.motus.txt" > "$d/car.motus.txt"
    t0=$(wall "$d/car.motus.txt" 0.005)
    t1=$(wall "$d/car.motus.txt" "$UNTIL")
    printf '%-8s %10s %12s %22s\n' "$m" "$t0" "$t1" "$(echo "$t0 $t1 $UNTIL" | awk '{ printf "%.3f", ($2 - $1) / $3 }')"
done
