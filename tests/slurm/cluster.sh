#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# A throw-away single-machine Slurm cluster for `make check-slurm`, from
# Debian's packages (munge, slurmctld, slurmd, slurm-client):
#
#     tests/slurm/cluster.sh start DIR NODES   # writes DIR/env, prints nothing else
#     tests/slurm/cluster.sh stop DIR          # every daemon it started, bounded
#
# Everything lives under DIR (a directory under build/): the munge key and
# socket, slurm.conf, the state and spool directories, the logs and pid files.
# Nothing is written under /etc, /run or /var, and no system service is used.
#
# Run as root.  The daemons run as root too (SlurmUser=root): slurmd must
# switch to the submitting user to start a job, and a private SlurmUser would
# need an account created on the host for nothing.  munged refuses root
# without --force, which it gets.  Jobs run as whoever submits them: the test
# submits as the unprivileged nsbox-test user.
#
# Several node names on one host: one slurmd per node, `slurmd -N name`, each
# on its own port (NodeAddr 127.0.0.1, Port= per node).
#
# cgroups: this host is hybrid (its cgroup v1 mounts carry the controllers and
# must not be touched), so no Slurm plugin that uses cgroups is configured:
# ProctrackType=proctrack/linuxproc (processes tracked by their parent chain),
# TaskPlugin=task/none, JobAcctGatherType=jobacct_gather/none.  Slurm then
# enforces no memory or CPU limit of its own here; the allocation (cores and
# memory per CPU) is still accounted by select/cons_tres, and nsbox enforces
# each task's limits inside it (see examples/slurm/).
set -euo pipefail

die() {
	echo "cluster: $*" >&2
	exit 1
}

# Every wait is bounded: a daemon that never comes up fails the test instead
# of hanging CI.
wait_for() { # SECONDS DESCRIPTION COMMAND...
	local secs=$1 what=$2 i
	shift 2
	for ((i = 0; i < secs * 5; i++)); do
		if "$@" >/dev/null 2>&1; then
			return 0
		fi
		sleep 0.2
	done
	die "$what did not happen within ${secs}s"
}

