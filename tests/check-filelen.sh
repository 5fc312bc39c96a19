#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# No source file in src/ or tools/ over MAX lines (default 600): a file that
# grows past it holds more than one concern and is split by concern.
# Exits 1 and names each such file.
# Usage: tests/check-filelen.sh [MAX]
set -euo pipefail
cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.."
max=${1:-600}
bad=0
while IFS= read -r f; do
	n=$(wc -l <"$f")
	if [ "$n" -gt "$max" ]; then
		echo "check-filelen: $f has $n lines (at most $max): split it by concern" >&2
		bad=1
	fi
done < <(find src tools -name '*.[ch]' | sort)
[ "$bad" -eq 0 ] && echo "check-filelen: no file over $max lines"
exit "$bad"
