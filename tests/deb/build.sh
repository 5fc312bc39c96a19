#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make deb: BUILD/nsbox_<version>_amd64.deb, built by dpkg-buildpackage in a
# scratch copy of the tree (BUILD/deb-src), so that the tree itself stays
# clean; then lintian, which must find no error and no warning that
# debian/*lintian-overrides does not explain.
#
#     bash tests/deb/build.sh BUILD_DIR
set -euo pipefail

if [ "$#" -ne 1 ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
src=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/../.." && pwd -P)
mkdir -p -- "$1"
build=$(realpath -- "$1")
cd -- "$src"
bash tests/check-version.sh
version=$(cat VERSION)

scratch=$build/deb-src
rm -rf -- "$scratch"
mkdir -p -- "$scratch/nsbox-$version"
# the tree as it is (committed or not), without any build output or git
tar -C "$src" --exclude=./build --exclude=./.git --exclude='./*/build' -cf - . |
	tar -C "$scratch/nsbox-$version" -xf -

start=$(date +%s)
(cd "$scratch/nsbox-$version" && dpkg-buildpackage -us -uc -b -j2) >"$build/deb-build.log" 2>&1 || {
	tail -n 40 "$build/deb-build.log"
	echo "deb: dpkg-buildpackage failed (the whole log: $build/deb-build.log)" >&2
	exit 1
}
for f in "$scratch"/nsbox*_"$version"_amd64.* "$scratch"/nsbox_"$version"_amd64.changes; do
	[ -e "$f" ] && mv -f -- "$f" "$build/"
done
deb=$build/nsbox_${version}_amd64.deb
[ -f "$deb" ] || {
	echo "deb: $deb was not built" >&2
	exit 1
}
echo "deb: $deb built in $(($(date +%s) - start)) s"
dpkg-deb -I "$deb" | sed -n '/Package:/,$p'
dpkg-deb -c "$deb" | awk '{ print "  " $6 }'

# error and warning fail; info and pedantic tags are printed, not fatal
lintian --fail-on error,warning --display-info --tag-display-limit 0 \
	"$build/nsbox_${version}_amd64.changes"
echo "deb: lintian: no error, no unexplained warning"
rm -rf -- "$scratch"
