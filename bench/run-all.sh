#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make bench`: every benchmark in turn with its default counts (about 5
# minutes on a 2-core machine), then build/bench/report.md (the machine, a
# summary beside issue 11's targets, every table) and the SVG plots (gnuplot).
# `make bench-smoke` (BENCH_SMOKE=1): each benchmark once with tiny counts,
# so that none rots; it fails on a script error or a launcher failure, never
# on a number.
#
# usage: bench/run-all.sh [NSBOX_BINARY]
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="nsbox benchmarks"
bench_init report 1 "${1:-}"
bench_need gnuplot "gnuplot-nox (make deps-bench)"

scripts=(guest latency breakdown scan syscalls memory binds throughput seccomp pump startup egress overlay)
rm -f -- "$out"/*.csv "$out"/*.md "$out"/*.svg "$out"/*.dat
t0=$(date +%s)
for s in "${scripts[@]}"; do
	echo
	bash "$root/bench/$s.sh" "$nsbox_src"
done
secs=$(($(date +%s) - t0))

bench_py plot "$out"
mode="make bench"
[ "$smoke" = 1 ] && mode="make bench-smoke (tiny counts: not a measurement)"
{
	echo "# nsbox benchmarks"
	echo
	bench_header
	echo "- run: \`$mode\`, ${secs} s; each script alone: \`bench/NAME.sh [NSBOX] [RUNS]\`"
	echo
	echo "## Summary"
	echo
	bench_py summary "$out"
	echo
	echo "## Plots"
	echo
	for p in latency binds memory throughput pump; do
		if [ -f "$out/$p.svg" ]; then
			echo "![$p]($p.svg)"
			echo
		fi
	done
	echo "## Tables"
	for s in "${scripts[@]}"; do
		echo
		cat -- "$out/$s.md"
	done
} >"$out/report.md"
echo
echo "== summary ($secs s)"
bench_py summary "$out"
echo
echo "report: $out/report.md"
