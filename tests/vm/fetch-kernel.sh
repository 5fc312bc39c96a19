#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Fetch a Debian cloud kernel for the cgroup v2 VM tests and unpack it under
# the build directory.  The package is downloaded with `apt-get download` and
# unpacked with `dpkg-deb -x`: it is never installed, so the host's /boot and
# module tree stay untouched.
#
# usage: fetch-kernel.sh [OUTDIR]        (default: build/vm/kernel)
#   NSB_VM_KVER=6.12.117+deb12  pins a version; default: the newest
#   linux-image-<ver>-cloud-amd64 the configured apt sources know.
#
# Prints the path of the vmlinuz on stdout.  Cached: when OUTDIR already holds
# a kernel, nothing is downloaded.
set -eu

out=${1:-build/vm/kernel}

find_vmlinuz() {
	# One kernel per cache directory, so the glob matches at most one file.
	for f in "$out"/boot/vmlinuz-*; do
		if [ -f "$f" ]; then
			echo "$f"
			return 0
		fi
	done
	return 1
}

if find_vmlinuz; then
	exit 0
fi

ver=${NSB_VM_KVER:-}
if [ -z "$ver" ]; then
	# Only concrete images (linux-image-6.12.117+deb12-cloud-amd64), not the
	# meta-packages or -dbg/-unsigned variants; sort -V ranks 6.12 above 6.1.
	pkg=$(apt-cache pkgnames linux-image- |
		grep -E '^linux-image-[0-9][^ ]*-cloud-amd64$' | sort -V | tail -n 1)
	if [ -z "$pkg" ]; then
		echo "fetch-kernel: no linux-image-*-cloud-amd64 in the apt cache" >&2
		echo "hint: run 'apt-get update' (Debian 12 sources must be configured)" >&2
		exit 1
	fi
else
	pkg=linux-image-$ver-cloud-amd64
fi

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM
echo "fetch-kernel: downloading $pkg" >&2
# apt-get download writes into the current directory; run it in a scratch dir
# (as root it also needs the _apt user to be able to write there).
chmod 0777 "$tmp"
(cd "$tmp" && apt-get download -q "$pkg" >&2)
deb=$(ls "$tmp"/*.deb)
mkdir -p "$out.partial"
dpkg-deb -x "$deb" "$out.partial"
# Publish atomically so an interrupted run never leaves a half cache.
rm -rf "$out"
mv "$out.partial" "$out"
find_vmlinuz
