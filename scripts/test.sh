#!/usr/bin/env bash
# test.sh — the full check, as run by CI (.ci/run): installs the Debian
# packages, builds Motus in build/ (RelWithDebInfo) and runs the tests, then
# builds again in build-asan/ with AddressSanitizer + UBSan (MOTUS_SANITIZE=ON)
# and runs the same tests there (tests/CMakeLists.txt also runs every example
# project in projects/), then a short libFuzzer run of the file readers
# (tests/fuzz/run.sh). Exits non-zero if any stage fails.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT"
JOBS=$(nproc 2>/dev/null || echo 2)
# OpenBLAS at one thread, as motus and motus-cli set it for themselves
# (app_init_blas): the test programs that link core/ directly get the same,
# and two tests at once do not each start a spinning thread per core.
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1}

STAGE="start"
START=$(date +%s)
# each stage's banner says how long the check has run so far (where CI's time goes)
stage() {
    STAGE="$*"
    printf '\n==== test.sh: %s (at %d s) ====\n' "$STAGE" $(($(date +%s) - START))
}
trap 'rc=$?; [ $rc -eq 0 ] || printf "\n==== test.sh: FAILED in stage: %s (exit %d) ====\n" "$STAGE" "$rc" >&2' EXIT

stage "install dependencies"
bash "$ROOT/scripts/install-deps.sh"

stage "configure build/ (RelWithDebInfo)"
cmake -S "$ROOT" -B "$ROOT/build" -DCMAKE_BUILD_TYPE=RelWithDebInfo

stage "build build/"
cmake --build "$ROOT/build" -j "$JOBS"

# More tests at once than cores: the window's tests mostly wait for the window
# (gui_planar: 3.9 s of CPU in 32 s), so their waits overlap. Measured on two
# cores (2026-12-06): build/ 150 s at -j2, 106 s at -j4; build-asan/ 250 s at
# -j2, 223 s at -j3, 207 s at -j4; every test passed at each.
stage "ctest in build/"
ctest --test-dir "$ROOT/build" --output-on-failure -j4

stage "configure build-asan/ (MOTUS_SANITIZE=ON)"
cmake -S "$ROOT" -B "$ROOT/build-asan" -DCMAKE_BUILD_TYPE=Debug -DMOTUS_SANITIZE=ON

stage "build build-asan/"
cmake --build "$ROOT/build-asan" -j "$JOBS"

# Any sanitizer report fails the test that triggered it.
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=0:halt_on_error=1:detect_leaks=1:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"

stage "ctest in build-asan/"
ctest --test-dir "$ROOT/build-asan" --output-on-failure -j3

# libFuzzer smoke run (tests/fuzz, docs/fuzzing.md): builds build-fuzz/ with
# clang and runs each of the six targets for 10 s on its seeds.
stage "fuzz smoke run in build-fuzz/"
bash "$ROOT/tests/fuzz/run.sh" 10

stage "all stages passed"
