#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# (e) Throughput: TOTAL launches of /bin/true (500; 20 under bench-smoke)
# started as fast as the concurrency allows, at most 2 x nproc at a time and
# then all at once, nsbox with its defaults and the equivalent bwrap line
# alternating, as root and as nsbox-test.  Failures are counted and printed,
# not fatal (except under bench-smoke, where any failure is a broken launcher).
#
# usage: bench/throughput.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 2)
#        BENCH_TOTAL=N sets the number of launches per round (500)
# writes build/bench/throughput.csv and throughput.md
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="Throughput: parallel launches"
bench_init throughput 2 "$@"

total=${BENCH_TOTAL:-500}
[ "$smoke" = 1 ] && total=20
jobs=$((2 * $(nproc)))
csv=$out/throughput.csv
rm -f -- "$csv.tmp"
first=1
for u in "${users[@]}"; do
	echo "as $u: $runs rounds of $total launches, $jobs at a time and all at once ..." >&2
	as_user "$u" python3 "$stage/bin/bench.py" parallel --runs "$runs" --total "$total" \
		--jobs "$jobs" --jobs 0 --tag "$u" -- \
		nsbox "$nsbox" --result-fd 3 -- /bin/true ::: \
		bwrap "${bwrap_cmd[@]}" /bin/true |
		if [ "$first" = 1 ]; then cat; else tail -n +2; fi >>"$csv.tmp"
	first=0
done
mv -- "$csv.tmp" "$csv"
bench_py table throughput "$csv" >"$stage/table.md"
bench_out "$stage/table.md"
if [ "$smoke" = 1 ]; then
	failures=$(awk -F, 'NR > 1 { n += $6 } END { print n + 0 }' "$csv")
	if [ "$failures" -ne 0 ]; then
		echo "throughput.sh: $failures launches failed" >&2
		exit 1
	fi
fi
