#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Inside the cgroup v2 test VM (`make check-slurm-vm`; tests/vm/init.sh runs
# it): a one-node Slurm with its cgroup/v2 plugin (proctrack/cgroup,
# task/cgroup, IgnoreSystemd: there is no systemd in the image), and
# examples/slurm/nsbox-array.sbatch submitted as root and as the VM's user.
# Proves, from the records and the VM's own cgroup tree, where nsbox's cgroup
# lands: under the job step's cgroup, with the limits via "cgroup", and gone
# once the task is over.  The VM image has no python3: the task's command is
# a busybox shell script (NSBOX_COMMAND).
#
#   VMTEST PASS/FAIL slurm-<check>  (tests/vm/init.sh counts them)

W=/srv/slurm
CG=/sys/fs/cgroup
HOST=slurmvm
rc_all=0

verdict() { # NAME WHY DETAIL
	if [ -z "$2" ]; then
		echo "VMTEST PASS slurm-$1  # $3"
	else
		echo "VMTEST FAIL slurm-$1:$2 ($3)"
		rc_all=1
	fi
}

# wait_for SECONDS COMMAND...: bounded in total, like everything here (each
# try too: a client that waits for a daemon gets 5 s).
wait_for() {
	end=$(($(cut -d. -f1 /proc/uptime) + $1))
	shift
	while [ "$(cut -d. -f1 /proc/uptime)" -lt "$end" ]; do
		timeout 5 "$@" >/dev/null 2>&1 && return 0
		sleep 1
	done
	return 1
}

# Progress on the console: the host fails a VM that stays silent too long.
step() { echo "slurm-vm: $* (uptime $(cut -d' ' -f1 /proc/uptime)s)"; }

