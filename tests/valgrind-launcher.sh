#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The launcher's supervisor path under memcheck (called by make
# check-valgrind): usage errors, a missing path, a sandboxed run (which ends
# in setup_failed under memcheck, see the Makefile), a command that is not
# found, --capture with a record.  Each invocation must end with its expected
# exit code and leave no memcheck log; the record must be one JSON line.
#   valgrind-launcher.sh NSBOX LOGDIR "VALGRIND COMMAND"
set -uo pipefail

nsbox=$1 logdir=$2 vg=$3
work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT
mkdir -p "$work/proj"
cd "$work/proj" || exit 1
fail=0

# expect CODE NAME ARGS...: run nsbox under memcheck, record on fd 3.
expect() {
	local want=$1 name=$2
	shift 2
	local rc=0
	# shellcheck disable=SC2086 # $vg is a command line
	$vg --trace-children=no --log-file="$logdir/nsbox-$name.%p" \
		"$nsbox" "$@" 3>"$work/$name.json" >"$work/$name.out" 2>"$work/$name.err" || rc=$?
	if [ "$rc" -eq 99 ]; then
		echo "FAIL: $name: memcheck reported errors (exit 99)"
		fail=1
	elif [ "$rc" -ne "$want" ]; then
		echo "FAIL: $name: exit $rc, want $want"
		sed 's/^/    /' "$work/$name.err"
		fail=1
	else
		echo "ok: $name (exit $rc)"
	fi
}

# has_record NAME STATUS: the record on fd 3 is one line with that status.
has_record() {
	if [ "$(wc -l <"$work/$1.json")" -ne 1 ] ||
		! grep -q "\"status\":\"$2\"" "$work/$1.json"; then
		echo "FAIL: $1: no single-line record with status $2"
		fail=1
	fi
}

expect 0 help --help
expect 0 version --version
expect 125 bad-option --result-fd 3 --bogus
has_record bad-option usage_error
expect 125 bad-size --result-fd 3 --memory 12Q -- /bin/true
has_record bad-size usage_error
expect 125 missing-path --result-fd 3 --ro /nonexistent/nsbox-vg -- /bin/true
has_record missing-path usage_error
expect 125 no-command --result-fd 3
has_record no-command usage_error
expect 125 bad-profile --result-fd 3 --seccomp /nonexistent/x.profile -- /bin/true
# A sandboxed run: setup_failed under memcheck (init refuses to run with its
# command line visible: the kernel shows valgrind's argument block, not nsbox's).
expect 125 run --result-fd 3 -- /bin/true
has_record run setup_failed
expect 125 not-found --result-fd 3 -- nsbox-no-such-command
has_record not-found setup_failed
expect 125 capture --result-fd 3 --capture --max-output 1K -- /bin/echo hi
has_record capture setup_failed
# --seccomp-export writes the filter, then runs the command: setup_failed here too
expect 125 export --seccomp-export "$work/default.bpf" -- /bin/true
exit "$fail"
