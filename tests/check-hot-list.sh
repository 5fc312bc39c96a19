#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The hot-function list still matches nsbox (make check-hot-list):
#   tests/check-hot-list.sh NSBOX LIST [MAP ARCHIVE_LIST]
# - every name in LIST is a text symbol of NSBOX (itself or a compiler
#   clone, NAME.part.N and the like): a name that went away, renamed or now
#   inlined everywhere, means the list is stale and its functions may lie
#   anywhere;
# - each of those symbols lies inside NSBOX's .text.nsb_hot section, so the
#   linker script really gathered them;
# - the constants a launch never reads (the static libraries', _cold_data_)
#   have their own section, .rodata.nsb_cold;
# - the constants a launch does read (.rodata) take at most two of the
#   kernel's 64 KiB fault-around windows: each window more is 64 KiB more
#   of every supervisor's and init's resident memory;
# - in the static build (MAP, its link map, and ARCHIVE_LIST given), every
#   archive member ARCHIVE_LIST names is still linked in, and all its text
#   lies inside .text.nsb_hot (tools/hot-archive.py check).
# Exits 1 naming each failure and the fix (make hot-functions).
set -euo pipefail

nsbox=$1 list=$2 map=${3:-} archive_list=${4:-}
work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT

read -r lo size < <(readelf -SW "$nsbox" |
	awk '$2 == ".text.nsb_hot" || $3 == ".text.nsb_hot" {
		for (i = 1; i <= NF; i++) if ($i == ".text.nsb_hot") { print $(i + 2), $(i + 4); exit } }')
if [ -z "${lo:-}" ]; then
	echo "check-hot-list: $nsbox has no .text.nsb_hot section (was it linked with build/hot.ld?)" >&2
	exit 1
fi
hi=$((16#$lo + 16#$size)) lo=$((16#$lo))
# The static libraries' constants, apart from nsbox's (Makefile, HOT_LD).
# (Not "readelf | grep -q": grep leaves at the first match, and readelf's
# SIGPIPE then fails the pipeline under pipefail, now and then.)
if ! grep -q ' \.rodata\.nsb_cold ' <<<"$(readelf -SW "$nsbox")"; then
	echo "check-hot-list: $nsbox has no .rodata.nsb_cold section (was it linked with build/hot.ld?)" >&2
	exit 1
fi

# A function's .cold part (the compiler's split-off unlikely paths, such as
# an abort) belongs outside the hot section: only the function itself counts.
nm --defined-only "$nsbox" | awk '$2 ~ /^[tT]$/ && $3 !~ /\.cold(\.[0-9]+)?$/ {
	n = $3; sub(/\..*/, "", n); print n, $1 }' |
	sort >"$work/syms"
grep -vE '^(#|$)' "$list" | sort -u >"$work/names"

bad=0 n=0
while read -r name; do
	n=$((n + 1))
	addrs=$(awk -v n="$name" '$1 == n { print $2 }' "$work/syms")
	if [ -z "$addrs" ]; then
		echo "check-hot-list: $list: $name is no longer a function of $nsbox" >&2
		bad=1
		continue
	fi
	for a in $addrs; do
		a=$((16#$a))
		if [ "$a" -lt "$lo" ] || [ "$a" -ge "$hi" ]; then
			printf 'check-hot-list: %s at %#x lies outside .text.nsb_hot [%#x, %#x)\n' \
				"$name" "$a" "$lo" "$hi" >&2
			bad=1
		fi
	done
done <"$work/names"
if [ "$bad" -ne 0 ]; then
	echo "check-hot-list: the list is stale: run 'make hot-functions' as root and commit $list" >&2
	exit 1
fi
read -r ro_lo ro_size < <(readelf -SW "$nsbox" |
	awk '{ for (i = 1; i <= NF; i++) if ($i == ".rodata") { print $(i + 2), $(i + 4); exit } }')
ro_lo=$((16#$ro_lo)) ro_size=$((16#$ro_size))
ro_windows=$(((ro_lo % 65536 + ro_size + 65535) / 65536))
if [ "$ro_windows" -gt 2 ]; then
	printf 'check-hot-list: .rodata (%d KiB at %#x) spans %d 64 KiB windows, not 2: mark the constants a default launch never reads _cold_data_ (base/macro.h)\n' \
		$((ro_size / 1024)) "$ro_lo" "$ro_windows" >&2
	exit 1
fi
echo "check-hot-list: $n functions, all in .text.nsb_hot ($(((hi - lo) / 1024)) KiB); .rodata $((ro_size / 1024)) KiB in $ro_windows windows"
if [ -n "$map" ]; then
	python3 "$(dirname -- "${BASH_SOURCE[0]}")/../tools/hot-archive.py" check "$map" \
		"$archive_list" "$(printf %x "$lo")" "$(printf %x "$hi")"
fi
