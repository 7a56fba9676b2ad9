#!/bin/sh
# gui_run.sh PROGRAM [ARGS…] — runs a GUI test program under Xvfb (ctest
# gui_*), once more when the first run failed only in ways that are not the
# program's: LeakSanitizer's own tracer crashing ("LeakSanitizer has
# encountered a fatal error", seen while llvmpipe threads exit), or leaks
# whose every stack ends inside GLib or GIO — blocks they allocated that the
# frame-pointer unwinder cannot follow out of them: one 128-byte g_realloc
# now and then at load 6+ on two cores; ten blocks of GIO's (514 bytes) once
# in a clean-clone CI run with three tests at a time (2026-12-06), never twice
# in a row. A leak or failure that repeats fails the test, so a leak of our
# own through g_malloc, whose stack looks the same, still fails.
err=$(mktemp)
trap 'rm -f "$err"' EXIT
run() { xvfb-run -a -s "-screen 0 1280x800x24" "$@" 2> "$err"; }
# every leak's stack is two frames deep, the second in libglib or libgio
glib_only_leaks() {
    grep -q "ERROR: LeakSanitizer: detected memory leaks" "$err" && [ "$(grep -c '#2 ' "$err")" = 0 ] &&
        ! grep -E '^ +#1 ' "$err" | grep -vqE 'lib(glib|gio)-2\.0'
}
if run "$@"; then cat "$err" >&2; exit 0; fi
cat "$err" >&2
if grep -q "LeakSanitizer has encountered a fatal error" "$err" || glib_only_leaks; then
    echo "gui_run.sh: not the program's failure (see above): running once more" >&2
    run "$@"; rc=$?
    cat "$err" >&2
    exit $rc
fi
exit 1
