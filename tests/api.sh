#!/bin/sh
# api.sh ROOT (ctest api_public) — ui/, app/, tests/ui/ and bench/gui_bench.c
# use core/ only through its public headers, include/motus/ (docs/design.md
# §5.1): a file there that includes a header of core/ fails the test. The
# public headers themselves include nothing else of core/ either.
#
# tests/core/, tests/fuzz/ and bench/'s solver benchmarks may include core's
# private headers: they are white-box tests and measurements of core itself.
set -eu
root=$1
allowed=""
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
find "$root/core" -name '*.h' -exec basename {} \; | sort -u > "$tmp/core"
status=0
n=0
for f in "$root"/ui/*.c "$root"/ui/*.h "$root"/app/*.c "$root"/app/*.h "$root"/tests/ui/*.c "$root"/tests/ui/*.h \
         "$root"/bench/gui_bench.c "$root"/include/motus/*.h; do
    [ -f "$f" ] || continue
    rel=${f#"$root"/}
    for h in $(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f"); do
        n=$((n + 1))
        case $h in
        motus/*)
            if [ ! -f "$root/include/$h" ]; then
                echo "FAIL: $rel includes $h, which include/motus/ does not have"
                status=1
            fi
            continue ;;
        esac
        case " $allowed " in *" $h "*) continue ;; esac
        if grep -qx "$h" "$tmp/core"; then
            echo "FAIL: $rel includes $h, private to core/: use (or add) a header of include/motus/"
            status=1
        fi
    done
done
[ $status -eq 0 ] && echo "public API: $n includes of ui/, app/, tests/ui/, gui_bench and include/motus/ checked"
exit $status
