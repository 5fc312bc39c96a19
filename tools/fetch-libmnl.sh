#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# libmnl.a for the self-contained nsbox (the Makefile's STATIC=all).  Debian 12
# ships libmnl as a shared library only; Debian 13's libmnl-dev ships the
# archive too.  This fetches that one package from the Debian mirror, checks
# it against the SHA-256 pinned below (the integrity check: the mirror is
# reached over plain HTTP, as apt does), and unpacks it with dpkg-deb -x into
# DIR: it is never installed, and nothing outside DIR changes.
#
#   tools/fetch-libmnl.sh DIR      writes DIR/libmnl.a and DIR/copyright
#
# NSB_DEBIAN_MIRROR overrides the mirror (default http://deb.debian.org/debian).
# Its objects need nothing newer than Debian 12's glibc: socket calls,
# malloc, memcpy and stdio (tests/integration/test_static.c runs the result).
set -euo pipefail

VERSION=1.0.5-3
SHA256=7f9a7c3f470ec400171981816df189ec86b11083c3f8d391d0800ed09a87bfc3
POOL=pool/main/libm/libmnl/libmnl-dev_${VERSION}_amd64.deb

die() {
	echo "fetch-libmnl: $*" >&2
	exit 1
}

[ $# -eq 1 ] || die "usage: tools/fetch-libmnl.sh DIR"
dir=$1
[ "$(dpkg --print-architecture 2>/dev/null)" = amd64 ] ||
	die "the pinned package is for amd64; build with STATIC=1 (glibc and libmnl shared) here"
command -v dpkg-deb >/dev/null || die "dpkg-deb is missing (Debian's dpkg package)"

mirror=${NSB_DEBIAN_MIRROR:-http://deb.debian.org/debian}
tmp=$(mktemp -d)
trap 'rm -rf -- "$tmp"' EXIT
deb=$tmp/libmnl-dev.deb

if command -v curl >/dev/null; then
	curl -fsS --retry 3 --max-time 120 -o "$deb" "$mirror/$POOL" ||
		die "cannot download $mirror/$POOL (make deps fetches it; or build with STATIC=1)"
else
	python3 - "$mirror/$POOL" "$deb" <<'PY' ||
import sys, urllib.request
with urllib.request.urlopen(sys.argv[1], timeout=120) as r, open(sys.argv[2], "wb") as f:
    f.write(r.read())
PY
		die "cannot download $mirror/$POOL (make deps fetches it; or build with STATIC=1)"
fi
got=$(sha256sum "$deb" | cut -d' ' -f1)
[ "$got" = "$SHA256" ] || die "$mirror/$POOL: SHA-256 $got, want $SHA256"

dpkg-deb -x "$deb" "$tmp/x"
a=$tmp/x/usr/lib/x86_64-linux-gnu/libmnl.a
[ -f "$a" ] || die "$POOL holds no usr/lib/x86_64-linux-gnu/libmnl.a"
mkdir -p -- "$dir"
cp -- "$tmp/x/usr/share/doc/libmnl-dev/copyright" "$dir/copyright"
# The archive last: the Makefile's target, present only when complete.
cp -- "$a" "$dir/libmnl.a.tmp"
mv -- "$dir/libmnl.a.tmp" "$dir/libmnl.a"
echo "fetch-libmnl: $dir/libmnl.a (libmnl-dev $VERSION, Debian 13)"
