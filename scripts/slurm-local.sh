#!/usr/bin/env bash
# A one-node Slurm cluster on this machine, from Debian's own packages (munge, slurmctld,
# slurmd, slurm-client), for running the workflow through profiles/slurm and
# snakemake-executor-plugin-slurm with real daemons and real sbatch jobs. Run as root.
#
#   scripts/slurm-local.sh up       install what is missing (apt-get), write
#                                   /etc/slurm/slurm.conf for this machine's cores and
#                                   memory (read now: `slurmd -C`), start munged,
#                                   slurmctld and slurmd, wait until the node is idle
#   scripts/slurm-local.sh status   the daemons, sinfo, squeue
#   scripts/slurm-local.sh down     cancel every job, stop the daemons `up` started, delete
#                                   every file `up` wrote (slurm.conf, state, spool, logs)
#   scripts/slurm-local.sh down --purge   also apt-get purge the packages `up` installed
#                                   (those four and the dependencies they brought)
#
# SLURM_LOCAL_CPUS=N (default: all the machine's CPUs) caps the CPUs the partition may
# allocate on the node: SLURM_LOCAL_CPUS=1 runs one 1-CPU job at a time. The jobs inherit
# slurmd's nice value: `nice -n 19 scripts/slurm-local.sh up` runs them at nice 19.
#
# No slurmdbd, no MariaDB. snakemake-executor-plugin-slurm (2.8.0, pinned in
# requirements.txt) asks Slurm for job status with `squeue --states=all` when its
# status_command is squeue (profiles/slurm: slurm-status-command: squeue) and slurmctld
# keeps finished jobs for MinJobAge >= 3 x slurm-init-seconds-before-status-checks (40 s
# by default): the plugin falls back to sacct only when MinJobAge is below that. Here
# MinJobAge=600. sacct (which needs slurmdbd) is otherwise used only to guess an account
# when none is given (it fails here: the plugin warns and submits without -A) and for the
# reasons of a failed job (with squeue it reports the state alone, e.g. CANCELLED).
set -euo pipefail

PKGS=(munge slurm-client slurmctld slurmd)
CONF_DIR=/etc/slurm
CONF=$CONF_DIR/slurm.conf
STATE=/var/lib/slurm-local        # state, spool, logs and pid files of this cluster
MARK="# written by slurm-local.sh"

die() { echo "slurm-local: $*" >&2; exit 1; }
say() { echo "slurm-local: $*"; }

[ "$(id -u)" -eq 0 ] || die "run as root (it installs packages and starts daemons)"

pid_alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

installed_list() {
  dpkg-query -W -f='${Status} ${Package}\n' | sed -n 's/^install ok installed //p' | sort
}

install_missing() {
  local missing=() p
  for p in "${PKGS[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" \
      || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  say "installing ${missing[*]}"
  # the packages' maintainer scripts must not start the daemons: `up` starts them
  local policy=/usr/sbin/policy-rc.d made_policy=""
  if [ ! -e "$policy" ]; then
    printf '#!/bin/sh\nexit 101\n' > "$policy"
    chmod +x "$policy"
    made_policy=1
  fi
  local before
  before=$(installed_list)
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" > /dev/null || { [ -n "$made_policy" ] && rm -f "$policy"; exit 1; }
  [ -n "$made_policy" ] && rm -f "$policy"
  # every package this install added (the four and their dependencies), for down --purge
  mkdir -p "$STATE"
  comm -13 <(echo "$before") <(installed_list) >> "$STATE/installed-packages"
}

write_conf() {
  if [ -e "$CONF" ] && ! grep -qF "$MARK" "$CONF"; then
    die "$CONF exists and was not written by this script: not touching it"
  fi
  # this machine as slurmd sees it: NodeName, CPUs, sockets, cores, threads, RealMemory
  local node host cpus
  node=$(slurmd -C | head -1)
  host=$(sed -n 's/^NodeName=\([^ ]*\).*/\1/p' <<< "$node")
  cpus=$(sed -n 's/.* CPUs=\([0-9]*\).*/\1/p' <<< "$node")
  [ -n "$host" ] && [ -n "$cpus" ] || die "cannot read this machine from 'slurmd -C': $node"
  local cap=${SLURM_LOCAL_CPUS:-$cpus}
  [ "$cap" -ge 1 ] && [ "$cap" -le "$cpus" ] || die "SLURM_LOCAL_CPUS=$cap: not in 1..$cpus"
  mkdir -p "$CONF_DIR" "$STATE/ctld" "$STATE/spool" "$STATE/log"
  cat > "$CONF" <<EOF
$MARK up on $(date -u +%FT%TZ); removed by its down
ClusterName=local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
MpiDefault=none
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SchedulerType=sched/backfill
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/none
# finished jobs stay visible to squeue this long (the executor plugin's job status)
MinJobAge=600
ReturnToService=2
StateSaveLocation=$STATE/ctld
SlurmdSpoolDir=$STATE/spool
SlurmctldPidFile=$STATE/slurmctld.pid
SlurmdPidFile=$STATE/slurmd.pid
SlurmctldLogFile=$STATE/log/slurmctld.log
SlurmdLogFile=$STATE/log/slurmd.log
$node State=UNKNOWN
PartitionName=local Nodes=$host Default=YES MaxTime=INFINITE State=UP MaxCPUsPerNode=$cap
EOF
  say "$CONF: $node (partition 'local': at most $cap CPUs in use)"
}

