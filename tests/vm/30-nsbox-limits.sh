#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# build/nsbox on a real cgroup v2 kernel, as root (parent: the root cgroup)
# and as the delegated user (its own cgroup deleg/session has processes, so
# nsbox makes its runs siblings under deleg).  Each check is judged on the
# one-line JSON record (grep: there is no JSON tool in the image) and on what
# the VM itself shows: /proc, the cgroup tree.
#
# Payloads come from the VM's own /bin (busybox, the static probe), which
# nsbox's default view binds read-only.

W=/tmp/nsbvm
mkdir -p "$W"
LIM=$((64 * 1024 * 1024))
rc_all=0

# The payloads here are bombs written as busybox shell snippets: the front
# gate (tested on the host) would rightly refuse them, so it is relaxed here.
GATE="--allow-path / --allow-metachar --allow-inline-code --allow-exec dd --allow-exec busybox"

# run WHO NSBOX-ARGS...: record in $W/rec, outputs in $W/out and $W/err.
run() {
	who=$1
	shift
	# shellcheck disable=SC2086 # GATE is a list of words
	if [ "$who" = user ]; then
		as-user /bin/nsbox --result-fd 3 --no-project $GATE "$@"
	else
		/bin/nsbox --result-fd 3 --no-project $GATE "$@"
	fi 3>"$W/rec" >"$W/out" 2>"$W/err"
}

has() { grep -q -- "$1" "$W/rec"; }
# A numeric field whose name appears once in the record.
num() { sed -n "s/.*\"$1\":\(-\{0,1\}[0-9][0-9]*\).*/\1/p" "$W/rec"; }

# verdict NAME WHY DETAIL: WHY empty means pass.
verdict() {
	if [ -z "$2" ]; then
		echo "VMTEST PASS $1  # $3"
	else
		echo "VMTEST FAIL $1:$2 ($3)"
		echo "  record: $(cat "$W/rec")"
		echo "  stderr: $(head -c 2000 "$W/err")"
		rc_all=1
	fi
}

# The cgroup of the run, from the record.
cg_path() { sed -n 's/.*"cgroup":{"path":"\([^"]*\)".*/\1/p' "$W/rec"; }

t_oom() {
	who=$1
	why=
	run "$who" --memory 64M -- dd if=/dev/zero of=/dev/null bs=200M count=1
	rc=$?
	peak=$(num memory_peak_bytes)
	[ "$rc" -eq 137 ] || why="$why exit=$rc"
	has '"status":"oom_killed"' || why="$why status"
	has '"oom_killed":true' || why="$why oom_killed"
	has '"exit_code":null' || why="$why exit_code"
	has '"memory":{"bytes":67108864,"via":"cgroup"}' || why="$why memory.via"
	has '"placement":"clone3"' || why="$why placement"
	if [ -z "$peak" ] || [ "$peak" -gt "$LIM" ] || [ "$peak" -lt $((LIM * 9 / 10)) ]; then
		why="$why memory_peak_bytes=$peak"
	fi
	verdict "$who-nsbox-oom" "$why" "exit=$rc memory_peak_bytes=$peak"
}

t_pids() {
	who=$1
	why=
	run "$who" --pids 32 -- probe fork 1000
	rc=$?
	peak=$(num pids_peak)
	forked=$(sed -n 's/^forked=//p' "$W/out")
	err=$(sed -n 's/^fork_error=//p' "$W/out")
	# init and the probe count: 30 more fit, the 31st fork is refused.
	[ "$rc" -eq 1 ] || why="$why exit=$rc"
	[ "$forked" = 30 ] || why="$why forked=$forked"
	[ "$err" = EAGAIN ] || why="$why fork_error=$err"
	has '"pids":{"max":32,"via":"cgroup","default":false' || why="$why pids.via"
	if [ -z "$peak" ] || [ "$peak" -gt 32 ] || [ "$peak" -lt 31 ]; then
		why="$why pids_peak=$peak"
	fi
	verdict "$who-nsbox-pids" "$why" "forked=$forked pids_peak=$peak"
}

# --pids 2, the documented smallest: init and the command, nothing more
# (no thread of init may still count when the command is forked): 20 runs
# in a row, each must start the command.
t_pids_min() {
	who=$1
	why=
	i=0
	while [ $i -lt 20 ]; do
		run "$who" --pids 2 -- true
		rc=$?
		if [ "$rc" -ne 0 ]; then
			why="$why run$i:exit=$rc"
			break
		fi
		i=$((i + 1))
	done
	has '"pids":{"max":2,"via":"cgroup","default":false' || why="$why pids.via"
	verdict "$who-nsbox-pids-min" "$why" "$i runs with --pids 2"
}

t_cpu() {
	who=$1
	why=
	# Busy for 2 s of wall-clock time at half a CPU: about 1 s of CPU.
	run "$who" --cpus 0.5 -- timeout 2 sh -c 'while :; do :; done'
	rc=$?
	user=$(num cpu_user_ms)
	sys=$(num cpu_sys_ms)
	wall=$(num duration_ms)
	cpu=$((${user:-0} + ${sys:-0}))
	[ "$cpu" -ge 700 ] && [ "$cpu" -le 1300 ] || why="$why cpu=${cpu}ms"
	[ "${wall:-0}" -ge 1800 ] || why="$why duration_ms=$wall"
	grep -q '"cpus":{[^}]*"via":"cgroup"}' "$W/rec" || why="$why cpus.via"
	verdict "$who-nsbox-cpu" "$why" "exit=$rc cpu_user_ms=$user cpu_sys_ms=$sys duration_ms=$wall"
}

