#!/bin/busybox sh
# shellcheck shell=sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# /init of the nsbox test VM.  Runs as pid 1 inside the initramfs: sets up a
# pure cgroup v2 hierarchy with the memory, pids and cpu controllers, an
# unprivileged user with a delegated subtree, runs every /tests/* in name
# order and reports on the serial console:
#
#   VMTEST PASS <name>
#   VMTEST FAIL <name>: <why>
#   VMTEST DONE <N> passed, <M> failed
#
# A test may print its own PASS/FAIL lines (one executable, many checks);
# one that prints none is judged by its exit status.  Then powers off.

# The initramfs is the kernel's rootfs, which pivot_root(2) refuses to move
# (EINVAL), so nsbox could not build its root on it.  Copy the image into a
# tmpfs and make that the root first, as an initramfs does before booting
# a real system; switch_root frees the old contents.
if [ ! -e /.nsb-stage2 ]; then
	/bin/busybox mkdir -p /newroot
	/bin/busybox mount -t tmpfs -o mode=0755 root /newroot || exit 1
	for e in /*; do
		[ "$e" = /newroot ] || /bin/busybox cp -a "$e" /newroot/ || exit 1
	done
	/bin/busybox touch /newroot/.nsb-stage2
	exec /bin/busybox switch_root /newroot /init
fi

/bin/busybox mkdir -p /bin /sbin /usr/bin /usr/sbin /proc /sys /dev /tmp /root /etc
/bin/busybox --install -s
export PATH=/bin:/sbin:/usr/bin:/usr/sbin

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t cgroup2 none /sys/fs/cgroup
# Everything under the test run's control goes to the console, which the
# host reads back as the serial log.
exec >/dev/console 2>&1 </dev/null

CG=/sys/fs/cgroup
VMUSER=nsbuser
VMUID=1000
DELEG=$CG/deleg

setup() {
	echo "+memory +pids +cpu" >"$CG/cgroup.subtree_control" || return 1

	cat >/etc/passwd <<PASSWD
root:x:0:0:root:/root:/bin/sh
$VMUSER:x:$VMUID:$VMUID:nsbox VM test user:/home/$VMUSER:/bin/sh
PASSWD
	cat >/etc/group <<GROUP
root:x:0:
$VMUSER:x:$VMUID:
GROUP
	mkdir -p "/home/$VMUSER" && chown "$VMUID:$VMUID" "/home/$VMUSER"

	# Delegate $DELEG to the user the way systemd does for user@.service:
	# the directory and the three files that move processes or enable
	# controllers.  The user's shell lives in the leaf "session", so its
	# own cgroup has processes and nsbox must create siblings of it.
	mkdir -p "$DELEG/session" || return 1
	echo "+memory +pids +cpu" >"$DELEG/cgroup.subtree_control" || return 1
	for d in "$DELEG" "$DELEG/session"; do
		chown "$VMUID:$VMUID" "$d" "$d/cgroup.procs" \
			"$d/cgroup.subtree_control" "$d/cgroup.threads" || return 1
	done
}

# as-user CMD...: run CMD as the unprivileged user inside its session cgroup.
cat >/bin/as-user <<'ASUSER'
#!/bin/sh
echo $$ >/sys/fs/cgroup/deleg/session/cgroup.procs || exit 125
# busybox su as root asks no password; ARG0 and ARGS follow -c's script,
# after "--" so that su never takes the command's options for its own.
exec su -s /bin/sh nsbuser -c 'exec "$0" "$@"' -- "$@"
ASUSER
chmod 0755 /bin/as-user

passed=0
failed=0

pass() {
	echo "VMTEST PASS $1"
	passed=$((passed + 1))
}

fail() {
	echo "VMTEST FAIL $1: $2"
	failed=$((failed + 1))
}

read -r up _ </proc/uptime
echo "VMTEST BOOT uptime=${up}s kernel=$(uname -r)"

if setup; then
	pass vm-setup
else
	fail vm-setup "cgroup2 / delegation setup failed"
fi

timeout_s=$(sed -n 's/.*nsb_vm_timeout=\([0-9]*\).*/\1/p' /proc/cmdline)
timeout_s=${timeout_s:-120}

for t in /tests/*; do
	[ -x "$t" ] || continue
	name=${t##*/}
	name=${name%.sh}
	out=/tmp/out.$name
	# Streamed to the console as it comes, so the host sees the VM alive
	# (tests/vm/run.sh fails a VM that stays silent too long).
	{
		timeout "$timeout_s" "$t" 2>&1
		echo $? >"$out.rc"
	} | tee "$out"
	read -r rc <"$out.rc"
	p=$(grep -c '^VMTEST PASS ' "$out")
	f=$(grep -c '^VMTEST FAIL ' "$out")
	passed=$((passed + p))
	failed=$((failed + f))
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		fail "$name" "exit status $rc$([ "$rc" -eq 143 ] && echo ' (timeout)')"
	elif [ "$rc" -eq 0 ] && [ "$p" -eq 0 ] && [ "$f" -eq 0 ]; then
		pass "$name"
	fi
done

read -r up _ </proc/uptime
echo "VMTEST DONE $passed passed, $failed failed (uptime ${up}s)"
sync
poweroff -f
