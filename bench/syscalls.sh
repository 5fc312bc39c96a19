#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# (b) System calls per launch of /bin/true, counted by `strace -f -c` over
# the launcher and every process below it: nsbox with its defaults against
# the equivalent bwrap line, alternating, as root and as nsbox-test.  The
# total (median over runs), the failed calls and the five most frequent.
#
# usage: bench/syscalls.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 3)
# writes build/bench/syscalls.csv and syscalls.md
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="System calls per launch"
bench_init syscalls 3 "$@"
bench_need strace strace

csv=$out/syscalls.csv
echo "tag,launcher,round,syscall,calls,errors" >"$csv"
# strace, running as the user, writes its table in a directory anyone can
# write to (the stage's own is root's).
mkdir -p "$stage/tmp" && chmod 1777 "$stage/tmp"
trace=$stage/tmp/strace.out
for u in "${users[@]}"; do
	echo "as $u: $runs runs ..." >&2
	for ((r = 0; r < runs; r++)); do
		for l in nsbox bwrap; do
			rm -f "$trace"
			if [ "$l" = nsbox ]; then
				cmd=("$nsbox" --result-fd 3 -- /bin/true)
			else
				cmd=("${bwrap_cmd[@]}" /bin/true)
			fi
			if ! as_user "$u" strace -f -c -U name,calls,errors -o "$trace" -- \
				"${cmd[@]}" 3>/dev/null >/dev/null 2>"$stage/stderr"; then
				echo "syscalls.sh: $l as $u failed:" >&2
				cat -- "$stage/stderr" >&2
				exit 1
			fi
			bench_py strace "$u" "$l" "$r" "$trace" >>"$csv"
		done
	done
done
bench_py table syscalls "$csv" >"$stage/table.md"
bench_out "$stage/table.md"
