#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# (d) Cost of read-only binds: /bin/true with N extra `--ro DIR` (nsbox) or
# `--ro-bind DIR DIR` (the bwrap line), N from 16 to 4096 doubling, as root.
# Each round at each N runs nsbox and bwrap with N binds and with none
# (nsbox-0, bwrap-0), interleaved, so that the cost per bind, (time(N) -
# time(0)) / N, is taken from launches of the same round.  A
# launcher that refuses N binds on its first run (nsbox's cap, exit 125;
# bwrap's 9000 arguments, exit 1) is recorded as "refused" and the sweep
# goes on; any other failure fails the script.
#
# usage: bench/binds.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 10)
# writes build/bench/binds.csv and binds.md
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="Cost of --ro binds"
bench_init binds 10 "$@"

counts=(16 32 64 128 256 512 1024 2048 4096)
[ "$smoke" = 1 ] && counts=(16 256)
max=${counts[${#counts[@]} - 1]}
dirs=$stage/binds
mkdir -p "$dirs"
(cd "$dirs" && seq -f 'd%04g' 1 "$max" | xargs mkdir)
chmod -R 0755 "$dirs"

csv=$out/binds.csv
bench_py time --runs 0 --warmup 0 -- x true >"$csv"
for n in "${counts[@]}"; do
	nargs=() bargs=()
	for ((i = 1; i <= n; i++)); do
		printf -v d '%s/d%04d' "$dirs" "$i"
		nargs+=(--ro "$d")
		bargs+=(--ro-bind "$d" "$d")
	done
	# A few binds cost less than the noise of a launch: 16 binds take
	# about 0.7 ms, the difference of two launches that each move by a
	# millisecond or more from round to round.  Ten times the runs up to
	# 32 binds, three times up to 128.  bwrap needs seconds per run at 2048
	# binds (and takes at most 9000 arguments): at most 3 runs, no warm-up
	# from 512 on.
	r=$runs w=1
	if [ "$n" -le 32 ]; then
		r=$((10 * runs))
	elif [ "$n" -le 128 ]; then
		r=$((3 * runs))
	elif [ "$n" -ge 512 ]; then
		w=0
		[ "$r" -gt 3 ] && r=3
	fi
	echo "$n binds: $r rounds ..." >&2
	bench_py time --no-header --runs "$r" --warmup "$w" --tag root --param "$n" \
		--refusable nsbox=125 --refusable bwrap=1 -- \
		nsbox "$nsbox" --result-fd 3 "${nargs[@]}" -- /bin/true ::: \
		bwrap "${bwrap_cmd[@]}" "${bargs[@]}" /bin/true ::: \
		nsbox-0 "$nsbox" --result-fd 3 -- /bin/true ::: \
		bwrap-0 "${bwrap_cmd[@]}" /bin/true >>"$csv"
done
bench_py table binds "$csv" >"$stage/table.md"
bench_out "$stage/table.md"
