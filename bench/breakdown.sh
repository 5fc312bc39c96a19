#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Where a launch's time goes: nsbox with its defaults (gate, default seccomp
# profile, record on descriptor 3) against itself with one part left out:
# no record, --seccomp none, no project bind, and --check (the plan, the
# gate and the profile compiled, no namespaces).  Interleaved, as root and
# as nsbox-test, timed like bench/latency.sh; the ratio of the defaults to
# each variant says what that part costs.
#
# usage: bench/breakdown.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 50)
# writes build/bench/breakdown.csv and breakdown.md
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="Launch latency, part by part"
bench_init breakdown 50 "$@"

warmup=3
[ "$smoke" = 1 ] && warmup=1
csv=$out/breakdown.csv
bench_py time --runs 0 --warmup 0 -- x true >"$csv"
for u in "${users[@]}"; do
	echo "as $u: $runs rounds (+$warmup warm-up) ..." >&2
	as_user "$u" python3 "$stage/bin/bench.py" time --no-header --runs "$runs" \
		--warmup "$warmup" --tag "$u" -- \
		nsbox "$nsbox" --result-fd 3 -- /bin/true ::: \
		no-record "$nsbox" -- /bin/true ::: \
		seccomp-none "$nsbox" --result-fd 3 --seccomp none -- /bin/true ::: \
		no-project "$nsbox" --result-fd 3 --no-project -- /bin/true ::: \
		check-only "$nsbox" --check -- /bin/true >>"$csv"
done
bench_py table latency "$csv" >"$stage/table.md"
bench_out "$stage/table.md"
