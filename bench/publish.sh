#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# `make bench-publish`: after `make bench`, copy the report and the plots
# from build/bench/ to bench/results/ (committed) and put the summary and
# the launch latency table into README.md's Performance section, between
# its two `bench:` marker comments.  Refuses a smoke run's numbers.
#
# usage: bench/publish.sh
set -euo pipefail

root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
out=${BENCH_OUT:-$root/build/bench}
dest=$root/bench/results

if [ ! -f "$out/report.md" ]; then
	echo "publish.sh: no $out/report.md: run make bench first" >&2
	exit 1
fi
if grep -q 'make bench-smoke' "$out/report.md"; then
	echo "publish.sh: $out/report.md is from make bench-smoke, not a measurement" >&2
	exit 1
fi
mkdir -p "$dest"
cp -- "$out/report.md" "$dest/report.md"
for p in latency binds memory throughput pump; do
	if [ -f "$out/$p.svg" ]; then
		cp -- "$out/$p.svg" "$dest/$p.svg"
	fi
done

python3 - "$root/README.md" "$out" <<'PY'
import re, sys
readme, out = sys.argv[1], sys.argv[2]
text = open(readme).read()
begin, end = "<!-- bench: begin -->", "<!-- bench: end -->"
if begin not in text or end not in text:
    sys.exit(f"publish.sh: README.md has no '{begin}' ... '{end}' block")
report = open(f"{out}/report.md").read()
head = report.split("## Summary")[0].split("\n", 2)[2].strip()
summary = report.split("## Summary")[1].split("## Plots")[0].strip()
latency = open(f"{out}/latency.md").read().split("\n", 2)[2].strip()
block = (f"{begin}\n{head}\n\n{summary}\n\nLaunch latency of `/bin/true` "
         f"(medians, p10-p90, ratios nsbox/launcher):\n\n{latency}\n")
try:
    guest = open(f"{out}/guest.md").read().split("\n", 2)[2].strip()
    block += f"\nWhat this machine charges for the steps of a launch (bench/guest.sh):\n\n{guest}\n"
except FileNotFoundError:
    pass
block += end
text = text[:text.index(begin)] + block + text[text.index(end) + len(end):]
open(readme, "w").write(text)
PY
echo "published: $dest/ and README.md's Performance section"
