#!/usr/bin/env bash
# run.sh — builds the libFuzzer targets in build-fuzz/ (clang, MOTUS_FUZZ=ON)
# and runs each for SECONDS (default 20) on its seed corpus: the valid files
# in projects/, projects/meshes/, tests/cli/ and tests/fuzz/seeds/. New
# inputs go to build-fuzz/corpus-TARGET/ (kept between runs), crashes to
# build-fuzz/artifacts/. Exits non-zero when a target finds a crash, a leak,
# a sanitizer report or a timeout. docs/fuzzing.md has the longer run.
#   tests/fuzz/run.sh [SECONDS] [TARGET...]     targets: model msh inp bdf stl obj
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SECS=${1:-20}
shift || true
TARGETS=("$@")
[ ${#TARGETS[@]} -gt 0 ] || TARGETS=(model msh inp bdf stl obj)
B="$ROOT/build-fuzz"
CC=${FUZZ_CC:-clang} cmake -S "$ROOT" -B "$B" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMOTUS_FUZZ=ON >/dev/null
cmake --build "$B" -j "${JOBS:-2}" --target $(printf 'fuzz_%s ' "${TARGETS[@]}") >/dev/null
mkdir -p "$B/artifacts"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
for t in "${TARGETS[@]}"; do
    seeds="$B/seeds-$t"
    rm -rf "$seeds"
    mkdir -p "$seeds" "$B/corpus-$t"
    case $t in
    model) cp "$ROOT"/projects/*.motus.txt "$ROOT"/tests/cli/*.motus.txt "$seeds"/ ;;
    msh) cp "$ROOT"/projects/meshes/*.msh "$ROOT"/tests/cli/*.msh "$seeds"/ ;;
    inp) cp "$ROOT"/tests/cli/*.inp "$seeds"/ ;;
    bdf) cp "$ROOT"/tests/fuzz/seeds/*.bdf "$seeds"/ ;;
    stl) cp "$ROOT"/tests/fuzz/seeds/*.stl "$seeds"/ ;;
    obj) cp "$ROOT"/tests/fuzz/seeds/*.obj "$seeds"/ ;;
    *) echo "run.sh: unknown target '$t'" >&2; exit 2 ;;
    esac
    echo "== fuzz_$t: ${SECS} s"
    rc=0
    "$B/tests/fuzz/fuzz_$t" -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -max_len=1048576 \
        -print_final_stats=1 -artifact_prefix="$B/artifacts/$t-" "$B/corpus-$t" "$seeds" >"$B/fuzz_$t.log" 2>&1 || rc=$?
    grep -E '^#[0-9]+[[:space:]]+(INITED|DONE)|stat::number_of_executed_units|stat::peak_rss_mb' "$B/fuzz_$t.log" || true
    if [ $rc -ne 0 ]; then
        grep -E -A30 'ERROR|runtime error|Test unit written' "$B/fuzz_$t.log" | head -60 >&2 || true
        echo "run.sh: fuzz_$t failed (exit $rc; log $B/fuzz_$t.log, input in $B/artifacts/)" >&2
        exit 1
    fi
done
