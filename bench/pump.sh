#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# (g) Throughput of the output pump: `head -c 1G /dev/zero` read by the
# caller through a pipe (`| wc -c`), for
#   host    no sandbox at all
#   direct  nsbox without --max-output: the payload writes to the caller's pipe
#   pump    nsbox --max-output 2G: payload -> pipe -> supervisor -> caller's pipe
#   bwrap   the equivalent bwrap line: the payload writes to the caller's pipe
# interleaved, as root; a short read fails the script.  Medians, the best
# run and the ratios to direct.  16 MiB under bench-smoke.
#
# usage: bench/pump.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 5)
# writes build/bench/pump.csv and pump.md
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="Output pump throughput"
bench_init pump 5 "$@"

size=$((1024 * 1024 * 1024))
[ "$smoke" = 1 ] && size=$((16 * 1024 * 1024))
cap=$((2 * size))
csv=$out/pump.csv
bench_py time --runs 0 --warmup 0 -- x true >"$csv"
echo "$runs rounds of $size bytes ..." >&2
# shellcheck disable=SC2016 # $0 and $1 belong to the inner sh
bench_py time --no-header --metric --runs "$runs" --warmup 1 --tag root --param "$size" -- \
	host sh -c 'head -c "$1" /dev/zero | wc -c' sh "$size" ::: \
	direct sh -c '"$0" -- head -c "$1" /dev/zero | wc -c' "$nsbox" "$size" ::: \
	pump sh -c '"$0" --max-output "$2" -- head -c "$1" /dev/zero | wc -c' "$nsbox" "$size" "$cap" ::: \
	bwrap sh -c '"$@" head -c "$0" /dev/zero | wc -c' "$size" "${bwrap_cmd[@]}" >>"$csv"
short=$(awk -F, -v s="$size" 'NR > 1 && $9 != s { print $3 ": " $9 " bytes" }' "$csv")
if [ -n "$short" ]; then
	echo "pump.sh: short reads (expected $size bytes):" >&2
	echo "$short" >&2
	exit 1
fi
bench_py table pump "$csv" >"$stage/table.md"
bench_out "$stage/table.md"
