#!/bin/sh
# study.sh CLI MODE SOURCE_DIR (ctest cli_study_*): `motus-cli study` on the
# spring-mass study of tests/study/spring-mass.motus.txt, in a directory of
# its own.
#   grid    the 3 x 3 grid (mass x stiffness) in 2 worker processes: every
#           case's x(0.7 s) within 1e-8 of 1 + 0.1 cos(sqrt(k/m) 0.7)
#   resume  the runner killed (SIGKILL) after a few cases, then run again:
#           the cases finished before were not run again (study.log counts
#           the starts), all 9 done in the end
#   fail    a table of cases, one with a negative mass: that case is recorded
#           as failed with its values and the model's message, the others
#           finish, the exit status is 1
#   optimise  the optimisation of spring-opt.motus.txt: the least k with
#           x(0.7 s) <= 1 within 1e-6 of m (pi/1.4)^2, the constraint holding;
#           every evaluation a case in the table; run again, nothing runs
#   opt_resume  the same optimisation with slow cases, its runner killed
#           after a few: run again, the cases recorded are read back (each
#           case started once but the one in flight), the same optimum
#   landing the orifice of projects/landing-gear.motus.txt optimised: the
#           lowest peak strut load with the stroke at most 0.32 m; the
#           constraint holds and is active (the unconstrained optimum would
#           use more stroke)
set -eu
cli=$1
mode=$2
src=$3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*"; exit 1; }
# kill_after N PID: kills the study runner PID once N cases have a result (at most 60 s), with its worker
kill_after() {
    i=0
    while [ "$(ls p.motus.study 2>/dev/null | grep -c '\.result$')" -lt "$1" ]; do
        i=$((i + 1))
        [ $i -lt 600 ] || fail "no case finished in 60 s"
        sleep 0.1
    done
    kill -KILL "$2"
    wait "$2" 2> /dev/null || true
    sleep 0.2 # its worker dies with it (PR_SET_PDEATHSIG)
}

case $mode in
grid)
    "$cli" import "$src/spring-mass.motus.txt" p.motus > /dev/null
    "$cli" study p.motus --jobs 2 --quiet --keep-frames
    "$cli" study p.motus --table --out cases.csv
    cat cases.csv
    # the frames kept of case 4: its own project, whose x at 0.7 s is the response
    "$cli" export-csv p.motus.study/case-000004.motus --columns time,mass.x --out frames4.csv
    x=$(awk -F, '$1 > 0.69999999 && $1 < 0.70000001 { print $2 }' frames4.csv)
    r=$(awk -F, '$1 == 4 { print $5 }' cases.csv)
    echo "case 4: x(0.7) from its kept frames $x, its response $r"
    [ -n "$x" ] && awk -v a="$x" -v b="$r" 'BEGIN { d = a - b; exit !(d < 1e-12 && d > -1e-12) }' ||
        fail "the kept frames and the response differ by more than 1e-12"
    awk -F, 'NR == 1 { next }
        { n++; want = 1 + 0.1 * cos(sqrt($4 / $3) * 0.7); d = $5 - want; if (d < 0) d = -d
          if (d > worst) worst = d
          if ($2 != "ok" || d > 1e-8) { print "FAIL: case " $1 " x(0.7) " $5 " closed form " want; bad = 1 } }
        END { printf "%d cases, largest |x(0.7) - closed form| %.3g (tol 1e-8)\n", n, worst
              if (n != 9) { print "FAIL: " n " cases, not 9"; bad = 1 }
              exit bad }' cases.csv
    # run again: nothing left to do, nothing run
    "$cli" study p.motus --quiet
    [ "$(wc -l < p.motus.study/study.log)" -eq 9 ] || fail "a finished study ran cases again"
    "$cli" study p.motus --status | grep -q "9 cases, 9 ok, 0 failed, 0 to run" || fail "status"
    ;;