logs() {
	for f in "$W"/log/*; do
		echo "--- $f"
		tail -n 20 "$f"
	done
}

step start
mkdir -p "$W/munge" "$W/state" "$W/spool" "$W/log" "$W/run" "$W/etc"
hostname "$HOST"
echo "127.0.0.1 localhost $HOST" >/etc/hosts
ip link set lo up
# getaddrinfo's AI_ADDRCONFIG (slurmctld's listening socket) ignores loopback
# addresses: without one other address it finds no address family at all.
ip addr add 10.99.0.1/32 dev lo

step munged
# munge: a fresh key, the daemon as root (--force).
dd if=/dev/urandom of="$W/munge/munge.key" bs=1024 count=1 2>/dev/null
chmod 0400 "$W/munge/munge.key"
munged --force --key-file="$W/munge/munge.key" --socket="$W/munge/socket" \
	--pid-file="$W/run/munged.pid" --log-file="$W/log/munged.log" \
	--seed-file="$W/munge/seed"
if ! wait_for 20 sh -c "munge -S $W/munge/socket -n | unmunge -S $W/munge/socket"; then
	verdict munge "munged did not answer" "$(tail -n 5 "$W/log/munged.log")"
	exit 1
fi

cat >"$W/etc/slurm.conf" <<EOF
ClusterName=nsboxvm
SlurmctldHost=$HOST(127.0.0.1)
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$W/munge/socket
StateSaveLocation=$W/state
SlurmdSpoolDir=$W/spool
SlurmctldPidFile=$W/run/slurmctld.pid
SlurmdPidFile=$W/run/slurmd.pid
SlurmctldLogFile=$W/log/slurmctld.log
SlurmdLogFile=$W/log/slurmd.log
ProctrackType=proctrack/cgroup
TaskPlugin=task/cgroup
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
SwitchType=switch/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
SlurmdParameters=config_overrides
ReturnToService=2
SchedulerType=sched/builtin
MinJobAge=600
NodeName=$HOST NodeAddr=127.0.0.1 CPUs=2 RealMemory=900 State=UNKNOWN
PartitionName=batch Nodes=$HOST Default=YES MaxTime=10 State=UP
EOF
cat >"$W/etc/cgroup.conf" <<EOF
CgroupPlugin=cgroup/v2
IgnoreSystemd=yes
ConstrainRAMSpace=yes
EOF
chmod 0644 "$W/etc/slurm.conf" "$W/etc/cgroup.conf"
export SLURM_CONF="$W/etc/slurm.conf"

step slurmctld
slurmctld -i -f "$SLURM_CONF" || {
	verdict slurmctld "did not start" "$(logs)"
	exit 1
}
wait_for 30 scontrol ping || {
	verdict slurmctld "not answering" "$(logs)"
	exit 1
}
step slurmd
# With IgnoreSystemd, slurmd makes its stepd scope itself, under the
# system.slice that systemd would have made.
mkdir -p "$CG/system.slice"
echo "+memory +pids +cpu" >"$CG/system.slice/cgroup.subtree_control"
slurmd -f "$SLURM_CONF" || {
	verdict slurmd "did not start" "$(logs)"
	exit 1
}
if wait_for 60 sh -c "sinfo -h -N -t idle -o %N | grep -qx $HOST"; then
	verdict cluster "" "slurmctld and slurmd up; slurmd in $(cat /proc/"$(cat "$W/run/slurmd.pid")"/cgroup)"
else
	verdict cluster "node not idle" "$(sinfo 2>&1; logs)"
	exit 1
fi

# run_array WHO: 3 tasks (0, 1: the example's shape, 2: a memory hog) as
# root or as the VM's user; prints the array job's results file.
run_array() {
	who=$1
	t=$W/$who
	mkdir -p "$t"
	i=0
	: >"$t/tasks.txt"
	while [ "$i" -lt 3 ]; do
		d=$t/tasks/$i
		mkdir -p "$d/input" "$d/out"
		echo "apples $((i + 3))" >"$d/input/data.txt"
		if [ "$i" -eq 2 ]; then
			# 400 MiB through dd's buffer, against --memory 96M
			echo 'exec dd if=/dev/zero of=/dev/null bs=400M count=1' >"$d/script.sh"
		else
			# shellcheck disable=SC2016 # runs inside the sandbox
			echo 'wc -l <input/data.txt >out/result.txt; cat /proc/self/cgroup' >"$d/script.sh"
		fi
		echo "$d" >>"$t/tasks.txt"
		i=$((i + 1))
	done
	if [ "$who" = user ]; then
		chown -R 1000:1000 "$t"
		sub="su -s /bin/sh nsbuser -c"
	else
		sub="sh -c"
	fi
	gate="--allow-path / --allow-exec dd --allow-exec busybox"
	job=$($sub "cd $t && SLURM_CONF=$SLURM_CONF NSBOX=/bin/nsbox NSBOX_TASKS=$t \
		NSBOX_COMMAND='sh script.sh' NSBOX_MEMORY=96M NSBOX_ARGS='$gate' \
		sbatch --parsable --array=0-2 --mem-per-cpu=128M --output=$t/slurm-%A_%a.out \
		/bin/nsbox-array.sbatch")
	job=${job%%;*}
	step "array job $job submitted as $who" >&2
	n=0
	while [ -n "$(squeue -h -j "$job" -o %i 2>/dev/null)" ] && [ "$n" -lt 120 ]; do
		sleep 1
		n=$((n + 1))
		[ $((n % 15)) -eq 0 ] && step "array job $job still running" >&2
	done
	echo "$t/results/$job.jsonl"
}

# check WHO RESULTS.  As root, the job step's cgroup is writable: each
# line's cgroup_parent is the step's directory, the record's cgroup is under
# it and gone now, memory via cgroup, the hog oom_killed.  As the user,
# Slurm delegates nothing (the step's directories belong to root): no
# cgroup_parent, the reason says so, memory via rlimit, the hog's dd fails
# to allocate (Slurm's own memory.max on the job still bounds the task).
check() {
	who=$1
	res=$2
	why=
	[ -s "$res" ] || {
		verdict "$who-records" "no results file $res" "$(cat "$W/$who"/slurm-*.out 2>/dev/null | tail -n 30; logs)"
		return
	}
	lines=$(wc -l <"$res")
	[ "$lines" -eq 3 ] || why="$why lines=$lines"
	seen=
	while read -r line; do
		task=$(echo "$line" | sed -n 's/.*"task":\([0-9]*\).*/\1/p')
		parent=$(echo "$line" | sed -n 's/.*"cgroup_parent":"\([^"]*\)".*/\1/p')
		reason=$(echo "$line" | sed -n 's/.*"cgroup_parent_reason":"\([^"]*\)".*/\1/p')
		cgpath=$(echo "$line" | sed -n 's/.*"cgroup":{"path":"\([^"]*\)".*/\1/p')
		seen="$seen task $task: parent=${parent:-none ($reason)} cgroup=${cgpath:-none};"
		if [ "$who" = root ]; then
			case $parent in
			"$CG"/*/job_*/step_batch/user) ;;
			*) why="$why task$task:parent" ;;
			esac
			case $cgpath in
			"$parent"/nsbox-*) ;;
			*) why="$why task$task:cgroup-not-under-step" ;;
			esac
			[ -n "$cgpath" ] && [ -e "$cgpath" ] && why="$why task$task:cgroup-left"
			via=cgroup
			hog='"status":"oom_killed"'
		else
			[ -z "$parent" ] || why="$why task$task:parent"
			case $reason in *"not writable by uid 1000"*) ;; *) why="$why task$task:reason" ;; esac
			echo "$line" | grep -q '"cgroup":null' || why="$why task$task:cgroup"
			via=rlimit
			hog='"status":"exited","exit_code":1,'
		fi
		echo "$line" | grep -q "\"memory\":{\"bytes\":100663296,\"via\":\"$via\"}" ||
			why="$why task$task:memory-via"
		if [ "$task" = 2 ]; then
			echo "$line" | grep -q "$hog" || why="$why task2:hog"
		else
			echo "$line" | grep -q '"status":"exited","exit_code":0' || why="$why task$task:status"
		fi
	done <"$res"
	verdict "$who-placement" "$why" "$seen"
	[ -z "$why" ] || echo "  $(head -c 4000 "$res")"
}

res=$(run_array root)
check root "$res"
res=$(run_array user)
check user "$res"

# Stop the daemons (the VM powers off after this anyway).
scontrol shutdown >/dev/null 2>&1
kill "$(cat "$W/run/munged.pid")" 2>/dev/null
exit "$rc_all"
