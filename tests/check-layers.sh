#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The folders of src/ are layers (README of src/ has the map): a file may
# include only the headers its layer may see.  Pure layers (base, core) never
# reach code with side effects; the sandbox side (code that runs after clone,
# before execve) never includes the supervisor's headers; the supervisor
# reaches into the sandbox only through its entry point, sandbox/init.h.
# Exits 1 and names each include that breaks a rule.
set -euo pipefail
cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.."

allowed() {
	case $1 in
	base) echo "base" ;;
	core) echo "base core" ;;
	gate) echo "base core gate seccomp" ;;
	seccomp) echo "base core seccomp" ;;
	sandbox) echo "base core seccomp sandbox" ;;
	supervisor) echo "base core gate seccomp supervisor sandbox/init.h" ;;
	*) return 1 ;;
	esac
}

bad=0
for f in src/*/*.[ch]; do
	layer=${f#src/}
	layer=${layer%%/*}
	if ! ok=$(allowed "$layer"); then
		echo "check-layers: $f: no rule for folder '$layer'" >&2
		bad=1
		continue
	fi
	while IFS= read -r inc; do
		hit=0
		for a in $ok; do
			case $inc in
			"$a" | "$a"/*) hit=1 ;;
			esac
		done
		if [ "$hit" -eq 0 ]; then
			echo "check-layers: $f includes \"$inc\": $layer/ may include only: $ok" >&2
			bad=1
		fi
	done < <(sed -n 's/^[[:space:]]*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/p' "$f")
done
if [ "$bad" -eq 0 ]; then
	echo "check-layers: every include stays within its layer"
fi
exit "$bad"