resume)
    # slower cases (RK4, small steps) so that the runner can be killed mid-way
    sed 's/^solver .*/solver method rk4 step 2e-5 until 2 every 50/' "$src/spring-mass.motus.txt" > slow.motus.txt
    "$cli" import slow.motus.txt p.motus > /dev/null
    "$cli" study p.motus --jobs 1 --quiet &
    kill_after 3 $!
    "$cli" study p.motus --table --out before.csv
    before=$(($(wc -l < before.csv) - 1))
    files=$(ls p.motus.study | grep -c '\.result$')
    echo "killed after $before cases were stored ($files result files)"
    [ "$before" -ge 2 ] && [ "$before" -lt 9 ] || fail "the runner was not killed mid-way ($before cases stored)"
    "$cli" study p.motus --jobs 2 --quiet
    "$cli" study p.motus --status | tee status.txt
    grep -q "9 cases, 9 ok, 0 failed, 0 to run" status.txt || fail "not every case finished"
    cat p.motus.study/study.log
    for c in $(awk -F, 'NR > 1 { print $1 }' before.csv); do
        n=$(grep -c "^case $c started" p.motus.study/study.log)
        [ "$n" -eq 1 ] || fail "case $c, finished before the kill, was started $n times"
    done
    starts=$(wc -l < p.motus.study/study.log)
    [ "$starts" -le 10 ] || fail "$starts starts for 9 cases (at most one was in flight at the kill)"
    echo "9 cases done with $starts starts; the $before finished before the kill ran once"
    ;;
fail)
    sed -e 's/^study design grid/study design table/' -e 's/^study variable m .*/study variable m levels 1 unit kg/' \
        -e 's/^study variable k .*/study variable k levels 1 unit N\/m\nstudy case 1 100\nstudy case -1 100\nstudy case 2 400/' \
        "$src/spring-mass.motus.txt" > table.motus.txt
    "$cli" import table.motus.txt p.motus > /dev/null
    set +e
    "$cli" study p.motus --jobs 2 --quiet 2> err.txt
    rc=$?
    set -e
    cat err.txt
    [ $rc -eq 1 ] || fail "exit status $rc with a failed case, not 1"
    grep -q "failed: case 1 (m = -1 kg, k = 100 N/m): .*mass" err.txt || fail "the failure does not name the case's values and the mass"
    "$cli" study p.motus --table --out cases.csv
    cat cases.csv
    awk -F, 'NR > 1 { s[$1] = $2 } END { exit !(s[0] == "ok" && s[1] == "failed" && s[2] == "ok") }' cases.csv ||
        fail "cases 0 and 2 ok, case 1 failed"
    ;;
optimise)
    "$cli" import "$src/spring-opt.motus.txt" p.motus > /dev/null
    "$cli" study p.motus --quiet > out.txt
    cat out.txt
    grep -q "every constraint holds at the optimum" out.txt || fail "the constraint does not hold at the optimum"
    k=$(sed -n 's/^optimum: case [0-9]*: k = \([^ ]*\) N\/m.*/\1/p' out.txt)
    n=$(sed -n 's/^optimisation (COBYLA): \([0-9]*\) evaluations.*/\1/p' out.txt)
    awk -v k="$k" 'BEGIN { want = (atan2(0, -1) / 1.4)^2; d = (k - want) / want; if (d < 0) d = -d
        printf "k at the optimum %.10g, closed form m (pi/1.4)^2 = %.10g, rel. diff %.3g (tol 1e-6)\n", k, want, d
        exit !(k != "" && d <= 1e-6) }' || fail "the optimum is not the closed form's"
    "$cli" study p.motus --table --out cases.csv
    [ "$(($(wc -l < cases.csv) - 1))" -eq "$n" ] || fail "the table has not the $n evaluations as cases"
    [ "$(wc -l < p.motus.study/study.log)" -eq "$n" ] || fail "not $n cases started"
    "$cli" study p.motus --quiet | grep -q "0 run now" || fail "run again, the optimisation ran cases"
    [ "$(wc -l < p.motus.study/study.log)" -eq "$n" ] || fail "run again, cases were started"
    "$cli" study p.motus --status | grep -q "optimum: case .*: k = $k N/m" || fail "--status gives another optimum"
    set +e
    "$cli" study p.motus --slurm --dry-run 2> err.txt
    rc=$?
    set -e
    [ $rc -eq 2 ] && grep -q "one after another" err.txt || fail "an optimisation submitted to Slurm is not refused"
    echo "$n evaluations, each a case; run again, none ran"
    ;;
