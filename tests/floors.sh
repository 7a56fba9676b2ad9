#!/bin/sh
# floors.sh CORE_DIR LIB_model LIB_flex LIB_engine LIB_analysis LIB_store LIB_edit
# (ctest core_floors) — core/'s floors are used only downward (core/CMakeLists.txt):
# no floor's library calls a function or uses data defined by a floor above it
# (floors in order: model, flex, engine, analysis, store, edit), and no file of
# a floor includes a header of a floor above it. The public headers in
# include/motus/ belong to the floor that implements them (the list below;
# a new header must be added to it).
set -eu
core=$1
shift
floors="model flex engine analysis store edit"
public="model:model.h model:units.h model:error.h model:schema.h edit:edit.h store:store.h store:project.h engine:run.h engine:results.h flex:fe.h flex:mesh.h flex:reduce.h flex:flex.h flex:flexview.h
analysis:analysis.h analysis:check.h analysis:signal.h analysis:derived.h analysis:study_run.h analysis:teach.h model:study.h model:lesson.h edit:flexedit.h edit:edit_turn.h"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
i=0
for f in $floors; do
    i=$((i + 1))
    lib=$(eval echo "\${$i}")
    nm --defined-only -g "$lib" 2>/dev/null | awk '$2 ~ /^[TDBR]$/ {print $3}' | sort -u > "$tmp/def.$i"
    nm -u "$lib" 2>/dev/null | awk '{print $NF}' | sort -u > "$tmp/use.$i"
    { ls "$core/$f" | grep '\.h$'
      for p in $public; do [ "${p%%:*}" = "$f" ] && echo "motus/${p#*:}"; done; } | sort -u > "$tmp/hdr.$i"
done
status=0
for h in "$core"/../include/motus/*.h; do
    case " $(echo $public) " in
    *":$(basename "$h") "*) ;;
    *) echo "FAIL: include/motus/$(basename "$h") has no floor in tests/floors.sh"; status=1 ;;
    esac
done
i=0
for f in $floors; do
    i=$((i + 1))
    j=$i
    for g in $(echo "$floors" | cut -d' ' -f$((i + 1))-); do
        j=$((j + 1))
        [ "$g" = "$f" ] && continue
        calls=$(comm -12 "$tmp/use.$i" "$tmp/def.$j" | tr '\n' ' ')
        if [ -n "$calls" ]; then
            echo "FAIL: core/$f uses core/$g, a floor above it: $calls"
            status=1
        fi
        for h in $(cat "$tmp/hdr.$j"); do
            hits=$(grep -l "#include \"$h\"" "$core/$f"/*.c "$core/$f"/*.h 2>/dev/null | tr '\n' ' ' || true)
            if [ -n "$hits" ]; then
                echo "FAIL: $hits include $h of core/$g, a floor above"
                status=1
            fi
        done
    done
done
n=$(cat "$tmp"/use.* | wc -l)
[ $status -eq 0 ] && echo "core floors: $floors; $n symbol uses checked, all downward"
exit $status
