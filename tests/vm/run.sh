#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Boot the nsbox test VM and judge its serial log.
#
# usage: run.sh KERNEL INITRD LOG [TIMEOUT_SECONDS]
#
# Exits 0 only when the log has a "VMTEST DONE" line and no "VMTEST FAIL"
# line.
#
# Accelerator: NSBOX_VM_ACCEL=auto (the default), kvm or tcg.  auto tries KVM
# when /dev/kvm is readable and writable, and falls back to TCG within
# seconds when KVM cannot run the guest: a /dev/kvm that opens is no proof
# (a nested or restricted host answers "KVM internal error. Suberror: 1 ...
# emulation failure" on qemu's stderr and then stops the guest, silently,
# forever).  So qemu's stderr and the serial log are watched while it runs:
#   - a KVM error on stderr, or qemu exiting before the guest said anything
#     (as on a host where KVM "failed to set MSR"), or no serial output under
#     KVM within NSBOX_VM_KVM_PROBE seconds (default 15; SeaBIOS prints its
#     banner within a second): TCG instead (auto) or failure (kvm);
#   - no serial output at all within NSBOX_VM_BOOT_SILENCE seconds (default
#     60) of a TCG boot, or none for NSBOX_VM_SILENCE seconds (default 120)
#     once the VM has spoken (tests/vm/init.sh streams every test's output):
#     failure, with a line saying so;
#   - TIMEOUT_SECONDS (default 300) for the whole run.
# NSBOX_VM_QEMU names the qemu binary (default qemu-system-x86_64 on PATH),
# NSBOX_VM_KVM_DEV the KVM device (default /dev/kvm); tests/vm/test-run.sh
# uses both to exercise this logic with a fake qemu.
set -eu

if [ $# -lt 3 ]; then
	echo "usage: $0 KERNEL INITRD LOG [TIMEOUT_SECONDS]" >&2
	exit 2
fi
kernel=$1
initrd=$2
log=$3
limit=${4:-300}
qemu=${NSBOX_VM_QEMU:-qemu-system-x86_64}
kvm_dev=${NSBOX_VM_KVM_DEV:-/dev/kvm}
kvm_probe=${NSBOX_VM_KVM_PROBE:-15}
boot_silence=${NSBOX_VM_BOOT_SILENCE:-60}
silence=${NSBOX_VM_SILENCE:-120}
errlog=$log.qemu-stderr

mode=${NSBOX_VM_ACCEL:-auto}
case $mode in
auto)
	if [ -r "$kvm_dev" ] && [ -w "$kvm_dev" ]; then
		accels="kvm tcg"
	else
		echo "vm: $kvm_dev is not usable: TCG"
		accels=tcg
	fi
	;;
kvm) accels=kvm ;;
tcg) accels=tcg ;;
*)
	echo "vm: NSBOX_VM_ACCEL='$mode': expected auto, kvm or tcg" >&2
	exit 2
	;;
esac

if ! command -v "$qemu" >/dev/null 2>&1; then
	echo "vm: FAILED: $qemu not found" >&2
	echo "hint: apt-get install --no-install-recommends qemu-system-x86 (make deps-vm)" >&2
	exit 1
fi

qpid=
stop_qemu() {
	if [ -n "$qpid" ] && kill -0 "$qpid" 2>/dev/null; then
		kill "$qpid" 2>/dev/null || true
		i=0
		while [ "$i" -lt 20 ] && kill -0 "$qpid" 2>/dev/null; do
			sleep 0.25
			i=$((i + 1))
		done
		kill -9 "$qpid" 2>/dev/null || true
	fi
	if [ -n "$qpid" ]; then
		wait "$qpid" 2>/dev/null || true
	fi
	qpid=
}
trap 'stop_qemu' EXIT
trap 'stop_qemu; exit 130' INT TERM

now() { date +%s; }
size_of() { if [ -f "$1" ]; then wc -c <"$1"; else echo 0; fi; }

