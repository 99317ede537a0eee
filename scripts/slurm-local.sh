#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, for `gpumem sweep --slurm` and
# its tests (docs/sweeps.md, "On a cluster"): munged, slurmctld and slurmd of
# Debian's slurm-wlm, with a generated slurm.conf for this host's CPUs and
# memory, every state, log, socket and key in one folder.
#
#   scripts/slurm-local.sh start DIR   bring it up in DIR (created), wait until the
#                                      node is idle, print `export SLURM_CONF=...`
#   scripts/slurm-local.sh stop DIR    stop the daemons started in DIR
#
# Clients (sbatch, squeue, scancel, sinfo) find the cluster by SLURM_CONF.
# Ports: a free pair found at start. Needs slurmctld, slurmd, munged
# (scripts/install-deps.sh installs them).
set -euo pipefail

cmd=${1:-}
dir=${2:-}
if [[ -z "$cmd" || -z "$dir" ]]; then
  echo "usage: $0 start|stop DIR" >&2
  exit 2
fi

# All three at once: each takes one to two seconds to exit, and nothing of
# the controller's or the node's shutdown needs munge.
stop() {
  local pids=()
  for pidfile in "$dir"/slurmd.pid "$dir"/slurmctld.pid "$dir"/munged.pid; do
    [[ -f "$pidfile" ]] || continue
    pids+=("$(cat "$pidfile")")
    rm -f "$pidfile"
  done
  [[ ${#pids[@]} -gt 0 ]] || return 0
  kill "${pids[@]}" 2>/dev/null || true
  for _ in $(seq 50); do
    kill -0 "${pids[@]}" 2>/dev/null || break
    sleep 0.1
  done
  kill -9 "${pids[@]}" 2>/dev/null || true
}

if [[ "$cmd" == stop ]]; then
  stop
  exit 0
fi
if [[ "$cmd" != start ]]; then
  echo "$0: unknown command '$cmd' (start or stop)" >&2
  exit 2
fi

for tool in munged slurmctld slurmd sinfo; do
  command -v "$tool" >/dev/null || { echo "$0: $tool not found (scripts/install-deps.sh installs slurm-wlm and munge)" >&2; exit 2; }
done

mkdir -p "$dir"/state "$dir"/spool "$dir"/log
dir=$(cd "$dir" && pwd)
chmod 700 "$dir"

# munge: a key of our own and a socket in DIR.
dd if=/dev/urandom of="$dir"/munge.key bs=1024 count=1 status=none
chmod 400 "$dir"/munge.key
munged --force --key-file="$dir"/munge.key --socket="$dir"/munge.socket --pid-file="$dir"/munged.pid \
  --log-file="$dir"/log/munged.log --seed-file="$dir"/munged.seed

# Two free TCP ports, one after the other.
free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}
ctld_port=$(free_port)
d_port=$(free_port)
while [[ "$d_port" == "$ctld_port" ]]; do d_port=$(free_port); done

host=$(hostname -s)
cpus=$(nproc)
mem_mb=$(( $(awk '/MemTotal/ {print $2}' /proc/meminfo) / 1024 - 512 ))
user=$(id -un)

# SchedulerParameters: a pending job starts as soon as it can. Slurm's
# default holds batch jobs back up to 3 s to schedule many submissions at
# once, which on one node only adds 3 s to every array task (a 12-task array
# of empty jobs: 18 s, 7 s without).
cat > "$dir"/slurm.conf <<EOF
ClusterName=gpumem-local
SlurmctldHost=$host(127.0.0.1)
SlurmUser=$user
SlurmdUser=$user
SlurmctldPort=$ctld_port
SlurmdPort=$d_port
AuthType=auth/munge
AuthInfo=socket=$dir/munge.socket
CredType=cred/munge
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/log/slurmctld.log
SlurmdLogFile=$dir/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
MaxArraySize=100001
MinJobAge=300
NodeName=$host NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

export SLURM_CONF="$dir"/slurm.conf
slurmctld -f "$SLURM_CONF"
slurmd -f "$SLURM_CONF"

for _ in $(seq 300); do
  state=$(sinfo -h -n "$host" -o %t 2>/dev/null || true)
  if [[ "$state" == idle ]]; then
    echo "export SLURM_CONF=$SLURM_CONF"
    exit 0
  fi
  sleep 0.1
done
echo "$0: the node did not become idle in 30 s (state '${state:-none}'); logs in $dir/log" >&2
stop
exit 1
