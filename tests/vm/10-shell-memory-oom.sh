#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# VM test without nsbox: proves the harness and the kernel.  A cgroup with
# memory.max=64M and no swap; a 200M allocation in it must be oom-killed and
# memory.peak must be close to the limit.
cg=/sys/fs/cgroup/shell-oom
name=shell-memory-oom

mkdir "$cg" || { echo "VMTEST FAIL $name: mkdir $cg"; exit 1; }
echo 64M >"$cg/memory.max"
echo 0 >"$cg/memory.swap.max"
echo 1 >"$cg/memory.oom.group"

# dd allocates one bs-sized buffer and fills it from /dev/zero.
sh -c "echo \$\$ >$cg/cgroup.procs && exec dd if=/dev/zero of=/dev/null bs=200M count=1" \
	2>/dev/null
rc=$?
peak=$(cat "$cg/memory.peak")
oom=$(sed -n 's/^oom_kill //p' "$cg/memory.events")
echo "shell-oom: rc=$rc memory.peak=$peak oom_kill=$oom"
rmdir "$cg"

lim=$((64 * 1024 * 1024))
if [ "$rc" -ne 137 ]; then
	echo "VMTEST FAIL $name: hog exited $rc, expected 137 (SIGKILL)"
elif [ "${oom:-0}" -lt 1 ]; then
	# oom.group may count one kill per member: at least one is the claim.
	echo "VMTEST FAIL $name: memory.events oom_kill=$oom, expected >= 1"
elif [ "$peak" -gt "$lim" ] || [ "$peak" -lt $((lim * 9 / 10)) ]; then
	echo "VMTEST FAIL $name: memory.peak=$peak not within 90-100% of $lim"
else
	echo "VMTEST PASS $name"
fi