# Processes whose command line holds $1 (the busybox-only way: /proc/*/cmdline).
# Processes in another PID namespace than ours: the sandbox's, since no
# other sandbox runs meanwhile.  Builtins only: under TCG a fork per
# process makes one scan take seconds.  (-ef: same nsfs inode.)
sandboxed() {
	n=0
	for d in /proc/[0-9]*; do
		[ -e "$d/ns/pid" ] || continue
		# shellcheck disable=SC3013 # busybox's test has -ef
		[ "$d/ns/pid" -ef "/proc/$$/ns/pid" ] || n=$((n + 1))
	done
	echo "$n"
}

t_timeout() {
	who=$1
	why=
	# A setsid'd double-forked daemon that ignores SIGTERM, a payload
	# sleeping past the deadline.
	run "$who" --timeout 1.5 --kill-after 0.5 -- probe spawn-bg /tmp/heartbeat 60 &
	bg=$!
	seen=0
	i=0
	while [ "$i" -lt 50 ] && [ "$seen" -lt 3 ]; do
		sleep 0.1
		seen=$(sandboxed)
		i=$((i + 1))
	done
	wait "$bg"
	rc=$?
	left=$(sandboxed)
	cg=$(cg_path)
	[ "$seen" -ge 3 ] || why="$why seen-while-running=$seen"
	[ "$rc" -eq 124 ] || why="$why exit=$rc"
	has '"status":"timed_out"' || why="$why status"
	has '"exit_code":-101' || why="$why exit_code"
	has '"timed_out":true' || why="$why timed_out"
	[ "$left" -eq 0 ] || why="$why survivors=$left"
	[ -n "$cg" ] || why="$why no-cgroup-in-record"
	[ -n "$cg" ] && [ -d "$cg" ] && why="$why cgroup-left=$cg"
	verdict "$who-nsbox-timeout" "$why" "seen=$seen survivors=$left cgroup $cg removed"
}

# The host pid of the process that is pid $1 in a nested PID namespace
# (the NSpid line of its status has two entries), builtins only.
inner_pid() {
	for d in /proc/[0-9]*; do
		while read -r key host inner _; do
			[ "$key" = NSpid: ] || continue
			[ "$inner" = "$1" ] && echo "$host"
			break
		done <"$d/status" 2>/dev/null
	done
}

t_placement() {
	who=$1
	why=
	# From inside: the payload's cgroup is the root of its own namespace.
	run "$who" -- cat /proc/self/cgroup
	inside=$(cat "$W/out")
	[ "$inside" = "0::/" ] || why="$why inside='$inside'"
	has '"placement":"clone3"' || why="$why placement"

	# From outside: the sandbox's init (pid 1 of its PID namespace) and the
	# payload (pid 2), while the payload sleeps.
	run "$who" -- sleep 3 &
	bg=$!
	pay=
	i=0
	while [ "$i" -lt 100 ] && [ -z "$pay" ]; do
		sleep 0.05
		pay=$(inner_pid 2)
		i=$((i + 1))
	done
	init=$(inner_pid 1)
	outside=$(cat "/proc/$init/cgroup" 2>/dev/null)
	payload=$(cat "/proc/$pay/cgroup" 2>/dev/null)
	wait "$bg"
	cg=$(cg_path)
	[ -n "$cg" ] || why="$why no-cgroup-in-record"
	[ "$outside" = "0::${cg#/sys/fs/cgroup}/sandbox" ] || why="$why init-outside='$outside'"
	[ "$payload" = "$outside" ] || why="$why payload-outside='$payload'"
	if [ "$who" = user ]; then
		case $outside in 0::/deleg/nsbox-*) ;; *) why="$why not-under-deleg" ;; esac
	fi
	verdict "$who-nsbox-placement" "$why" "inside '$inside', init and payload seen from outside in '$outside'"
}

# The default pids limit (no --pids) and --pids unlimited, as pids.max of
# the run's cgroup shows them while the payload sleeps.
pids_max_while() {
	who=$1
	shift
	run "$who" "$@" -- sleep 2 &
	bg=$!
	val=
	i=0
	while [ "$i" -lt 100 ] && [ -z "$val" ]; do
		sleep 0.05
		for d in "$CGROOT"/nsbox-* "$CGROOT"/deleg/nsbox-*; do
			[ -r "$d/pids.max" ] && val=$(cat "$d/pids.max") && break
		done
		i=$((i + 1))
	done
	wait "$bg"
	echo "$val"
}
CGROOT=/sys/fs/cgroup

t_pids_default() {
	who=$1
	why=
	max=$(pids_max_while "$who")
	[ "$max" = 4096 ] || why="$why pids.max=$max"
	has '"pids":{"max":4096,"via":"cgroup","default":true,"reason":null}' ||
		why="$why record"
	grep -q 'warning' "$W/err" && why="$why stderr-warning"
	lifted=$(pids_max_while "$who" --pids unlimited)
	[ "$lifted" = max ] || why="$why unlimited:pids.max=$lifted"
	has '"pids":{"max":null,"via":null,"default":false,"reason":"lifted by --pids unlimited"}' ||
		why="$why unlimited:record"
	verdict "$who-nsbox-pids-default" "$why" "pids.max $max by default, $lifted with --pids unlimited"
}

for who in root user; do
	t_oom "$who"
	t_pids "$who"
	t_pids_min "$who"
	t_pids_default "$who"
	t_cpu "$who"
	t_timeout "$who"
	t_placement "$who"
done

# Nothing of any run may be left behind.
left=$(find /sys/fs/cgroup -maxdepth 3 -type d -name 'nsbox-*')
if [ -n "$left" ]; then
	echo "VMTEST FAIL nsbox-cgroup-leftovers: $left"
	rc_all=1
else
	echo "VMTEST PASS nsbox-cgroup-leftovers"
fi
exit "$rc_all"
