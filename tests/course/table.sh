#!/bin/sh
# table.sh MOTUS_CLI — prints the table of docs/course.md: every check of every
# model in projects/course/ with the answer, Motus's value and the digits it
# shares with the closed form (run it after changing a problem; paste the output).
cli=$1; here=$(dirname "$0"); course=$here/../../projects/course
echo "| problem | source | quantity | answer | Motus | answer digits matched | digits vs closed form |"
echo "|---|---|---|---|---|---|---|"
for m in "$course"/s*.motus.txt "$course"/k*.motus.txt "$course"/d*.motus.txt; do
  title=$(sed -n 's/^# problem: //p' "$m")
  # a published problem: "Meshchersky 18.9"; one written in the style of a book: "style of Meshchersky: TOPIC"
  topic=$(sed -n '/^# source: /{s/^# source: //; p; q;}' "$m" | sed 's/^in the style of \(.*\), Collection of problems in theoretical mechanics:/style of \1:/
    s/^\(Meshchersky\), Collection of problems.*, problems* \([0-9.–-]*\).*$/\1 \2/')
  sh "$here/check.sh" "$cli" "$m" | while IFS= read -r line; do
    q=${line%%: Motus*}; rest=${line#*: Motus }
    motus=${rest%%,*}; ans=${rest#*answer }; ans=${ans%% (*}
    unit=${motus#* }; motus=${motus%% *}; [ "$unit" = 1 ] && unit=
    # significant digits of the answer as printed (all of them matched when the check passed)
    sig=$(printf '%s\n' "$ans" | sed 's/^-//; s/\.//; s/^0*//'); sig=${#sig}; [ "$sig" -gt 0 ] || sig=1
    case $line in *"closed form"*) dg=${line##*(}; dg=${dg%% digits*};; *) dg="—";; esac
    case $line in *FAIL*) dg="$dg FAIL";; esac
    echo "| $title | $topic | \`$q\` | $ans $unit | $motus | $sig | $dg |"
    title=; topic=
  done
done
