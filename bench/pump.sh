#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Throughput of the output pump: `head -c 1G /dev/zero` read by the caller
# through a pipe, best of N runs, for
#   host    no sandbox at all
#   direct  nsbox without --max-output: the payload writes to the caller's pipe
#   pump    nsbox --max-output 2G: payload -> pipe -> supervisor -> caller's pipe
#   bwrap   bubblewrap, the payload writes to the caller's pipe
# and the ratios pump/direct and pump/bwrap.
#
# usage: bench/pump.sh [NSBOX] [RUNS]    (default: build/nsbox, 5 runs)
set -eu

nsbox=${1:-build/nsbox}
runs=${2:-5}
size=1073741824 # 1 GiB
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT

if [ ! -x "$nsbox" ]; then
	echo "pump.sh: '$nsbox' is not executable (run make first)" >&2
	exit 1
fi

now() { date +%s.%N; }

# best MODE: the best time of $runs runs, in seconds; fails on a short read.
best() {
	b=
	i=0
	while [ "$i" -lt "$runs" ]; do
		t0=$(now)
		case $1 in
		host) head -c 1G /dev/zero | wc -c >"$tmp" ;;
		direct) "$nsbox" --no-project -- head -c 1G /dev/zero | wc -c >"$tmp" ;;
		pump) "$nsbox" --no-project --max-output 2G -- head -c 1G /dev/zero | wc -c >"$tmp" ;;
		bwrap)
			bwrap --ro-bind / / --dev /dev --proc /proc --unshare-all --die-with-parent \
				-- head -c 1G /dev/zero | wc -c >"$tmp"
			;;
		esac
		t1=$(now)
		got=$(cat "$tmp")
		if [ "$got" -ne "$size" ]; then
			echo "pump.sh: $1: read $got bytes, expected $size" >&2
			exit 1
		fi
		b=$(awk -v a="$t0" -v z="$t1" -v b="$b" 'BEGIN { t = z - a; if (b == "" || t < b) b = t; print b }')
		i=$((i + 1))
	done
	echo "$b"
}

mbps() { awk -v t="$1" -v s="$size" 'BEGIN { printf "%.0f", s / t / 1e6 }'; }

modes="host direct pump"
if command -v bwrap >/dev/null 2>&1; then
	modes="$modes bwrap"
else
	echo "pump.sh: bwrap not found, skipping it" >&2
fi

echo "1 GiB of zeros through a pipe to the caller, best of $runs ($(nproc) CPUs, $(uname -r))"
for m in $modes; do
	t=$(best "$m")
	eval "t_$m=\$t"
	printf '%-7s %8.3f s %7s MB/s\n' "$m" "$t" "$(mbps "$t")"
done
# shellcheck disable=SC2154 # t_pump, t_direct, t_bwrap are set by eval
awk -v p="$t_pump" -v d="$t_direct" 'BEGIN { printf "pump/direct throughput ratio: %.2f\n", d / p }'
if [ -n "${t_bwrap:-}" ]; then
	# shellcheck disable=SC2154
	awk -v p="$t_pump" -v b="$t_bwrap" 'BEGIN { printf "pump/bwrap throughput ratio:  %.2f\n", b / p }'
fi
