#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Run the example project through nsbox and check everything it promises:
#
#     bash examples/run-demo.sh /path/to/nsbox
#
# The command is the one from the README and nsbox(1):
#
#     nsbox --ro input --rw out --result-fd 3 -- python3 script.py 3>record.json
#
# Exits 0 only if the script ran, exited 0, left out/result.txt on the host and
# the record on fd 3 says "status":"exited" with exit code 0.
set -euo pipefail

if [ "$#" -ne 1 ]; then
	echo "usage: $0 NSBOX_BINARY" >&2
	exit 2
fi

nsbox=$(realpath -- "$1")
if [ ! -x "$nsbox" ]; then
	echo "run-demo: '$1' is not an executable file (build it with 'make' first)" >&2
	exit 2
fi

here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
cd -- "$here"

fail() {
	echo "run-demo: FAILED: $*" >&2
	exit 1
}

banner() {
	printf '\n== %s\n' "$*"
}

# Inside the sandbox the caller keeps its own uid but holds no capabilities,
# so even root can only write to out/ if it owns it (or it is world-writable).
# A clone made by another user (then run with sudo) has an out/ that root
# cannot write into without CAP_DAC_OVERRIDE: run a private copy instead of
# changing the owner of someone else's files.
uid=$(id -u)
out_uid=$(stat -c %u out)
out_mode=$(stat -c %a out)
if [ "$out_uid" != "$uid" ] && [ $((8#$out_mode & 8#002)) -eq 0 ]; then
	tmp=$(mktemp -d "${TMPDIR:-/tmp}/nsbox-demo.XXXXXX")
	trap 'rm -rf -- "$tmp"' EXIT
	echo "run-demo: out/ belongs to uid $out_uid, not to you (uid $uid): nsbox gives no"
	echo "run-demo: capabilities inside, so the demo runs in a private copy: $tmp"
	cp -R -- script.py input "$tmp/"
	mkdir -- "$tmp/out"
	cd -- "$tmp"
fi

# Start from nothing, so every check below sees this run's output only.
rm -f -- out/result.txt record.json

banner "$nsbox --version"
"$nsbox" --version

banner "running in $(pwd -P):"
echo "   nsbox --ro input --rw out --result-fd 3 -- python3 script.py 3>record.json"
echo
rc=0
"$nsbox" --ro input --rw out --result-fd 3 -- python3 script.py 3>record.json || rc=$?

banner "exit code: $rc"

banner "out/result.txt (written inside, read here on the host):"
if [ -f out/result.txt ]; then
	cat out/result.txt
else
	echo "(missing)"
fi

banner "the result record (record.json, pretty-printed):"
if [ -s record.json ]; then
	python3 -m json.tool record.json || fail "record.json is not valid JSON"
else
	echo "(empty)"
fi

# The checks, after everything has been shown.
[ "$rc" -eq 0 ] || fail "nsbox exited with $rc, expected 0"
[ -f out/result.txt ] || fail "out/result.txt was not written"
grep -qx 'rows 4' out/result.txt || fail "out/result.txt does not hold the expected summary"
[ -s record.json ] || fail "no record was written to fd 3"
[ "$(wc -l <record.json)" -eq 1 ] || fail "the record is not exactly one line"
python3 - record.json <<'PY' || fail "the record does not describe a clean run"
import json, sys

with open(sys.argv[1], encoding="utf-8") as f:
    rec = json.load(f)
checks = {
    "schema is 1": rec.get("schema") == 1,
    "status is exited": rec.get("status") == "exited",
    "exit_code is 0": rec.get("exit_code") == 0,
    "setup_error is null": rec.get("setup_error") is None,
    "capabilities dropped": (rec.get("enforced") or {}).get("caps_dropped") is True,
    "no_new_privs set": (rec.get("enforced") or {}).get("no_new_privs") is True,
}
bad = [name for name, ok in checks.items() if not ok]
for name in bad:
    print(f"record check failed: {name}", file=sys.stderr)
sys.exit(1 if bad else 0)
PY

banner "demo OK: the script ran in the sandbox, exited 0, and the record says so"
