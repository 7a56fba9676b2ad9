#!/bin/sh
# gui_run.sh PROGRAM [ARGS…] — runs a GUI test program under Xvfb (ctest
# gui_*), once more when the first run failed only in ways that are not the
# program's: LeakSanitizer's own tracer crashing ("LeakSanitizer has
# encountered a fatal error", seen while llvmpipe threads exit), or a single
# 128-byte block GLib reallocated that the frame-pointer unwinder cannot
# follow out of libglib (seen now and then at load 6+ on two cores, never
# twice in a row). A leak or failure that repeats fails the test.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
run() { xvfb-run -a -s "-screen 0 1280x800x24" "$@" 2> "$err"; }
if run "$@"; then cat "$err" >&2; exit 0; fi
cat "$err" >&2
if grep -q "LeakSanitizer has encountered a fatal error" "$err" ||
   { [ "$(grep -c 'Direct leak' "$err")" = 1 ] && grep -q "Direct leak of 128 byte(s) in 1 object" "$err" &&
     grep -q "#1 .* in g_realloc .*libglib" "$err" && [ "$(grep -c '#2 ' "$err")" = 0 ]; }; then
    echo "gui_run.sh: not the program's failure (see above): running once more" >&2
    run "$@"; rc=$?
    cat "$err" >&2
    exit $rc
fi
exit 1