# No TCP socket of the host listens on the port (state 0A in /proc/net/tcp*,
# the port in hex after the address's colon); no ss needed.
port_free() {
	local hex
	hex=$(printf '%04X' "$1")
	! awk -v p="$hex" '$4 == "0A" && substr($2, index($2, ":") + 1) == p { found = 1 }
		END { exit !found }' /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# The first base port whose NODES+1 ports are all free, from 16817 up.
pick_ports() { # NODES
	local base p ok
	for base in 16817 17817 18817 19817 20817 21817; do
		ok=1
		for ((p = base; p <= base + $1; p++)); do
			port_free "$p" || { ok=0; break; }
		done
		if [ "$ok" = 1 ]; then
			echo "$base"
			return 0
		fi
	done
	die "no free block of $(($1 + 1)) TCP ports found"
}

write_conf() { # DIR NODES BASEPORT
	local d=$1 n=$2 base=$3 i host
	host=$(hostname -s)
	{
		echo "# written by tests/slurm/cluster.sh: a single-machine test cluster"
		echo "ClusterName=nsboxci"
		echo "SlurmctldHost=$host(127.0.0.1)"
		echo "SlurmctldPort=$base"
		echo "SlurmUser=root"
		echo "SlurmdUser=root"
		echo "AuthType=auth/munge"
		echo "CredType=cred/munge"
		echo "AuthInfo=socket=$d/munge/munge.socket"
		echo "StateSaveLocation=$d/state"
		echo "SlurmdSpoolDir=$d/spool/%n"
		echo "SlurmctldPidFile=$d/run/slurmctld.pid"
		echo "SlurmdPidFile=$d/run/slurmd-%n.pid"
		echo "SlurmctldLogFile=$d/log/slurmctld.log"
		echo "SlurmdLogFile=$d/log/slurmd-%n.log"
		echo "SlurmctldDebug=info"
		echo "SlurmdDebug=info"
		echo "ProctrackType=proctrack/linuxproc"
		echo "TaskPlugin=task/none"
		echo "JobAcctGatherType=jobacct_gather/none"
		echo "AccountingStorageType=accounting_storage/none"
		echo "JobCompType=jobcomp/none"
		echo "MpiDefault=none"
		echo "SwitchType=switch/none"
		echo "SelectType=select/cons_tres"
		echo "SelectTypeParameters=CR_Core_Memory"
		# The nodes claim more than this host has: no node is drained
		# for it, the test is about placement, not about speed.
		echo "SlurmdParameters=config_overrides"
		echo "ReturnToService=2"
		echo "SchedulerType=sched/builtin"
		echo "MaxArraySize=1001"
		echo "MinJobAge=600"
		echo "KillWait=5"
		echo "InactiveLimit=0"
		echo "SlurmdTimeout=60"
		for ((i = 1; i <= n; i++)); do
			echo "NodeName=n$i NodeHostname=$host NodeAddr=127.0.0.1 Port=$((base + i)) CPUs=2 RealMemory=2048 State=UNKNOWN"
		done
		echo "PartitionName=batch Nodes=n[1-$n] Default=YES MaxTime=30 State=UP"
	} >"$d/slurm.conf"
	# slurm.conf must be readable by the submitting user (sbatch reads it);
	# cgroup.conf is absent on purpose: no cgroup plugin is loaded.
	chmod 0644 "$d/slurm.conf"
}

start() { # DIR NODES
	local d=$1 n=$2 base i
	[ "$(id -u)" = 0 ] || die "must run as root (slurmd switches to the job's user)"
	command -v munged >/dev/null || die "munged is missing"
	command -v slurmctld >/dev/null || die "slurmctld is missing"
	command -v slurmd >/dev/null || die "slurmd is missing"
	mkdir -p "$d"
	d=$(cd "$d" && pwd -P)
	rm -rf -- "$d/munge" "$d/state" "$d/spool" "$d/run" "$d/log"
	mkdir -p "$d/munge" "$d/state" "$d/spool" "$d/run" "$d/log"
	# munged's checks: a private key (0400) in a directory that only root
	# may write, and a socket directory that others may enter.
	chmod 0755 "$d/munge"
	mungekey --create --keyfile="$d/munge/munge.key" --force
	chmod 0400 "$d/munge/munge.key"
	munged --force --key-file="$d/munge/munge.key" \
		--socket="$d/munge/munge.socket" --pid-file="$d/run/munged.pid" \
		--log-file="$d/log/munged.log" --seed-file="$d/munge/munged.seed" \
		>>"$d/log/munged.out" 2>&1 || die "munged failed: $(tail -3 "$d/log/munged.log" 2>/dev/null)"
	wait_for 10 "munged's pid file" test -s "$d/run/munged.pid"
	wait_for 10 "a munge credential round trip" \
		sh -c "munge -S '$d/munge/munge.socket' -n | unmunge -S '$d/munge/munge.socket'"

	base=$(pick_ports "$n")
	write_conf "$d" "$n" "$base"
	{
		echo "export SLURM_CONF=$d/slurm.conf"
		echo "CLUSTER_DIR=$d"
		echo "CLUSTER_NODES=$n"
	} >"$d/env"

	export SLURM_CONF="$d/slurm.conf"
	# -D: in the foreground, so that $! is the daemon and stop can kill
	# exactly what was started; -i: no state from an earlier run.
	slurmctld -D -i -f "$SLURM_CONF" >>"$d/log/slurmctld.out" 2>&1 &
	echo $! >"$d/run/slurmctld.fg.pid"
	wait_for 30 "slurmctld answering" scontrol ping
	for ((i = 1; i <= n; i++)); do
		mkdir -p "$d/spool/n$i"
		slurmd -D -N "n$i" -f "$SLURM_CONF" >>"$d/log/slurmd-n$i.out" 2>&1 &
		echo $! >"$d/run/slurmd-n$i.fg.pid"
	done
	wait_for 60 "$n nodes idle" sh -c \
		"[ \"\$(sinfo -h -N -t idle -o %N | sort -u | wc -l)\" -eq $n ]"
}

# Stop one daemon by the pid recorded when it was started: TERM, then KILL
# after a bounded wait.  Only processes this script started are signalled.
stop_pid() { # PIDFILE
	local f=$1 pid i
	[ -s "$f" ] || return 0
	pid=$(cat "$f")
	rm -f -- "$f"
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null || return 0
	kill -TERM "$pid" 2>/dev/null || true
	for ((i = 0; i < 100; i++)); do
		kill -0 "$pid" 2>/dev/null || return 0
		sleep 0.1
	done
	echo "cluster: pid $pid ignored SIGTERM for 10s: SIGKILL" >&2
	kill -KILL "$pid" 2>/dev/null || true
}

stop() { # DIR
	local d=$1 f
	[ -d "$d" ] || return 0
	for f in "$d"/run/slurmd-*.fg.pid; do
		[ -e "$f" ] && stop_pid "$f"
	done
	stop_pid "$d/run/slurmctld.fg.pid"
	# munged forks into the background: its own pid file names it.
	stop_pid "$d/run/munged.pid"
	return 0
}

case "${1:-}" in
start)
	[ "$#" -eq 3 ] || die "usage: $0 start DIR NODES"
	start "$2" "$3"
	;;
stop)
	[ "$#" -eq 2 ] || die "usage: $0 stop DIR"
	stop "$2"
	;;
*)
	die "usage: $0 start DIR NODES | stop DIR"
	;;
esac