start_munge() {
  if [ -S /run/munge/munge.socket.2 ] && munge -n < /dev/null > /dev/null 2>&1; then
    say "munged already running"
    return 0
  fi
  [ -s /etc/munge/munge.key ] || { mungekey --create --force; touch "$STATE/made-munge-key"; }
  chown munge:munge /etc/munge/munge.key
  chmod 0400 /etc/munge/munge.key
  install -d -o munge -g munge -m 0755 /run/munge /var/lib/munge /var/log/munge
  runuser -u munge -- /usr/sbin/munged --pid-file=/run/munge/munged.pid
  cp /run/munge/munged.pid "$STATE/munged.pid"
  munge -n < /dev/null | unmunge > /dev/null || die "munge does not work"
}

wait_idle() {
  local host state i
  host=$(sed -n 's/^SlurmctldHost=//p' "$CONF")
  for i in $(seq 60); do
    state=$(sinfo -h -N -n "$host" -o %T 2>/dev/null || true)
    case $state in
      idle*|mixed*|allocated*) say "node $host is $state"; return 0 ;;
      down*|drain*) scontrol update NodeName="$host" State=RESUME 2>/dev/null || true ;;
    esac
    sleep 1
  done
  die "node $host not up after 60 s (state '${state:-?}'): see $STATE/log/"
}

up() {
  install_missing
  if pid_alive "$STATE/slurmctld.pid" || pid_alive "$STATE/slurmd.pid"; then
    say "already up"
    status
    return 0
  fi
  write_conf
  start_munge
  slurmctld -f "$CONF"
  slurmd -f "$CONF"
  wait_idle
}

stop_pidfile() {
  local f=$1 name=$2 pid i
  pid_alive "$f" || return 0
  pid=$(cat "$f")
  kill "$pid"
  for i in $(seq 30); do
    kill -0 "$pid" 2>/dev/null || { say "stopped $name ($pid)"; return 0; }
    sleep 1
  done
  kill -9 "$pid" 2>/dev/null || true
  say "killed $name ($pid): it did not stop in 30 s"
}

down() {
  local purge=${1:-}
  if pid_alive "$STATE/slurmctld.pid"; then
    scancel --full --quiet --user=root 2>/dev/null || true
    # every job's processes end with their job (slurmd reaps them) before slurmd stops
    local i
    for i in $(seq 30); do
      [ -z "$(squeue -h -t RUNNING,COMPLETING -o %i 2>/dev/null)" ] && break
      sleep 1
    done
  fi
  stop_pidfile "$STATE/slurmd.pid" slurmd
  stop_pidfile "$STATE/slurmctld.pid" slurmctld
  stop_pidfile "$STATE/munged.pid" munged
  if [ -e "$STATE/made-munge-key" ]; then rm -f /etc/munge/munge.key; fi
  if [ -e "$CONF" ] && grep -qF "$MARK" "$CONF"; then rm -f "$CONF"; fi
  local installed=()
  [ -s "$STATE/installed-packages" ] && mapfile -t installed < "$STATE/installed-packages"
  rm -rf "$STATE/ctld" "$STATE/spool" "$STATE/log" "$STATE"/*.pid "$STATE/made-munge-key"
  if [ "$purge" = --purge ]; then
    if [ ${#installed[@]} -gt 0 ]; then
      say "purging ${installed[*]}"
      DEBIAN_FRONTEND=noninteractive apt-get purge -y -qq "${installed[@]}" > /dev/null
    fi
    rm -rf "$STATE"
  elif [ ${#installed[@]} -eq 0 ]; then
    rm -rf "$STATE"
  fi
  say "down"
}

status() {
  local f name
  for name in munged slurmctld slurmd; do
    f=$STATE/$name.pid
    if pid_alive "$f"; then echo "$name: running ($(cat "$f"))"; else echo "$name: not running"; fi
  done
  if pid_alive "$STATE/slurmctld.pid"; then
    sinfo
    squeue
  fi
}

case ${1:-} in
  up) up ;;
  down) down "${2:-}" ;;
  status) status ;;
  *) die "usage: $0 up | down [--purge] | status" ;;
esac
