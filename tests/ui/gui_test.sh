#!/bin/sh
# gui_test.sh — one GUI test under Xvfb (ctest, tests/ui/CMakeLists.txt):
# runs the real application on a model with --run --screenshot --shot-info
# --quit-after-run, requires exit status 0, then checks the screenshot.
#   gui_test.sh MOTUS CHECKER OUTDIR NAME MODEL [motus options] [-- checker options]
# The screenshot and its description stay in OUTDIR as test artifacts.
set -eu
motus=$1 checker=$2 out=$3 name=$4 model=$5
shift 5
app_args=""
while [ $# -gt 0 ] && [ "$1" != "--" ]; do app_args="$app_args $1"; shift; done
[ $# -gt 0 ] && shift
mkdir -p "$out"
png="$out/$name.png" info="$out/$name.txt"
rm -f "$png" "$info"
err="$out/$name.err"
run_app() {
    # shellcheck disable=SC2086
    xvfb-run -a -s "-screen 0 1280x800x24" "$motus" --run --quit-after-run --screenshot "$png" --shot-info "$info" \
        $app_args "$model" 2> "$err"
}
# LeakSanitizer's own tracer sometimes crashes while it stops the app's (llvmpipe) threads at exit
# ("LeakSanitizer has encountered a fatal error", about 1 run in 7 under ASan): that is the tool
# failing, not a leak (a leak is reported as "detected memory leaks"), so the run is tried once more.
if ! run_app; then
    cat "$err" >&2
    grep -q "LeakSanitizer has encountered a fatal error" "$err" || exit 1
    echo "LeakSanitizer itself failed: running once more" >&2
    run_app || { cat "$err" >&2; exit 1; }
fi
cat "$err" >&2
echo "screenshot: $png"
cat "$info"
"$checker" "$png" "$info" "$@"
