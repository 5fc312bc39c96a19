#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Tests of tests/vm/run.sh's choice of accelerator and its watchdogs, with a
# fake qemu (no VM boots; a few seconds in all).  Run by `make check`.
#
# The fake qemu writes a passing serial log, or behaves as a broken KVM
# does ("KVM internal error ... emulation failure" on stderr, then hangs),
# or hangs silently, as FAKE_QEMU_KVM / FAKE_QEMU_TCG say.
set -u

here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

cat >"$tmp/qemu" <<'FAKE'
#!/bin/sh
accel=
serial=
while [ $# -gt 0 ]; do
	case $1 in
	-accel) accel=${2%%,*} && shift ;; # the kind; run.sh adds its options
	-serial) serial=${2#file:} && shift ;;
	esac
	shift
done
case $accel in
kvm) behave=${FAKE_QEMU_KVM:-ok} ;;
*) behave=${FAKE_QEMU_TCG:-ok} ;;
esac
echo "$accel" >>"$FAKE_QEMU_CALLS"
case $behave in
ok)
	printf 'VMTEST BOOT fake\nVMTEST PASS fake-%s\nVMTEST DONE 1 passed, 0 failed\n' "$accel" >>"$serial"
	;;
fail)
	printf 'VMTEST FAIL fake-%s: broken\nVMTEST DONE 0 passed, 1 failed\n' "$accel" >>"$serial"
	;;
kvmerror)
	echo "KVM internal error. Suberror: 1" >&2
	echo "extra data[0]: 0x0000000000000000" >&2
	echo "emulation failure" >&2
	exec sleep 600
	;;
nokvm)
	echo "Could not access KVM kernel module: Permission denied" >&2
	echo "qemu-system-x86_64: failed to initialize kvm: Permission denied" >&2
	exit 1
	;;
silent)
	exec sleep 600
	;;
esac
FAKE
chmod 0755 "$tmp/qemu"
: >"$tmp/kvm"

failed=0
n=0

# check NAME WANT_RC MAX_SECONDS WANT_CALLS [GREP...] -- ENV...:
# run run.sh with ENV, expect its status, how long it may take, the
# accelerators the fake qemu saw (space-separated), and lines of its output.
check() {
	name=$1 want_rc=$2 max_s=$3 want_calls=$4
	shift 4
	greps=
	while [ "$1" != -- ]; do
		greps="$greps
$1"
		shift
	done
	shift
	: >"$tmp/calls"
	t0=$(date +%s)
	env NSBOX_VM_QEMU="$tmp/qemu" NSBOX_VM_KVM_DEV="$tmp/kvm" FAKE_QEMU_CALLS="$tmp/calls" "$@" \
		sh "$here/run.sh" "$tmp/kernel" "$tmp/initrd" "$tmp/serial.log" 60 \
		>"$tmp/out" 2>&1
	rc=$?
	took=$(($(date +%s) - t0))
	calls=$(tr '\n' ' ' <"$tmp/calls" | sed 's/ $//')
	why=
	[ "$rc" -eq "$want_rc" ] || why="$why status $rc, want $want_rc;"
	[ "$took" -le "$max_s" ] || why="$why took ${took}s, at most ${max_s}s;"
	[ "$calls" = "$want_calls" ] || why="$why qemu ran '$calls', want '$want_calls';"
	printf '%s\n' "$greps" | while IFS= read -r g; do
		[ -z "$g" ] || grep -qF -- "$g" "$tmp/out" || echo "missing '$g';"
	done >"$tmp/missing"
	why="$why$(tr '\n' ' ' <"$tmp/missing")"
	n=$((n + 1))
	if [ -z "$why" ]; then
		echo "PASS $name (${took}s)"
	else
		echo "FAIL $name:$why"
		sed 's/^/    | /' "$tmp/out"
		failed=$((failed + 1))
	fi
}

check kvm_works 0 5 "kvm" "fake-kvm" "vm: kvm run took" "vm: all tests passed" --
check kvm_internal_error_falls_back_to_tcg 0 8 "kvm tcg" \
	"vm: KVM cannot run this guest (KVM internal error. Suberror: 1): falling back to TCG" \
	"fake-tcg" "vm: tcg run took" "vm: all tests passed" -- FAKE_QEMU_KVM=kvmerror
check kvm_that_will_not_start_falls_back 0 5 "kvm tcg" "falling back to TCG" \
	"vm: all tests passed" -- FAKE_QEMU_KVM=nokvm
check silent_kvm_falls_back_after_the_probe 0 8 "kvm tcg" \
	"no serial output from the guest within 2s under KVM" "vm: all tests passed" -- \
	FAKE_QEMU_KVM=silent NSBOX_VM_KVM_PROBE=2
check forced_kvm_fails_fast 1 8 "kvm" \
	"vm: FAILED: KVM cannot run this guest (KVM internal error. Suberror: 1); NSBOX_VM_ACCEL=kvm forbids falling back to TCG" \
	-- FAKE_QEMU_KVM=kvmerror NSBOX_VM_ACCEL=kvm
check forced_tcg_never_tries_kvm 0 5 "tcg" "vm: tcg run took" "vm: all tests passed" -- \
	FAKE_QEMU_KVM=kvmerror NSBOX_VM_ACCEL=tcg
check no_kvm_device_means_tcg 0 5 "tcg" "is not usable: TCG" "vm: all tests passed" -- \
	NSBOX_VM_KVM_DEV="$tmp/none"
check a_silent_vm_fails_fast 1 8 "tcg" \
	"vm: FAILED: no serial output from the VM within 2s under tcg" -- \
	FAKE_QEMU_TCG=silent NSBOX_VM_ACCEL=tcg NSBOX_VM_BOOT_SILENCE=2
check a_failing_test_fails_the_run 1 5 "tcg" "vm: FAILED:" "VMTEST FAIL fake-tcg: broken" -- \
	FAKE_QEMU_TCG=fail NSBOX_VM_ACCEL=tcg
check a_bad_accel_is_a_usage_error 2 5 "" "NSBOX_VM_ACCEL='xen': expected auto, kvm or tcg" -- \
	NSBOX_VM_ACCEL=xen

echo "test-run: $((n - failed)) passed, $failed failed"
[ "$failed" -eq 0 ]
