#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# make deb: BUILD/nsbox_<version>_amd64.deb, built by dpkg-buildpackage in a
# scratch copy of the tree (BUILD/deb-src), so that the tree itself stays
# clean; then lintian, on it and on the source package, which must find no
# error and no warning that a debian/*lintian-overrides file does not explain
# (there are none to explain today).
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
# the tree as it is, committed or not, but without what git ignores (build
# output, caches); outside a git checkout, everything but build/
if git -C "$src" rev-parse --git-dir >/dev/null 2>&1; then
	git -C "$src" ls-files -z --cached --others --exclude-standard |
		tar -C "$src" --ignore-failed-read --null -T - -cf - | tar -C "$scratch/nsbox-$version" -xf -
else
	tar -C "$src" --exclude=./build -cf - . | tar -C "$scratch/nsbox-$version" -xf -
fi

# The source package first, from the pristine copy, so that lintian reads
# debian/ itself (rules, copyright, changelog): a native package is one
# tarball and a .dsc.
(cd "$scratch" && dpkg-source -b "nsbox-$version") \
	>"$build/deb-build.log" 2>&1 || {
	echo "deb: dpkg-source -b failed (see $build/deb-build.log)" >&2
	exit 1
}
mv -f -- "$scratch/nsbox_$version.dsc" "$scratch/nsbox_$version.tar.xz" "$build/"

start=$(date +%s)
(cd "$scratch/nsbox-$version" && dpkg-buildpackage -us -uc -b -j2) >>"$build/deb-build.log" 2>&1 || {
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
	"$build/nsbox_${version}_amd64.changes" "$build/nsbox_$version.dsc"
echo "deb: lintian (binary and source): no error, no unexplained warning"
rm -rf -- "$scratch"
