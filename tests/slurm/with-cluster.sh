# with-cluster.sh — sourced by the Slurm tests (tests/study/slurm.sh,
# slurm-gui.sh) with $here set to their directory: installs slurm-wlm and
# munge when it can (root and apt-get) or skips the test (exit 77), then
# starts a private one-node cluster (cluster.sh) in a new directory $work,
# exports SLURM_CONF, stops it and removes $work on exit, and changes into
# $work.
if ! command -v sbatch > /dev/null || [ ! -x /usr/sbin/slurmctld ] || [ ! -x /usr/sbin/munged ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get > /dev/null; then
        echo "installing slurm-wlm and munge"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q slurm-wlm munge > /dev/null 2>&1 || true
    fi
    if ! command -v sbatch > /dev/null || [ ! -x /usr/sbin/slurmctld ] || [ ! -x /usr/sbin/munged ]; then
        echo "SKIP: Slurm (slurm-wlm, munge) is not installed and cannot be installed here (needs root and apt-get)"
        exit 77
    fi
fi
work=$(mktemp -d)
cluster="$work/cluster"
mkdir -p "$cluster"
trap 'sh "$here/../slurm/cluster.sh" stop "$cluster"; rm -rf "$work"' EXIT
sh "$here/../slurm/cluster.sh" start "$cluster"
export SLURM_CONF="$cluster/slurm.conf"
cd "$work"
