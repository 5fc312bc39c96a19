#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Write the list of the functions a default launch runs (make hot-functions):
#   tools/hot-functions.sh PROFILING_NSBOX NSBOX LIST
# PROFILING_NSBOX is the -finstrument-functions build (HOTPROF=1, whose
# tools/hotprof.c hook writes the entered functions' offsets at exit); NSBOX
# is the normal build, whose symbols decide which names are kept: a
# function the normal build inlines everywhere has no section to place.
# The launches, in an empty project folder, as us and (when we are root)
# as nsbox-test: /bin/true with and without a record, a failing command,
# output on both streams, a payload that outlives the trim (100 ms), and
# commands named without a path (found through PATH outside and inside).
set -euo pipefail

prof=$1 nsbox=$2 list=$3
user=${NSBOX_TEST_USER:-nsbox-test}
work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT
chmod 755 "$work"
mkdir "$work/proj" "$work/out" "$work/sink"
echo 'echo out; echo err >&2' >"$work/proj/both.sh"
chmod 777 "$work/out" "$work/sink"
cp -- "$prof" "$work/nsbox"
chmod 755 "$work/nsbox"

launches() (
	cd "$work/proj"
	"$work/nsbox" -- /bin/true
	"$work/nsbox" --result-fd 3 -- /bin/true 3>/dev/null
	"$work/nsbox" --result-fd 3 -- /bin/false 3>/dev/null || true
	"$work/nsbox" --result-fd 3 -- /bin/sh both.sh 3>/dev/null >/dev/null 2>&1
	"$work/nsbox" --result-fd 3 -- /bin/sleep 0.3 3>/dev/null
	# A bare name: the PATH search outside (the gate) and inside (the payload).
	"$work/nsbox" --result-fd 3 -- true 3>/dev/null
	"$work/nsbox" --result-fd 3 -- sh both.sh 3>/dev/null >/dev/null 2>&1
	# Output into a pipe and into a file: the pump's two ways.
	"$work/nsbox" --result-fd 3 -- sh both.sh 3>/dev/null 2>&1 | cat >/dev/null
	"$work/nsbox" --result-fd 3 -- sh both.sh 3>/dev/null >"$work/sink/$(id -u)" 2>&1
)

NSBOX_HOTPROF_OUT=$work/out/root launches
if [ "$(id -u)" -eq 0 ] && getent passwd "$user" >/dev/null; then
	chown -- "$user:" "$work/proj"
	setpriv --reuid="$user" --regid="$user" --init-groups -- \
		env -i PATH=/usr/bin:/bin HOME=/nonexistent NSBOX_HOTPROF_OUT="$work/out/user" \
		bash -c "$(declare -f launches); work=$work; launches"
fi
for f in "$work"/out/*; do
	[ -s "$f" ] || {
		echo "hot-functions: $f: no offsets written (was $prof built with HOTPROF=1?)" >&2
		exit 1
	}
done

# Offsets to names (the profiling build's text symbols, clone suffixes
# dropped), kept where the normal build has a text symbol of that name that
# one of nsbox's own objects (next to NSBOX, obj/) defines: in the static
# build, glibc's functions that call nsbox's (__libc_start_call_main,
# __clone) are marked too, and are placed by tools/hot-archive.txt instead.
nm --defined-only "$prof" | awk '$2 ~ /^[tT]$/ { sub(/\..*/, "", $3); print $1, $3 }' |
	LC_ALL=C sort -u >"$work/prof.syms"
find "$(dirname -- "$nsbox")/obj" -name '*.o' ! -path '*/tools/*' -exec nm --defined-only {} + |
	awk '$2 ~ /^[tT]$/ { sub(/\..*/, "", $3); print $3 }' | LC_ALL=C sort -u >"$work/own.names"
nm --defined-only "$nsbox" | awk '$2 ~ /^[tT]$/ { sub(/\..*/, "", $3); print $3 }' |
	LC_ALL=C sort -u | LC_ALL=C join - "$work/own.names" >"$work/nsbox.names"
# name -> 1 (the supervisor's alone), 2 (init's or the payload's alone) or 3
# (both), over every launch.
# A marked offset belongs to the last function that starts at or before it
# (the hook marks call sites too): symbols ("0") sort before marks ("1")
# at the same offset.
{
	awk '{ print $1, 0, $2 }' "$work/prof.syms"
	cat "$work"/out/* | awk '{ print $1, 1, $2 }'
} | LC_ALL=C sort | awk '$2 == 0 { cur = $3; next } cur != "" { n = cur
		if (!(n in m)) m[n] = $3; else if (m[n] != $3) m[n] = 3 }
	END { for (n in m) print n, (m[n] == 1 || m[n] == 2) ? m[n] : 3 }' |
	LC_ALL=C sort -u | LC_ALL=C join - "$work/nsbox.names" >"$work/hot"
{
	echo "# The functions a default launch of nsbox runs, laid out together at the"
	echo "# start of its text (Makefile, HOT_LD).  Written by make hot-functions"
	echo "# (tools/hot-functions.sh); checked by make check-hot-list.  In three"
	echo "# groups, so that each process's own lie in as few 64 KiB windows as"
	echo "# can be: the supervisor's alone, then both processes', then init's"
	echo "# (and the payload's) alone.  The group lines are read by HOT_LD."
	echo "# supervisor"
	awk '$2 == 1 { print $1 }' "$work/hot"
	echo "# both"
	awk '$2 == 3 { print $1 }' "$work/hot"
	echo "# init"
	awk '$2 == 2 { print $1 }' "$work/hot"
} >"$list.tmp"
mv -- "$list.tmp" "$list"
echo "hot-functions: $(wc -l <"$work/hot") functions in $list" \
	"($(awk '$2 == 1' "$work/hot" | wc -l) the supervisor's, $(awk '$2 == 3' "$work/hot" | wc -l) both's," \
	"$(awk '$2 == 2' "$work/hot" | wc -l) init's)"
