#!/usr/bin/env bash
# bitcheck.sh BUILD_DIR — fingerprints of results that a refactoring must
# leave bit for bit the same: every example project's run (its CSV, all
# columns at full precision), the chain (N = 100) and the 5 x 5 lattice (the
# benchmarks' final states, timings left out). Compare two trees with
#   diff <(scripts/bitcheck.sh old/build) <(scripts/bitcheck.sh build)
set -euo pipefail
B=$(cd "$1" && pwd)
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for p in "$ROOT"/projects/*.motus.txt; do
    n=$(basename "$p" .motus.txt)
    if "$B/app/motus-cli" run "$p" --out "$tmp/$n.csv" > /dev/null 2> "$tmp/$n.err"; then
        echo "$n $(sha256sum < "$tmp/$n.csv" | cut -c1-16)"
    else
        echo "$n failed: $(head -c 200 "$tmp/$n.err")"
    fi
done
strip() { tr ' ' '\n' | grep -vE '^(wall|cpu|per_|compile_s)' | tr '\n' ' '; echo; }
"$B/bench/chain" 100 1e-3 1 | strip
"$B/bench/grid" 5 5 1e-3 0.5 2> /dev/null | strip
