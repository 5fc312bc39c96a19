#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# What the size of the project costs a launch: nsbox with its defaults binds
# the working directory and, before anything runs, reads every entry below
# it for secrets to mask and paths to protect (nsbox(1), --mask).  A project
# of N files (ten to a folder, the folders ten to a parent) for N = 0, 1,000
# and 10,000; in each, /bin/true under nsbox with its defaults, under nsbox
# with the scan off (--no-mask --no-protect) and under the bwrap line with
# the project bound, interleaved, as root and as nsbox-test.  The cost of
# the scan per entry is (defaults - scan off) / entries, from launches of
# the same round; the record's scanned count says how many entries it read.
#
# usage: bench/scan.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 20)
# writes build/bench/scan.csv and scan.md
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="Launch latency against the size of the project"
bench_init scan 20 "$@"

sizes=(0 1000 10000)
[ "$smoke" = 1 ] && sizes=(0 200)
warmup=2
[ "$smoke" = 1 ] && warmup=1

# make_project DIR N: N empty files, ten to a folder, ten folders to a parent.
make_project() {
	local dir=$1 n=$2 i
	mkdir -p -- "$dir"
	for ((i = 0; i < n; i++)); do
		if ((i % 10 == 0)); then
			mkdir -p -- "$dir/p$((i / 100))/d$((i / 10))"
		fi
		: >"$dir/p$((i / 100))/d$((i / 10))/f$i.txt"
	done
	chmod -R u=rwX,go=rX -- "$dir"
}

csv=$out/scan.csv
bench_py time --runs 0 --warmup 0 -- x true >"$csv"
for n in "${sizes[@]}"; do
	dir=$stage/scan-$n
	make_project "$dir" "$n"
	cd -- "$dir"
	# how many entries the scan reads (files and folders): from the record
	scanned=$("$nsbox" --result-fd 3 -- /bin/true 3>&1 >/dev/null |
		python3 -c 'import json, sys; print(json.load(sys.stdin)["enforced"]["masked"]["scanned"])')
	echo "$n files ($scanned entries scanned): $runs rounds (+$warmup warm-up) ..." >&2
	for u in "${users[@]}"; do
		as_user "$u" python3 "$stage/bin/bench.py" time --no-header --runs "$runs" \
			--warmup "$warmup" --tag "$u" --param "$scanned" -- \
			nsbox "$nsbox" --result-fd 3 -- /bin/true ::: \
			scan-off "$nsbox" --result-fd 3 --no-mask --no-protect -- /bin/true ::: \
			bwrap "${bwrap_cmd[@]}" --ro-bind "$dir" "$dir" --chdir "$dir" /bin/true >>"$csv"
	done
done
cd -- "$proj"
bench_py table scan "$csv" >"$stage/table.md"
bench_out "$stage/table.md"
