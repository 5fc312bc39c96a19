#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make check-slurm`: a real single-machine Slurm cluster (tests/slurm/
# cluster.sh: munge, slurmctld, one slurmd per node name), a 50-task array
# job of examples/slurm/nsbox-array.sbatch submitted by the unprivileged test
# user, and a check of all 50 records:
#
#     CHECK_SLURM_DIR=build/slurm bash tests/slurm/check-slurm.sh /path/to/nsbox
#
# The batch: 45 copies of the README's example, each on its own input, plus
# tasks that must be stopped by their limits (3 that allocate more memory than
# --memory, 2 that fork more than --pids) and one whose input/ is missing
# (a usage error: nsbox runs nothing).  Every wait is bounded, and the trap
# stops every daemon the test started, then checks that nothing it started is
# left: no process, no cgroup.
#
# Which mechanism enforces what depends on the host, and the check reads it
# from each record's `enforced` instead of assuming it:
#   - where nsbox gets a cgroup v2 with the memory and pids controllers, the
#     limits are via "cgroup", the memory hogs end oom_killed, and the
#     cgroup's path must be gone after the run;
#   - on a hybrid host (controllers bound to cgroup v1, an unified tree with
#     none, as on the development host) Slurm is configured with no cgroup
#     plugin at all, nsbox falls back to RLIMIT_AS/RLIMIT_DATA (--memory) and
#     RLIMIT_NPROC (--pids), the records say "rlimit" and enforced.cgroup is
#     null, and the memory hogs see MemoryError and exit 3.
set -euo pipefail

NTASKS=50
NODES=4
WAIT_JOB=${SLURM_WAIT_JOB:-180}

if [ "$#" -ne 1 ] || [ ! -x "$1" ]; then
	echo "usage: $0 NSBOX_BINARY" >&2
	exit 2
fi
nsbox=$(realpath -- "$1")
src=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
# Everything under build/ (CHECK_SLURM_DIR: make check-slurm passes $(BUILD)/slurm).
mkdir -p -- "${CHECK_SLURM_DIR:=$src/build/slurm}"
dir=$(cd -- "$CHECK_SLURM_DIR" && pwd -P)
work=$dir/work
user=${NSBOX_TEST_USER:-nsbox-test}

say() { printf 'check-slurm: %s\n' "$*"; }
fail() {
	printf 'check-slurm: FAILED: %s\n' "$*" >&2
	exit 1
}

[ "$(id -u)" = 0 ] || fail "must run as root (slurmd starts jobs as the submitting user)"
bash "$src/tests/ensure-user.sh"
getent passwd "$user" >/dev/null || fail "the test user '$user' does not exist"

# One cluster at a time on this host.
exec 8>"$dir.lock"
flock -w 300 8 || fail "another check-slurm held $dir.lock for 300 s"

cg2=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
# nsbox cgroups present before the run (another nsbox may run beside this
# test): only new ones count as leftovers.
list_nsbox_cgroups() {
	if [ -n "$cg2" ]; then
		find "$cg2" -mindepth 1 -type d -name 'nsbox-*' 2>/dev/null | sort
	fi
}
# Slurm must not have made a cgroup anywhere, v1 mounts included (only read).
list_slurm_cgroups() {
	find /sys/fs/cgroup -maxdepth 4 -type d \( -name 'slurm*' -o -name 'job_*' \) 2>/dev/null | sort
}
list_nsbox_cgroups >"$dir/cgroups.before"
list_slurm_cgroups >"$dir/slurm-cgroups.before"

