#!/bin/sh
# cluster.sh start|stop DIR — a private one-node Slurm cluster for the tests
# (ctest cli_study_slurm): its own munge daemon and key, slurmctld and slurmd
# on this host with a configuration, ports, state and logs in DIR (exported
# to the Slurm commands by SLURM_CONF=DIR/slurm.conf), so it touches nothing
# of a cluster the machine may already run. Needs root and Debian's
# slurm-wlm and munge packages (Slurm 22.05). stop ends the daemons it
# started, by the process ids in DIR.
set -eu
cmd=$1
D=$2

stop() {
    for p in slurmd slurmctld munged; do
        [ -f "$D/$p.pid" ] || continue
        pid=$(cat "$D/$p.pid")
        kill "$pid" 2> /dev/null || true
        i=0
        while kill -0 "$pid" 2> /dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
        kill -KILL "$pid" 2> /dev/null || true
        rm -f "$D/$p.pid"
    done
}

if [ "$cmd" = stop ]; then
    stop
    exit 0
fi

mkdir -p "$D/state" "$D/spool"
chmod 700 "$D"
# munge: a key of our own and a daemon on a socket in DIR (--force: it runs as root)
dd if=/dev/urandom bs=1 count=1024 of="$D/munge.key" 2> /dev/null
chmod 400 "$D/munge.key"
/usr/sbin/munged --force --key-file="$D/munge.key" --socket="$D/munge.socket" --pid-file="$D/munged.pid" \
    --log-file="$D/munged.log" --seed-file="$D/munged.seed"
munge --socket="$D/munge.socket" -n | unmunge --socket="$D/munge.socket" | grep -q "STATUS: *Success" ||
    { echo "cluster.sh: munge does not work (see $D/munged.log)"; exit 1; }

H=$(hostname -s)
CPUS=$(nproc)
MEM=$(($(free -m | awk '/Mem:/ {print $2}') - 1024))
[ "$MEM" -gt 256 ] || MEM=256
PORT=$((20000 + $$ % 9000 * 2)) # two ports of our own: several test runs may share the machine
cat > "$D/slurm.conf" << CONF
ClusterName=motustest
SlurmctldHost=$H
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$D/munge.socket
CredType=cred/munge
SlurmctldPort=$PORT
SlurmdPort=$((PORT + 1))
SlurmctldPidFile=$D/slurmctld.pid
SlurmdPidFile=$D/slurmd.pid
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
StateSaveLocation=$D/state
SlurmdSpoolDir=$D/spool
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
SlurmctldLogFile=$D/slurmctld.log
SlurmdLogFile=$D/slurmd.log
NodeName=$H CPUs=$CPUS RealMemory=$MEM State=UNKNOWN
PartitionName=debug Nodes=$H Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$D/slurm.conf"
/usr/sbin/slurmctld -f "$SLURM_CONF"
/usr/sbin/slurmd -f "$SLURM_CONF"
i=0
until sinfo -h -o %t 2> /dev/null | grep -q idle; do
    i=$((i + 1))
    if [ $i -gt 300 ]; then
        echo "cluster.sh: the node did not come up in 30 s; logs in $D:"
        tail -5 "$D/slurmctld.log" "$D/slurmd.log" 2> /dev/null || true
        stop
        exit 1
    fi
    sleep 0.1
done
echo "cluster.sh: Slurm up on $H ($CPUS CPUs, ports $PORT-$((PORT + 1))), SLURM_CONF=$SLURM_CONF"
