#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make check-deb: the package (make deb) on a fresh Debian root, as a user
# would get it:
#
#     bash tests/deb/check.sh BUILD_DIR
#
# 1. a base root from Debian's mirror (the one /etc/apt/sources.list names) by
#    mmdebstrap: the Essential packages (no apt: dpkg -i is all it takes),
#    mount (umount after the pivot), passwd (useradd), python3 (the
#    example's interpreter) and the package's own Depends; cached as
#    BUILD/deb-root/base-<suite>-<key>.tar, the key a hash of variant,
#    suite, mirror and package list (2-3 minutes to make, seconds to unpack;
#    a new one replaces the others);
# 2. a fresh copy of it per run, entered as root in new mount, pid, UTS and
#    IPC namespaces (tests/deb/enter.sh);
# 3. inside (tests/deb/inside.sh): dpkg -i, the README's example
#    (examples/run-demo.sh) with the installed /usr/bin/nsbox as root and as
#    a user, dpkg --purge, and every path compared with the list taken
#    before the install: nothing may be left, nothing may be missing.
#
# Why not chroot(1): the kernel refuses a user namespace to a chrooted
# process (clone: EPERM), and nsbox needs one; enter.sh pivots into the root
# instead.  Nor bwrap: its /proc has read-only covers (/proc/sys ...), and
# the kernel lets a new user namespace mount proc only where a proc without
# covers is visible (nsbox: "mount proc: EPERM").  The /proc, /dev and /sys
# mounts are made in a private mount namespace and die with it, so the host
# never sees a mount under the scratch root (and nothing there propagates
# back); the trap still checks /proc/self/mountinfo before it removes that
# root, and refuses to if anything is mounted there.
set -euo pipefail

if [ "$#" -ne 1 ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
src=$(cd -- "$here/../.." && pwd -P)
build=$(realpath -- "$1")
version=$(cat "$src/VERSION")
deb=$build/nsbox_${version}_amd64.deb
start=$(date +%s)

if [ "$(id -u)" -ne 0 ]; then
	echo "check-deb: needs root (mmdebstrap, dpkg inside the root)" >&2
	exit 1
fi
[ -f "$deb" ] || {
	echo "check-deb: $deb missing: make deb" >&2
	exit 1
}
for t in mmdebstrap unshare pivot_root; do
	command -v "$t" >/dev/null || {
		echo "check-deb: $t not installed (make deps-deb)" >&2
		exit 1
	}
done

# The host's own suite and Debian mirror: nothing else is reachable.
suite=$(sed -n "s/^VERSION_CODENAME=//p" /etc/os-release)
mirror=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources \
	2>/dev/null | grep -oE 'https?://[^ ]+/debian/?( |$)' | head -n 1 | tr -d ' ' || true)
mirror=${mirror:-http://deb.debian.org/debian}
mirror=${mirror%/}
variant=essential
include=mount,passwd,python3
for d in $(dpkg-deb -f "$deb" Depends | tr ',' '\n' | sed 's/(.*)//; s/|.*//; s/[[:space:]]//g'); do
	include+=,$d
done
key=$(printf '%s\n' "$variant" "$suite" "$mirror" "$include" | sha256sum | cut -c1-12)
mkdir -p "$build/deb-root"
base=$build/deb-root/base-$suite-$key.tar
if [ ! -f "$base" ]; then
	echo "check-deb: mmdebstrap $suite from $mirror ($variant + $include) into $base"
	t0=$(date +%s)
	mmdebstrap --quiet --variant="$variant" --include="$include" --format=tar \
		"$suite" "$base.tmp" "deb $mirror $suite main"
	mv -f -- "$base.tmp" "$base"
	find "$build/deb-root" -maxdepth 1 -name 'base-*.tar' ! -name "${base##*/}" -delete
	echo "check-deb: base root made in $(($(date +%s) - t0)) s (cached for the next run)"
else
	echo "check-deb: base root from the cache: $base"
fi

host_nsbox() {
	if [ -e /usr/bin/nsbox ]; then sha256sum /usr/bin/nsbox; else echo absent; fi
}
host_before=$(host_nsbox)

root=$(mktemp -d "$build/deb-root/root.XXXXXX")
cleanup() {
	# Only a root with nothing mounted under it is removed (bwrap's mounts
	# were never visible here; this makes sure).
	if grep -qF " $root" /proc/self/mountinfo; then
		echo "check-deb: something is still mounted under $root: not removing it" >&2
		return
	fi
	rm -rf --one-file-system -- "$root"
}
trap cleanup EXIT

tar -C "$root" -xf "$base"
mkdir -p "$root/tmp/check"
cp -- "$deb" "$root/tmp/check/nsbox.deb"
cp -- "$here/inside.sh" "$root/tmp/check/"
mkdir "$root/tmp/check/example"
cp -R -- "$src/examples/run-demo.sh" "$src/examples/script.py" "$src/examples/input" "$src/examples/out" \
	"$root/tmp/check/example/"

mkdir "$root/tmp/check/oldroot"
rc=0
unshare --mount --propagation private --pid --fork --uts --ipc -- \
	/bin/bash "$here/enter.sh" "$root" "$version" || rc=$?

host_after=$(host_nsbox)
if [ "$host_before" != "$host_after" ]; then
	echo "check-deb: FAIL: the host's /usr/bin/nsbox changed ($host_before -> $host_after)" >&2
	rc=1
fi
if [ "$rc" -ne 0 ]; then
	echo "check-deb: FAILED (exit $rc)" >&2
	exit "$rc"
fi
echo "check-deb: OK in $(($(date +%s) - start)) s"
