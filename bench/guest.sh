#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# (j) What this machine charges for the steps every launcher repeats (a
# system call, a page fault, a fork, an exit, an exec, a wake-up):
# bench/guestcost.c, compiled here (static) into build/bench/guestcost, run
# as the caller outside any sandbox.  No launcher is timed: this is the
# scale the other tables' ratios sit on, which moves from machine to
# machine (a guest whose host shadows its page tables pays several times
# more per fault and per new address space).
#
# usage: bench/guest.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 300)
# writes build/bench/guest.csv and guest.md
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="What this machine charges"
bench_init guest 300 "$@"

prog=$(bench_static guestcost.c)
[ "$smoke" = 1 ] && runs=3
csv=$out/guest.csv
echo "$runs rounds ..." >&2
"$prog" "$runs" >"$csv"
bench_py table guest "$csv" >"$stage/table.md"
bench_out "$stage/table.md"
