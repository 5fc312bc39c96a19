#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Start-up cost, the quick check: `nsbox -- /bin/true` against the
# equivalent bwrap line (bench/lib.sh: the same namespaces, a read-only
# /usr, a private /proc, /dev and /tmp, the project bound read-only), timed
# by hyperfine in one run, as the caller.  Prints both means and the ratio
# nsbox/bwrap; bench/latency.sh is the full, paired comparison.
#
# usage: bench/startup.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 50)
# writes build/bench/startup.csv (hyperfine's) and startup.md
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="Start-up, hyperfine"
bench_init startup 50 "$@"
bench_need hyperfine hyperfine

warmup=5
# hyperfine's standard deviation needs two runs
[ "$runs" -lt 2 ] && runs=2
[ "$smoke" = 1 ] && warmup=1
bwrap_line=$(printf '%q ' "${bwrap_cmd[@]}" /bin/true)
json=$stage/hyperfine.json
hyperfine -N --warmup "$warmup" --runs "$runs" --export-json "$json" \
	--export-csv "$out/startup.csv" -n nsbox "$nsbox -- /bin/true" -n bwrap "$bwrap_line" \
	>/dev/null
python3 - "$json" >"$stage/table.md" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
n, b = r[0]["mean"] * 1000, r[1]["mean"] * 1000
print("| launcher | mean ms | stddev ms | median ms |")
print("|---|---:|---:|---:|")
for x in r:
    print(f"| {x['command']} | {x['mean'] * 1000:.2f} | {x['stddev'] * 1000:.2f} "
          f"| {x['median'] * 1000:.2f} |")
print(f"\nratio nsbox/bwrap (means): {n / b:.2f}")
PY
bench_out "$stage/table.md"