# Processes this test started: the daemons (their command line or
# environment names this cluster's directory), the job scripts (their
# environment names the work directory) and the sandboxes (their working
# directory is a task's directory).
our_processes() {
	local p pid cmd env cwd
	for p in /proc/[0-9]*; do
		pid=${p#/proc/}
		[ "$pid" = $$ ] && continue
		cmd=$(tr '\0' ' ' 2>/dev/null <"$p/cmdline") || continue
		env=$(tr '\0' '\n' 2>/dev/null <"$p/environ") || env=
		cwd=$(readlink "$p/cwd" 2>/dev/null) || cwd=
		case "$cmd" in *"$dir/"*) ;; *)
			case "$cwd" in "$work"/*) ;; *)
				case $'\n'"$env"$'\n' in
				*$'\n'"SLURM_CONF=$dir/slurm.conf"$'\n'* | *$'\n'"NSBOX_TASKS=$work"$'\n'*) ;;
				*) continue ;;
				esac
				;;
			esac
			;;
		esac
		echo "$pid ${cmd:0:100}"
	done
}

cleanup() {
	local rc=$? left
	trap - EXIT
	if [ "$rc" -ne 0 ] && [ -d "$dir/log" ]; then
		say "logs (last lines):"
		tail -n 15 "$dir"/log/slurmctld.log "$dir"/log/slurmd-n1.log 2>/dev/null || true
	fi
	bash "$src/tests/slurm/cluster.sh" stop "$dir" || rc=1
	# slurmstepd and job processes exit with their slurmd: a bounded wait.
	for _ in $(seq 50); do
		left=$(our_processes)
		[ -z "$left" ] && break
		sleep 0.2
	done
	if [ -n "$left" ]; then
		printf 'check-slurm: FAILED: processes left after the cluster stopped:\n%s\n' "$left" >&2
		rc=1
	else
		say "no process left"
	fi
	list_slurm_cgroups >"$dir/slurm-cgroups.after"
	if ! cmp -s "$dir/slurm-cgroups.before" "$dir/slurm-cgroups.after"; then
		echo "check-slurm: FAILED: Slurm cgroups appeared:" >&2
		comm -13 "$dir/slurm-cgroups.before" "$dir/slurm-cgroups.after" >&2
		rc=1
	fi
	exit "$rc"
}
trap cleanup EXIT
# A signal (make's timeout, ^C) still runs the cleanup.
trap 'exit 143' TERM
trap 'exit 130' INT

say "starting munge, slurmctld and $NODES slurmd under $dir"
t0=$(date +%s)
timeout 150 bash "$src/tests/slurm/cluster.sh" start "$dir" "$NODES" ||
	fail "the cluster did not start (logs in $dir/log)"
# shellcheck disable=SC1091
. "$dir/env"
say "cluster up in $(($(date +%s) - t0)) s: $(sinfo -h -o '%D nodes %T' | tr '\n' ' ')"

# The README's per-node prerequisite check, one nsbox doctor per node.
# shellcheck disable=SC2016 # expanded by the shell on each node
probe='"$0" doctor >/dev/null; echo "$SLURMD_NODENAME $?"'
doctor=$(timeout 60 runuser -u "$user" -- env SLURM_CONF="$SLURM_CONF" \
	srun --chdir=/ --nodes="$NODES" --ntasks-per-node=1 sh -c "$probe" "$nsbox" | sort) ||
	fail "srun nsbox doctor failed: $doctor"
say "nsbox doctor per node: $(echo "$doctor" | tr '\n' ' ')"
[ "$(grep -c ' 0$' <<<"$doctor")" -eq "$NODES" ] || fail "nsbox doctor did not exit 0 on every node"

rm -rf -- "$work"
install -d -o "$user" -g "$(id -gn "$user")" -- "$work"
runuser -u "$user" -- bash "$src/examples/slurm/prepare.sh" "$work" "$NTASKS"

task() { sed -n "$(($1 + 1))p" "$work/tasks.txt"; }
# Tasks that the limits must stop (same project layout, another script.py).
for i in 10 20 30; do
	cat >"$(task $i)/script.py" <<'PY'
import sys
# 512 MiB, touched, against --memory 384M (3/4 of the 512M allocation)
try:
    block = b"\x01" * (512 << 20)
except MemoryError:
    print("MemoryError: the memory limit held", file=sys.stderr)
    sys.exit(3)
print(f"allocated {len(block)} bytes: the memory limit did not hold")
PY
done
for i in 40 45; do
	cat >"$(task $i)/script.py" <<'PY'
import os, sys, time
children = []
try:
    for _ in range(200):
        pid = os.fork()
        if pid == 0:
            time.sleep(60)
            os._exit(0)
        children.append(pid)
    code = 0
except OSError as e:
    print(f"fork refused after {len(children)} children: {e.strerror}")
    code = 4
with open("out/result.txt", "w", encoding="utf-8") as f:
    f.write(f"children {len(children)}\n")
for pid in children:
    os.kill(pid, 9)
sys.exit(code)
PY
done
rm -rf -- "$(task 49)/input"

say "submitting a $NTASKS-task array job as $user"
jobid=$(cd "$work" && runuser -u "$user" -- env SLURM_CONF="$SLURM_CONF" \
	sbatch --parsable --array=0-$((NTASKS - 1)) --output="$work/slurm-%A_%a.out" \
	--export=ALL,NSBOX_TASKS="$work",NSBOX="$nsbox" \
	"$src/examples/slurm/nsbox-array.sbatch") || fail "sbatch refused the job"
jobid=${jobid%%;*}
[[ "$jobid" =~ ^[0-9]+$ ]] || fail "sbatch answered '$jobid'"
say "array job $jobid submitted; waiting at most ${WAIT_JOB}s"
t0=$(date +%s)
while [ -n "$(squeue -h -j "$jobid" -o %i 2>/dev/null)" ]; do
	if [ $(($(date +%s) - t0)) -ge "$WAIT_JOB" ]; then
		squeue -j "$jobid" >&2 || true
		scancel "$jobid" || true
		fail "array job $jobid still queued or running after ${WAIT_JOB}s"
	fi
	sleep 1
done
say "array job $jobid done in $(($(date +%s) - t0)) s"

# Slurm's own view of every task's exit code (MinJobAge keeps them listed).
scontrol -o show job "$jobid" | tr ' ' '\n' |
	awk -F= '$1 == "ArrayTaskId" { t = $2 } $1 == "ExitCode" { print t, $2 }' |
	sort -n >"$dir/slurm-exit-codes"

left=$(our_processes | grep -v -e slurmctld -e slurmscriptd -e slurmd -e munged || true)
[ -z "$left" ] || fail "processes left after the job ended: $left"

python3 - "$work/results/$jobid.jsonl" "$dir/slurm-exit-codes" "$NTASKS" "$NODES" \
	"$dir/cgroups.before" <<'PY'
import json, os, sys

path, codes_path, ntasks, nodes, cg_before = sys.argv[1:]
ntasks, nodes = int(ntasks), int(nodes)
MEM, PIDS, TIMEOUT_MS = 384 << 20, 64, 120000
MEMORY_HOGS, FORK_HOGS, NO_INPUT = {10, 20, 30}, {40, 45}, 49
errors = []

def bad(task, what):
    errors.append(f"task {task}: {what}")

with open(path, encoding="utf-8") as f:
    lines = [json.loads(text) for text in f]
tasks = sorted(line["task"] for line in lines)
if tasks != list(range(ntasks)):
    errors.append(f"{len(lines)} lines, tasks {tasks}: want each of 0..{ntasks - 1} once")

slurm_exit = {}
with open(codes_path, encoding="utf-8") as f:
    for text in f:
        task, code = text.split()
        slurm_exit[int(task)] = code

mechanisms = set()
for line in lines:
    t, rec = line["task"], line["record"]
    if not isinstance(rec, dict) or rec.get("schema") != 1:
        bad(t, "no record")
        continue
    # Slurm saw the same exit code as the job script, which exits with nsbox's.
    if slurm_exit.get(t) != f"{line['exit']}:0":
        bad(t, f"Slurm's ExitCode {slurm_exit.get(t)} is not {line['exit']}:0")
    if t == NO_INPUT:
        err = rec.get("setup_error") or {}
        if (rec["status"], line["exit"], err.get("stage")) != ("usage_error", 125, "usage"):
            bad(t, f"missing input/: status {rec['status']} exit {line['exit']} stage {err.get('stage')}")
        continue
    enf = rec.get("enforced") or {}
    limits = enf.get("limits") or {}
    mem, pids, tmo = limits.get("memory") or {}, limits.get("pids") or {}, limits.get("timeout") or {}
    cgroup = enf.get("cgroup")
    if mem.get("bytes") != MEM or mem.get("via") not in ("cgroup", "rlimit"):
        bad(t, f"enforced.limits.memory is {mem}")
    if pids.get("max") != PIDS or pids.get("via") not in ("cgroup", "rlimit") or pids.get("default"):
        bad(t, f"enforced.limits.pids is {pids}")
    if tmo.get("ms") != TIMEOUT_MS or tmo.get("via") != "supervisor":
        bad(t, f"enforced.limits.timeout is {tmo}")
    # The mechanism and the cgroup member agree: a cgroup limit needs a
    # cgroup, an rlimit fallback means none was had for that controller.
    if mem.get("via") == "cgroup" and not cgroup:
        bad(t, "memory via cgroup but enforced.cgroup is null")
    if cgroup:
        cpath = cgroup.get("path") if isinstance(cgroup, dict) else None
        if cpath and os.path.exists(cpath):
            bad(t, f"its cgroup {cpath} is still there")
        parent = line.get("cgroup_parent")
        if parent and not (cpath or "").startswith(parent + "/"):
            bad(t, f"cgroup {cpath} is not under the job step's {parent}")
    mechanisms.add((mem.get("via"), pids.get("via")))
    out = os.path.join(line["dir"], "out", "result.txt")
    result = open(out, encoding="utf-8").read() if os.path.exists(out) else ""
    if t in MEMORY_HOGS:
        want = (("exited", 3) if mem.get("via") == "rlimit" else ("oom_killed", None))
        got = (rec["status"], rec["exit_code"] if rec["status"] == "exited" else None)
        if got != want:
            bad(t, f"memory hog: {got}, want {want} (memory via {mem.get('via')})")
    elif t in FORK_HOGS:
        n = int(result.split()[1]) if result.startswith("children ") else -1
        if rec["status"] != "exited" or rec["exit_code"] != 4 or not 0 <= n < PIDS:
            bad(t, f"fork hog: {rec['status']} {rec['exit_code']}, {n} children under --pids {PIDS}")
    else:
        rows = 2 + t % 7
        if (rec["status"], rec["exit_code"], line["exit"]) != ("exited", 0, 0):
            bad(t, f"status {rec['status']} exit {rec['exit_code']} (nsbox {line['exit']})")
        if not result.startswith(f"rows {rows}\n"):
            bad(t, f"out/result.txt is {result!r}, want rows {rows}")

used = sorted({line["node"] for line in lines})
if len(used) != nodes:
    errors.append(f"tasks ran on {used}, not on all {nodes} nodes")

with open(cg_before, encoding="utf-8") as f:
    before = set(f.read().split())
for root, dirs, _ in os.walk("/sys/fs/cgroup/unified" if os.path.isdir("/sys/fs/cgroup/unified") else "/sys/fs/cgroup"):
    for d in dirs:
        p = os.path.join(root, d)
        if d.startswith("nsbox-") and p not in before:
            errors.append(f"cgroup {p} left behind")

for e in errors:
    print(f"check-slurm: {e}", file=sys.stderr)
print(f"check-slurm: {len(lines)} records checked, nodes {', '.join(used)}; "
      f"limits enforced by (memory, pids): {sorted(mechanisms)}")
sys.exit(1 if errors else 0)
PY

say "summary (examples/slurm/summarize.py; 6 tasks fail on purpose):"
rc=0
python3 "$src/examples/slurm/summarize.py" "$work/results/$jobid.jsonl" >"$dir/summary.txt" || rc=$?
cat "$dir/summary.txt"
[ "$rc" = 1 ] || fail "summarize.py exited $rc, want 1 (some tasks failed on purpose)"
grep -q "^$NTASKS tasks on $NODES nodes" "$dir/summary.txt" || fail "the summary's first line is wrong"
grep -q '^  task 49 on .*: \[usage\] ' "$dir/summary.txt" || fail "the summary does not name task 49's stage"
say "OK: $NTASKS records checked"