opt_resume)
    sed 's/^solver .*/solver method rk4 step 2e-5 until 0.8 every 50/' "$src/spring-opt.motus.txt" > slow.motus.txt
    "$cli" import slow.motus.txt p.motus > /dev/null
    "$cli" study p.motus --quiet > /dev/null &
    kill_after 4 $!
    "$cli" study p.motus --table --out before.csv
    before=$(($(wc -l < before.csv) - 1))
    echo "killed after $before cases were stored"
    [ "$before" -ge 3 ] || fail "the runner was not killed mid-way ($before cases stored)"
    "$cli" study p.motus --quiet > out.txt
    cat out.txt
    grep -q "every constraint holds at the optimum" out.txt || fail "the resumed optimisation's constraint does not hold"
    k=$(sed -n 's/^optimum: case [0-9]*: k = \([^ ]*\) N\/m.*/\1/p' out.txt)
    awk -v k="$k" 'BEGIN { want = (atan2(0, -1) / 1.4)^2; d = (k - want) / want; if (d < 0) d = -d
        printf "resumed: k at the optimum %.10g, rel. diff to m (pi/1.4)^2 %.3g (tol 1e-6)\n", k, d
        exit !(k != "" && d <= 1e-6) }' || fail "the resumed optimum is not the closed form's"
    for c in $(awk -F, 'NR > 1 { print $1 }' before.csv); do
        n=$(grep -c "^case $c started" p.motus.study/study.log)
        [ "$n" -eq 1 ] || fail "case $c, recorded before the kill, was started $n times"
    done
    n=$(sed -n 's/^optimisation (COBYLA): \([0-9]*\) evaluations.*/\1/p' out.txt)
    starts=$(wc -l < p.motus.study/study.log)
    [ "$starts" -le $((n + 1)) ] || fail "$starts starts for $n cases (at most one was in flight at the kill)"
    echo "$n cases with $starts starts; the $before recorded before the kill ran once"
    ;;
landing)
    "$cli" import "$src/../../projects/landing-gear.motus.txt" p.motus > /dev/null
    "$cli" study p.motus --quiet > out.txt
    cat out.txt
    grep -q "every constraint holds at the optimum" out.txt || fail "the stroke limit does not hold at the optimum"
    best=$(sed -n 's/^optimum: case \([0-9]*\):.*/\1/p' out.txt)
    "$cli" study p.motus --table --out cases.csv
    cut -d, -f1-7 cases.csv
    # columns: case,status,sink,Ao,peak_strut,max_stroke,peak_nz
    awk -F, -v b="$best" 'NR == 1 { next }
        $1 == b { s = $6; load = $5 }
        $2 == "ok" && $6 <= 0.32 { if (min == "" || $5 < min) min = $5 }
        END { printf "optimum: case %s, stroke %.9g m (limit 0.32), peak strut load %.9g N; least load of the cases within the limit %.9g N\n", b, s, load, min
              if (s > 0.32 * (1 + 1e-6)) { print "FAIL: the optimum uses more than 0.32 m of stroke"; exit 1 }
              if (s < 0.32 * (1 - 1e-4)) { print "FAIL: the stroke limit is not active at the optimum"; exit 1 }
              if (load > min) { print "FAIL: a case within the limit has a lower peak load than the optimum"; exit 1 } }' cases.csv
    ;;
*) fail "unknown mode $mode" ;;
esac
echo "cli_study_$mode: OK"
