#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# (f) Seccomp at run time: the cost of one system call inside nsbox under the
# default profile, the strict one, a one-line `default allow` profile and no
# filter at all (--seccomp none), and on the host.  The payload is
# bench/sysloop.c, compiled here (static) into build/bench/sysloop: a loop of
# raw getppid(2) calls (allowed outright: the kernel's cache skips the
# filter) and one of fcntl(F_GETFD) (filtered on its argument by the default
# profile: the filter runs each time).  Interleaved, as root; the ratios to
# the one-line profile, and to the floor: the one-line profile plus the
# default profile's fcntl rules, the least any filter enforcing them costs.
#
# usage: bench/seccomp.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 7)
# writes build/bench/seccomp.csv and seccomp.md
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="Seccomp at run time"
bench_init seccomp 7 "$@"

loop=$(bench_static sysloop.c)
# the payload lives in the project folder, the one the sandbox shows
cp -- "$loop" "$proj/sysloop"
echo "default allow" >"$stage/allow.profile"
# The floor for fcntl: the one-line profile plus the default profile's own
# fcntl rules (taken from the binary, so they stay the same).  The kernel's
# cache cannot skip a filter that looks at an argument: whatever else a
# profile holds, a call filtered on its argument costs at least this.
{
	echo "default allow"
	"$nsbox" --print-profile default | grep '^fcntl '
} >"$stage/floor.profile"
count=1000000
[ "$smoke" = 1 ] && count=20000

csv=$out/seccomp.csv
bench_py time --runs 0 --warmup 0 -- x true >"$csv"
for call in getppid fcntl; do
	echo "$call: $runs rounds of $count calls ..." >&2
	bench_py time --no-header --metric --runs "$runs" --warmup 1 --tag root --param "$call" -- \
		host "$proj/sysloop" "$call" "$count" ::: \
		none "$nsbox" --seccomp none -- "$proj/sysloop" "$call" "$count" ::: \
		allow "$nsbox" --seccomp "$stage/allow.profile" -- "$proj/sysloop" "$call" "$count" ::: \
		floor "$nsbox" --seccomp "$stage/floor.profile" -- "$proj/sysloop" "$call" "$count" ::: \
		default "$nsbox" -- "$proj/sysloop" "$call" "$count" ::: \
		strict "$nsbox" --seccomp strict -- "$proj/sysloop" "$call" "$count" >>"$csv"
done

# Real work: make -B of a small C project (issue 13's second target), with
# the default profile (its refusals reported through user notification) and
# the one-line profile, interleaved.
cproj=$proj/cproj
mkdir -p -- "$cproj"
for i in 1 2 3 4 5 6; do
	printf 'int f%d(int x) { return x * %d + 1; }\n' "$i" "$i" >"$cproj/f$i.c"
done
printf 'int f1(int);\nint main(void) { return f1(0) - 1; }\n' >"$cproj/main.c"
# shellcheck disable=SC2016 # make's variables, not the shell's
printf 'OBJS = main.o f1.o f2.o f3.o f4.o f5.o f6.o\nprog: $(OBJS)\n\t$(CC) -o $@ $(OBJS)\n' \
	>"$cproj/Makefile"
chmod -R a+rwX -- "$cproj"
mruns=$runs
[ "$smoke" = 1 ] || mruns=$((runs * 3))
echo "make -B: $mruns rounds ..." >&2
bench_py time --no-header --runs "$mruns" --warmup 1 --tag root --param make -- \
	allow "$nsbox" --seccomp "$stage/allow.profile" --rw "$cproj" -- make -s -B -C "$cproj" ::: \
	default "$nsbox" --rw "$cproj" -- make -s -B -C "$cproj" >>"$csv"
bench_py table seccomp "$csv" >"$stage/table.md"
bench_out "$stage/table.md"
