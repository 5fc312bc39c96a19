#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# (a) Launch latency of /bin/true: nsbox with its defaults (the gate, the
# default seccomp profile, the record written to descriptor 3) against the
# equivalent bwrap line, `unshare -Urmpin --fork` and a bare exec, run
# interleaved (nsbox bwrap unshare bare nsbox ...) by bench.py, which times
# each launch from posix_spawn to wait4 and takes its CPU time (user +
# system, of every process the launcher reaped) from wait4's rusage.  As
# root, then as the unprivileged nsbox-test (when we are root).  Medians,
# p10 and p90; the ratios nsbox/this.  nsbox-subprocess is nsbox started
# as Python's subprocess.run starts it (every descriptor above 2 closed, so
# the smallest descriptor table; no record): a harness's own way.
#
# usage: bench/latency.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 100)
# writes build/bench/latency.csv and latency.md
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="Launch latency of /bin/true"
bench_init latency 100 "$@"
bench_need unshare util-linux

warmup=5
[ "$smoke" = 1 ] && warmup=1
csv=$out/latency.csv
bench_py time --runs 0 --warmup 0 -- x true >"$csv" # the header alone
for u in "${users[@]}"; do
	echo "as $u: $runs rounds (+$warmup warm-up) ..." >&2
	as_user "$u" python3 "$stage/bin/bench.py" time --no-header --runs "$runs" \
		--warmup "$warmup" --tag "$u" -- \
		nsbox "$nsbox" --result-fd 3 -- /bin/true ::: \
		nsbox-subprocess @subprocess "$nsbox" -- /bin/true ::: \
		bwrap "${bwrap_cmd[@]}" /bin/true ::: \
		unshare unshare -Urmpin --fork /bin/true ::: \
		bare /bin/true >>"$csv"
done
bench_py table latency "$csv" >"$stage/table.md"
bench_out "$stage/table.md"
