#!/bin/sh
# slurm-gui.sh CLI GUI_TEST SOURCE_DIR (ctest gui_study_slurm): the 3 x 3
# spring-mass study submitted by motus-cli to a real one-node Slurm cluster
# started here (tests/slurm/cluster.sh), then the Study panel of the window
# (tests/ui/test_study.c, /study/slurm) follows the job with squeue and
# collects it by a click on Collect. Skips (exit 77) where Slurm is not
# installed and cannot be, as cli_study_slurm does.
set -eu
cli=$1
gui=$2
src=$3
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../slurm/with-cluster.sh"
"$cli" import "$src/spring-mass.motus.txt" p.motus > /dev/null
"$cli" study p.motus --slurm --max-parallel 2 --time 00:05:00 --cases-per-task 3
# each attempt (gui_run.sh runs the window once more after a sanitizer's own crash) starts from the
# project as submitted, nothing collected yet: a first attempt's Collect is not there to find
cp p.motus p0.motus
MOTUS_SLURM_PROJECT="$work/p.motus" MOTUS_CLI="$cli" sh "$here/../ui/gui_run.sh" \
    sh -c 'rm -f "$1-wal" "$1-shm" && cp "$2" "$1" && exec "$3"' sh "$work/p.motus" "$work/p0.motus" "$gui"
echo "gui_study_slurm: OK"
