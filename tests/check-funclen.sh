#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# No function over MAX lines (signature to closing brace) unless the comment
# above it says why, on a line that starts with "Long:" (" * Long: ...").
# Functions are found the kernel-style way: a definition starts at column 0
# and its body opens with "{" alone at column 0 and closes with "}" there.
# Exits 1 and names each such function.
# Usage: tests/check-funclen.sh [MAX] [FILE...]   (default 80, every src/ .c file)
set -euo pipefail
cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.."
max=${1:-80}
[[ $# -gt 0 ]] && shift
if [[ $# -eq 0 ]]; then
	mapfile -t files < <(find src -name '*.c' | sort)
	set -- "${files[@]}"
fi
awk -v max="$max" '
FNR == 1 { sig = ""; sigline = 0; inbody = 0; why = 0; incomment = 0 }
inbody {
	if ($0 ~ /^}/) {
		n = FNR - sigline + 1
		if (n > max && !why) {
			printf "%s:%d: %s: %d lines (over %d, and no \"Long:\" line in the comment above)\n", FILENAME, sigline, name, n, max
			bad = 1
		}
		inbody = 0; why = 0; sig = ""
	}
	next
}
/^\/\*/ { incomment = 1; why = 0 }
incomment && /^[ \/]\*+ Long:/ { why = 1 }
incomment {
	if ($0 ~ /\*\//) incomment = 0
	next
}
/^{/ && sig != "" {
	inbody = 1
	name = sig
	sub(/\(.*/, "", name); sub(/.*[ *]/, "", name)
	next
}
/^[A-Za-z_]/ && $0 !~ /;[ \t]*$/ && $0 ~ /\(/ { sig = $0; sigline = FNR; next }
/^[ \t]/ && sig != "" { next }
/^$/ { sig = ""; why = 0; next }
{ sig = "" }
END {
	if (!bad)
		printf "check-funclen: no function over %d lines without a reason\n", max
	exit bad
}
' "$@"
