#!/bin/sh
# check.sh MOTUS_CLI MODEL — checks one course problem (projects/course/,
# docs/course.md). Every line of the model of the form
#   # check: ANALYSIS COLUMN at T answer VALUE UNIT [closed EXPRESSION]
# is one check: the analysis (run, kinematics, statics or modes) is run once,
# COLUMN is read at time T (a number, or `end` for the last frame; for modes
# COLUMN is the mode number N and the value its frequency in Hz, or N/omega
# for the circular frequency in 1/s, N/period for the period in s), and
#  - rounded to the digits of VALUE (as printed in the answer) it must give
#    VALUE: |motus - VALUE| <= half a unit of VALUE's last digit;
#  - with `closed`, it must agree with the closed form EXPRESSION (evaluated
#    by awk: + - * / ^, sqrt sin cos atan2 exp log, pi) to a relative 1e-8.
# Prints one line per check; exits 1 when a check fails or when the model
# lacks one of the comment keys of docs/course.md (check among them).
cli=$1; model=$2
[ -x "$cli" ] && [ -r "$model" ] || { echo "usage: check.sh MOTUS_CLI MODEL"; exit 2; }
dir=$(mktemp -d) || exit 2
trap 'rm -rf "$dir"' EXIT
# the comment layout a lesson mode reads (docs/course.md): every key present
for key in problem topic source en ru answer ответ show check; do
  grep -q "^# $key: " "$model" || { echo "FAIL: no '# $key:' line in $model (docs/course.md, comment layout)"; exit 1; }
done
grep '^# check:' "$model" | sed 's/^# check: *//' > "$dir/checks"
fail=0
while read -r analysis column at t answer value unit rest; do
  [ "$at" = at ] && [ "$answer" = answer ] || { echo "FAIL: bad check line: $analysis $column $at $t $answer $value $unit $rest"; exit 1; }
  closed=
  case $rest in closed\ *) closed=${rest#closed };; "") ;; *) echo "FAIL: bad check tail '$rest'"; exit 1;; esac
  out=$dir/$analysis.txt
  if [ ! -e "$out" ]; then
    case $analysis in
      run|kinematics|statics) "$cli" "$analysis" "$model" --out "$dir/$analysis.csv" < /dev/null > "$out" 2>&1 ;;
      modes) "$cli" modes "$model" < /dev/null > "$out" 2>&1 ;;
      *) echo "FAIL: unknown analysis '$analysis'"; exit 1 ;;
    esac || { cat "$out"; echo "FAIL: motus-cli $analysis $model"; exit 1; }
  fi
  label="$column at $t"
  if [ "$analysis" = modes ]; then
    # N: the frequency of mode N in Hz; N/omega: its circular frequency 2πf in
    # 1/s; N/period: its period 1/f in s (the forms a problem book prints)
    mode=${column%%/*}; form=${column#"$mode"}
    label="mode $column"
    got=$(awk -v n="$mode" -v form="$form" '/^ mode +frequency/ {on = 1; next}
      on && $1 == n { f = $2; if (form == "/omega") f = 2 * atan2(0, -1) * f; else if (form == "/period") f = 1 / f
        else if (form != "") exit; printf "%.17g\n", f; exit }' "$out")
  else
    got=$(awk -F, -v c="$column" -v t="$t" '
      NR == 1 { for (i = 1; i <= NF; i++) if ($i == c) k = i; next }
      { last = $k; if (t != "end" && (($1 - t) < 1e-9 && (t - $1) < 1e-9)) { print $k; found = 1; exit } }
      END { if (!found && t == "end" && k) print last }' "$dir/$analysis.csv")
  fi
  [ -n "$got" ] || { echo "FAIL: no value of '$column' at $t from $analysis"; exit 1; }
  line=$(awk -v m="$got" -v a="$value" -v u="$unit" -v c="$label" '
    BEGIN {
      d = a; sub(/^[-+]/, "", d); n = index(d, "."); dec = n ? length(d) - n : 0
      tol = 0.5 * 10 ^ (-dec) * (1 + 1e-9); e = m - a; if (e < 0) e = -e
      printf "%s: Motus %.10g %s, answer %s (to %g) %s", c, m, u, a, 0.5 * 10 ^ (-dec), (e <= tol ? "ok" : "FAIL")
    }')
  if [ -n "$closed" ]; then
    cf=$(awk "BEGIN { pi = atan2(0, -1); printf \"%.17g\", ($closed) }")
    line="$line$(awk -v m="$got" -v x="$cf" 'BEGIN {
      e = m - x; if (e < 0) e = -e; s = x < 0 ? -x : x; r = s > 0 ? e / s : e
      dg = r > 0 ? -log(r) / log(10) : 17; if (dg > 17) dg = 17
      printf ", closed form %.12g: relative error %.2g (%d digits) %s", x, r, int(dg), (r <= 1e-8 ? "ok" : "FAIL") }')"
  fi
  echo "$line"
  case $line in *FAIL*) fail=1 ;; esac
done < "$dir/checks"
exit $fail
