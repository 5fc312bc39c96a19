#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# tests/deb/check.sh's way into the fresh root, run by
#     unshare --mount --propagation private --pid --fork --uts --ipc
# so that every mount below lives in this private mount namespace only and
# vanishes with it: pid 1 of a new pid namespace mounts its own /proc (no
# covers, so nsbox's user namespace may mount proc in turn), binds /sys,
# makes a small /dev, pivots into ROOT and runs inside.sh there.
#
#     bash tests/deb/enter.sh ROOT VERSION
set -euo pipefail

root=$1
version=$2
[ "$$" -eq 1 ] || {
	echo "enter: must be pid 1 of its own pid namespace (unshare --pid --fork)" >&2
	exit 1
}
# a mount point to pivot into
mount --bind "$root" "$root"
mount -t proc -o nosuid,nodev,noexec proc "$root/proc"
mount --rbind /sys "$root/sys"
mount -t tmpfs -o mode=0755,nosuid,noexec dev "$root/dev"
for n in null zero full random urandom tty; do
	touch "$root/dev/$n"
	mount --bind "/dev/$n" "$root/dev/$n"
done
mkdir "$root/dev/pts" "$root/dev/shm"
mount -t devpts -o newinstance,ptmxmode=0666,mode=0620 devpts "$root/dev/pts"
mount -t tmpfs -o mode=1777,nosuid,nodev shm "$root/dev/shm"
ln -s pts/ptmx "$root/dev/ptmx"
ln -s /proc/self/fd "$root/dev/fd"
ln -s /proc/self/fd/0 "$root/dev/stdin"
ln -s /proc/self/fd/1 "$root/dev/stdout"
ln -s /proc/self/fd/2 "$root/dev/stderr"

cd "$root"
pivot_root . tmp/check/oldroot
cd /
umount -l /tmp/check/oldroot
exec env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
	/bin/bash /tmp/check/inside.sh "$version"
