#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Make a batch of harness tasks for examples/slurm/nsbox-array.sbatch:
#
#     bash examples/slurm/prepare.sh DIR N
#
# DIR/tasks/NNNN/ is one task: the README's example project (script.py, its
# own input/data.txt, an empty out/), and DIR/tasks.txt lists the task
# directories, one per line, in array-index order (line 1 is index 0).
# DIR must be on a file system every node sees at the same path (on one
# machine, any directory).  Run it as the user who will submit the job: out/
# must belong to that user, since nsbox gives no capabilities inside.
set -euo pipefail

if [ "$#" -ne 2 ] || ! [[ "$2" =~ ^[1-9][0-9]{0,4}$ ]]; then
	echo "usage: $0 DIR N   (N from 1 to 99999 tasks)" >&2
	exit 2
fi
here=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")" && pwd -P)
script=$here/../script.py
[ -f "$script" ] || { echo "prepare: $script is missing" >&2; exit 1; }

mkdir -p -- "$1"
dir=$(cd -- "$1" && pwd -P)
n=$2
fruit=(apples pears plums cherries figs dates limes kiwis)

: >"$dir/tasks.txt.new"
for ((i = 0; i < n; i++)); do
	t=$(printf '%s/tasks/%04d' "$dir" "$i")
	rm -rf -- "$t"
	mkdir -p -- "$t/input" "$t/out"
	cp -- "$script" "$t/script.py"
	# Each task its own input: 2 to 8 rows, counts that depend on i.
	rows=$((2 + i % 7))
	for ((r = 0; r < rows; r++)); do
		printf '%s %d\n' "${fruit[r]}" $(((i * 7 + r * 13) % 50 + 1))
	done >"$t/input/data.txt"
	echo "$t" >>"$dir/tasks.txt.new"
done
mv -- "$dir/tasks.txt.new" "$dir/tasks.txt"
echo "prepare: $n tasks in $dir/tasks, listed in $dir/tasks.txt"
