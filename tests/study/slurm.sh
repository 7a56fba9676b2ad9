#!/bin/sh
# slurm.sh CLI SOURCE_DIR (ctest cli_study_slurm): the spring-mass study
# submitted to a real one-node Slurm cluster started here
# (tests/slurm/cluster.sh) as one job array, collected into the project:
# every case's responses are the local run's, bit for bit. Then a project
# with two cases missing (deleted from its table after a local run) submits
# exactly those two, and collects to 9. Skips (exit 77) only when Slurm is not
# installed and cannot be (not root, or apt-get fails).
set -eu
cli=$1
src=$2
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../slurm/with-cluster.sh"
fail() { echo "FAIL: $*"; exit 1; }

# collect until every case is in (at most 120 s); tasks name their job
# (slurm JOB_TASK) in the table
collect_all() {
    i=0
    until "$cli" study "$1" --collect > collect.txt; do
        i=$((i + 1))
        [ $i -lt 240 ] || { cat collect.txt; squeue || true; fail "$1: the array did not finish in 120 s"; }
        sleep 0.5
    done
    cat collect.txt
}

"$cli" import "$src/spring-mass.motus.txt" local.motus > /dev/null
"$cli" import "$src/spring-mass.motus.txt" cluster.motus > /dev/null
"$cli" study local.motus --jobs 2 --quiet
"$cli" study cluster.motus --slurm --dry-run --max-parallel 2 --time 00:05:00 > dry.sbatch
grep -q '^#SBATCH --array=0-8%2$' dry.sbatch || fail "the dry run's script has no array 0-8%2"
[ ! -e cluster.motus.study/submit-1.sbatch ] || fail "--dry-run wrote a script"
# three cases a task: an array of 3
"$cli" study cluster.motus --slurm --max-parallel 2 --time 00:05:00 --cases-per-task 3 | tee submit.txt
grep -q "9 cases submitted as Slurm job [0-9]* (array 0-2)" submit.txt || fail "not submitted as an array of 3"
collect_all cluster.motus
"$cli" study local.motus --table | cut -d, -f1-9 > local.csv
"$cli" study cluster.motus --table | cut -d, -f1-9 > cluster.csv
cmp local.csv cluster.csv || { diff local.csv cluster.csv; fail "the cluster's responses differ from the local run's"; }
[ "$("$cli" study cluster.motus --table | grep -c ',slurm [0-9]*_[0-2],')" -eq 9 ] || fail "the cases do not name their Slurm tasks 0-2"
"$cli" study cluster.motus --slurm | grep -q "no case to submit" || fail "a finished study submitted again"
echo "9 cases on Slurm, responses identical to the local run's"

# only what is missing is submitted again
"$cli" import "$src/spring-mass.motus.txt" part.motus > /dev/null
"$cli" study part.motus --jobs 2 --quiet
sqlite3 part.motus "DELETE FROM study_cases WHERE idx IN (2, 7)"
rm -f part.motus.study/case-000002.result part.motus.study/case-000007.result
"$cli" study part.motus --collect | grep -q "missing: case 7 (never submitted)" || fail "case 7 not reported missing"
"$cli" study part.motus --slurm | grep -q "2 cases submitted" || fail "not the 2 missing cases submitted"
[ "$(grep -v '^#' part.motus.study/submit-1.cases | tr '\n' ' ')" = "2 7 " ] || fail "submitted: $(cat part.motus.study/submit-1.cases)"
collect_all part.motus
"$cli" study part.motus --table | cut -d, -f1-9 > part.csv
cmp local.csv part.csv || fail "the resubmitted cases differ"
echo "cli_study_slurm: OK"