# boot ACCEL: run qemu under ACCEL while watching it.  Sets $why to "" (qemu
# ended by itself, status in $qrc), "kvm" (KVM cannot run the guest),
# "silent" or "timeout".
boot() {
	accel=$1
	why=
	qrc=0
	rm -f "$log" "$errlog"
	: >"$log"
	if [ "$accel" = kvm ]; then
		set -- -accel kvm -cpu host
	else
		# One host thread runs both vCPUs in turn: multi-threaded TCG
		# (qemu 7.2) races with the guest kernel patching its own text
		# through int3, which oopsed the guest once in a CI run
		# ("Oops: int3" in get_random_u32).
		set -- -accel tcg,thread=single
	fi
	# -no-reboot + panic=-1: a crash of /init ends qemu instead of looping.
	"$qemu" "$@" -m 1024 -smp 2 \
		-nographic -monitor none -nic none -serial "file:$log" -no-reboot \
		-kernel "$kernel" -initrd "$initrd" \
		-append "console=ttyS0 panic=-1 quiet nsb_vm_timeout=$((limit / 2))" \
		</dev/null >/dev/null 2>"$errlog" &
	qpid=$!
	t0=$(now)
	last=0
	last_t=$t0
	while kill -0 "$qpid" 2>/dev/null; do
		t=$(now)
		n=$(size_of "$log")
		if [ "$n" -ne "$last" ]; then
			last=$n
			last_t=$t
		fi
		if [ "$accel" = kvm ] && grep -qiE 'KVM internal error|emulation failure|kvm run failed' "$errlog"; then
			why=kvm
		elif [ "$accel" = kvm ] && [ "$n" -eq 0 ] && [ $((t - t0)) -ge "$kvm_probe" ]; then
			why=kvm
			echo "no serial output from the guest within ${kvm_probe}s under KVM" >>"$errlog"
		elif [ "$n" -eq 0 ] && [ $((t - t0)) -ge "$boot_silence" ]; then
			why=silent
		elif [ "$n" -gt 0 ] && [ $((t - last_t)) -ge "$silence" ]; then
			why=silent
		elif [ $((t - t0)) -ge "$limit" ]; then
			why=timeout
		fi
		if [ -n "$why" ]; then
			stop_qemu
			return 0
		fi
		sleep 0.5
	done
	wait "$qpid" || qrc=$?
	qpid=
	# KVM that gave up before the guest said anything (no usable
	# virtualization, a refused ioctl) is KVM's failure, not the VM's.
	if [ "$accel" = kvm ] && [ "$(size_of "$log")" -eq 0 ] && [ "$qrc" -ne 0 ]; then
		why=kvm
	fi
}

start=$(now)
for accel in $accels; do
	boot "$accel"
	if [ "$why" = kvm ] && [ "$accel" = kvm ]; then
		reason=$(grep -m 1 -iE 'error|failure|no serial output' "$errlog" || head -n 1 "$errlog")
		if [ "$mode" = auto ]; then
			echo "vm: KVM cannot run this guest ($reason): falling back to TCG"
			continue
		fi
		echo "vm: FAILED: KVM cannot run this guest ($reason); NSBOX_VM_ACCEL=kvm forbids falling back to TCG" >&2
		exit 1
	fi
	break
done
end=$(now)

cat "$log"
if [ -s "$errlog" ]; then
	sed 's/^/qemu: /' "$errlog"
fi
echo "vm: $accel run took $((end - start))s (qemu status $qrc)"

case $why in
silent)
	if [ "$(size_of "$log")" -eq 0 ]; then
		echo "vm: FAILED: no serial output from the VM within ${boot_silence}s under $accel (qemu hung or the kernel cannot boot); see $errlog" >&2
	else
		echo "vm: FAILED: no serial output from the VM for ${silence}s under $accel (a test hung?)" >&2
	fi
	exit 1
	;;
timeout)
	echo "vm: FAILED: timed out after ${limit}s" >&2
	exit 1
	;;
esac
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
