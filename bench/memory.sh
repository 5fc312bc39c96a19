#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# (c) Memory per sandbox: nsbox with its defaults and the equivalent bwrap
# line each run `sleep 1`; while it sleeps, bench.py reads PSS and RSS
# (/proc/PID/smaps_rollup) and the peak RSS so far (VmHWM, /proc/PID/status)
# of every process of the launcher: nsbox's supervisor and init, bwrap's
# monitor and its pid 1.  The payload is listed but left out of the sums.
# Read $settle s after the payload shows, when a sandbox that lives on is
# in its steady state: nsbox gives back the setup's pages once the payload
# has lived 100 ms (NSB_TRIM_AFTER_MS, src/base/trim.h), or, while more
# tasks are runnable than there are CPUs (20 launches at once), on the
# first retry that finds one free (0.3 or 0.7 s after the start; the RSS
# column shows whether it had run); bwrap's do not change.
# Alternating, as root and as nsbox-test.  Then each again with $side
# sandboxes side by side (all started at once, all read while they
# sleep): pages every sandbox maps (the launcher's text, the libraries)
# divide among them, so the PSS there is what one more sandbox costs on a
# host that runs many, as an agent harness does.
#
# usage: bench/memory.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 5)
# writes build/bench/memory.csv and memory.md
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="Memory per sandbox"
bench_init memory 5 "$@"

csv=$out/memory.csv
side=20 # sandboxes side by side
nap=2   # the payload's sleep: every one of them must still be asleep when read
settle=0.3
if [ "$smoke" = 1 ]; then
	side=2
fi
first=1
rm -f -- "$csv.tmp"
for u in "${users[@]}"; do
	echo "as $u: $runs runs ..." >&2
	# bench.py runs as us (root) to read the user's /proc files; the
	# launchers start as the user through setpriv, which execs them: the
	# launcher is still the process bench.py started.
	if [ "$(id -un)" = "$u" ]; then
		pre=()
	else
		mkdir -p -- "$stage/home/$u"
		chown -- "$u:" "$stage/home/$u"
		pre=(setpriv --reuid="$u" --regid="$u" --init-groups --
			env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$stage/home/$u" LANG=C.UTF-8)
	fi
	for k in 1 "$side"; do
		bench_py memory --runs "$runs" --tag "$u" --payload sleep --side-by-side "$k" \
			--settle "$settle" \
			--roles nsbox=supervisor,init --roles bwrap=monitor,pid1 -- \
			nsbox "${pre[@]}" "$nsbox" --result-fd 3 -- sleep "$nap" ::: \
			bwrap "${pre[@]}" "${bwrap_cmd[@]}" sleep "$nap" |
			if [ "$first" = 1 ]; then cat; else tail -n +2; fi >>"$csv.tmp"
		first=0
	done
done
mv -- "$csv.tmp" "$csv"
bench_py table memory "$csv" >"$stage/table.md"
bench_out "$stage/table.md"
