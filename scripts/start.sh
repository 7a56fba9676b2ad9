#!/usr/bin/env bash
# start.sh — installs the Debian packages, builds Motus in build/ and starts
# the application on the bundled slider-crank example
# (build/app/motus projects/slider-crank.motus.txt; press F5 to run it).
# Without a display ($DISPLAY and $WAYLAND_DISPLAY unset) it runs the
# command-line program instead: a model check, then a run with a summary.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
JOBS=$(nproc 2>/dev/null || echo 2)
MODEL="projects/slider-crank.motus.txt"
CLI="build/app/motus-cli"
OUT="build/slider-crank.csv"

echo "==== start.sh: install dependencies ===="
bash scripts/install-deps.sh

echo "==== start.sh: build (build/, RelWithDebInfo) ===="
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j "$JOBS" --target motus-cli motus

if [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; then
    echo
    echo "==== start.sh: build/app/motus $MODEL ===="
    echo "(F5 runs the model, Space plays it back, Ctrl+? lists the shortcuts)"
    exec build/app/motus "$MODEL"
fi
echo
echo "==== start.sh: no display (\$DISPLAY and \$WAYLAND_DISPLAY are unset): the command-line program instead ===="

echo
echo "==== start.sh: motus-cli check $MODEL ===="
"$CLI" check "$MODEL"

echo
echo "==== start.sh: motus-cli run $MODEL --out $OUT ===="
"$CLI" run "$MODEL" --out "$OUT"

echo
echo "==== start.sh: summary of $OUT (min … max over the run) ===="
awk -F, '
NR == 1 {
    n = split("slider.x slide.disp main.angle motor.effort system.kinetic", want, " ")
    for (i = 1; i <= NF; i++) col[$i] = i
    next
}
{
    for (k = 1; k <= n; k++) {
        c = col[want[k]]
        if (!c) continue
        v = $c + 0
        if (!(k in lo) || v < lo[k]) lo[k] = v
        if (!(k in hi) || v > hi[k]) hi[k] = v
    }
    rows++
}
END {
    printf "%d frames\n", rows
    for (k = 1; k <= n; k++)
        if (k in lo) printf "  %-16s %12.6g … %-12.6g\n", want[k], lo[k], hi[k]
}' "$OUT"
echo
echo "Plot or inspect $OUT; column meanings: docs/model-format.md, section \"Result columns\"."
