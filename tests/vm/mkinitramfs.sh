#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Build the initramfs of the nsbox test VM.
#
# usage: mkinitramfs.sh -o OUT.cpio.gz [-b BINARY]... [-t TEST]... [-f SRC:DEST]...
#   -b BINARY    copied to /bin/<name>, with every shared library ldd lists
#                (and the dynamic loader) at the same absolute path
#   -t TEST      copied to /tests/<name>; /init runs them in name order
#   -f SRC:DEST  file or directory SRC copied to the absolute path DEST
#
# busybox must be the static build (Debian: busybox-static).
set -eu

out=
bins=
tests=
files=
while getopts o:b:t:f: opt; do
	case $opt in
	o) out=$OPTARG ;;
	b) bins="$bins $OPTARG" ;;
	t) tests="$tests $OPTARG" ;;
	f) files="$files $OPTARG" ;;
	*) exit 2 ;;
	esac
done
if [ -z "$out" ]; then
	echo "usage: $0 -o OUT.cpio.gz [-b BINARY]... [-t TEST]... [-f SRC:DEST]..." >&2
	exit 2
fi

here=$(cd "$(dirname "$0")" && pwd)
busybox=$(command -v busybox || true)
# ldd fails on a static executable ("not a dynamic executable").
if [ -z "$busybox" ] || ldd "$busybox" >/dev/null 2>&1; then
	echo "mkinitramfs: need a static busybox (apt-get install busybox-static)" >&2
	exit 1
fi

root=$(mktemp -d)
trap 'rm -rf "$root"' EXIT INT TERM
# mktemp makes it 0700; it becomes the VM's /, which the test user must traverse.
chmod 0755 "$root"
mkdir -p "$root/bin" "$root/tests" "$root/etc" "$root/proc" "$root/sys" \
	"$root/dev" "$root/tmp" "$root/root"
cp "$busybox" "$root/bin/busybox"
ln -s busybox "$root/bin/sh"
install -m 0755 "$here/init.sh" "$root/init"

# copy_libs FILE: every library the dynamic loader would map for FILE, at
# its absolute path.  ldd prints "name => /path (addr)" or "/path (addr)".
copy_libs() {
	ldd "$1" 2>/dev/null | while read -r a b c _; do
		lib=
		case $a in /*) lib=$a ;; esac
		if [ "$b" = "=>" ]; then
			case $c in /*) lib=$c ;; esac
		fi
		[ -n "$lib" ] || continue
		mkdir -p "$root$(dirname "$lib")"
		cp -L "$lib" "$root$lib"
	done
}

for b in $bins; do
	install -m 0755 "$b" "$root/bin/$(basename "$b")"
	copy_libs "$b"
done
for t in $tests; do
	install -m 0755 "$t" "$root/tests/$(basename "$t")"
done
for f in $files; do
	src=${f%%:*}
	dest=${f#*:}
	case $dest in /*) ;; *)
		echo "mkinitramfs: -f $f: DEST must be absolute" >&2
		exit 2
		;;
	esac
	mkdir -p "$root$(dirname "$dest")"
	cp -R "$src" "$root$dest"
done

# Debian's merged /usr: the loader path /lib64 must resolve in the image.
if [ -d "$root/usr/lib64" ] && [ ! -e "$root/lib64" ]; then
	ln -s usr/lib64 "$root/lib64"
fi
if [ -d "$root/usr/lib" ] && [ ! -e "$root/lib" ]; then
	ln -s usr/lib "$root/lib"
fi

mkdir -p "$(dirname "$out")"
(cd "$root" && find . | LC_ALL=C sort | cpio -o -H newc --quiet -R 0:0) |
	gzip -1 >"$out.tmp"
mv "$out.tmp" "$out"
echo "$out"
