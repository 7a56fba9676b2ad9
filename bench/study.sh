#!/bin/sh
# study.sh [CLI] [--slurm] — the 144-case vibration study (PER_TASK=C: C cases per array task)
# (projects/vibration-study.motus.txt, docs/studies.md): wall time locally
# with 1 and 2 worker processes (speed-up), and with --slurm through a private
# one-node Slurm cluster (tests/slurm/cluster.sh, root) as one job array of
# at most 2 tasks at a time, the overhead per case against the local run with
# 2 processes, and the responses compared with the local ones.
# OPENBLAS_NUM_THREADS=1, so that one case is one core.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cli=${1:-$here/../build/app/motus-cli}
slurm=${2:-}
export OPENBLAS_NUM_THREADS=1
work=$(mktemp -d)
cleanup() {
    [ -f "$work/cluster/slurmctld.pid" ] && sh "$here/../tests/slurm/cluster.sh" stop "$work/cluster"
    rm -rf "$work"
}
trap cleanup EXIT
model=$here/../projects/vibration-study.motus.txt
now() { date +%s.%N; }
for jobs in 1 2; do
    "$cli" import "$model" "$work/j$jobs.motus" > /dev/null
    t0=$(now)
    "$cli" study "$work/j$jobs.motus" --jobs $jobs --quiet
    t1=$(now)
    eval "wall$jobs=$(echo "$t1 - $t0" | bc)"
done
"$cli" study "$work/j2.motus" --table | cut -d, -f1-10 > "$work/local.csv"
echo "vibration study, 144 cases: 1 process ${wall1} s, 2 processes ${wall2} s, speed-up $(echo "scale=2; $wall1 / $wall2" | bc)"
if [ "$slurm" = --slurm ]; then
    mkdir -p "$work/cluster"
    sh "$here/../tests/slurm/cluster.sh" start "$work/cluster"
    export SLURM_CONF="$work/cluster/slurm.conf"
    "$cli" import "$model" "$work/s.motus" > /dev/null
    t0=$(now)
    "$cli" study "$work/s.motus" --slurm --max-parallel 2 --cases-per-task "${PER_TASK:-1}" > /dev/null
    until "$cli" study "$work/s.motus" --collect > /dev/null; do sleep 0.5; done
    t1=$(now)
    walls=$(echo "$t1 - $t0" | bc)
    "$cli" study "$work/s.motus" --table | cut -d, -f1-10 > "$work/slurm.csv"
    same=identical
    cmp -s "$work/local.csv" "$work/slurm.csv" || same=DIFFERENT
    echo "through Slurm (one node, 2 tasks at a time, ${PER_TASK:-1} cases a task): ${walls} s, overhead per case $(echo "scale=3; ($walls - $wall2) * 2 / 144" | bc) s of a task slot; responses $same"
fi
