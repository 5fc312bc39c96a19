#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Boot the nsbox test VM and judge its serial log.
#
# usage: run.sh KERNEL INITRD LOG [TIMEOUT_SECONDS]
#
# KVM when /dev/kvm is usable, TCG otherwise.  Exits 0 only when the log has
# a "VMTEST DONE" line and no "VMTEST FAIL" line.
set -eu

if [ $# -lt 3 ]; then
	echo "usage: $0 KERNEL INITRD LOG [TIMEOUT_SECONDS]" >&2
	exit 2
fi
kernel=$1
initrd=$2
log=$3
limit=${4:-300}

if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	accel="-accel kvm -cpu host"
else
	accel="-accel tcg"
fi

rm -f "$log"
start=$(date +%s.%N)
rc=0
# -no-reboot + panic=-1: a crash of /init ends qemu instead of looping.  The
# hard timeout covers a hang; SIGKILL follows if qemu ignores SIGTERM.
# shellcheck disable=SC2086 # $accel is a list of words
timeout -k 5 "$limit" qemu-system-x86_64 $accel -m 1024 -smp 2 \
	-nographic -monitor none -serial "file:$log" -no-reboot \
	-kernel "$kernel" -initrd "$initrd" \
	-append "console=ttyS0 panic=-1 quiet nsb_vm_timeout=$((limit / 2))" \
	</dev/null || rc=$?
end=$(date +%s.%N)

cat "$log"
echo "vm: ${accel#-accel } run took $(awk "BEGIN { printf \"%.1f\", $end - $start }")s (qemu status $rc)"

if [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	echo "vm: FAILED: timed out after ${limit}s" >&2
	exit 1
fi
if ! grep -q '^VMTEST DONE ' "$log"; then
	echo "vm: FAILED: no 'VMTEST DONE' line in $log (the VM crashed or /init died)" >&2
	exit 1
fi
if grep -q '^VMTEST FAIL ' "$log"; then
	echo "vm: FAILED:" >&2
	grep '^VMTEST FAIL ' "$log" >&2
	exit 1
fi
echo "vm: all tests passed"
