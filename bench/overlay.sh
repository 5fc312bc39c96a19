#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Cost of --overlay (issue 16), as the calling user, against a plain --rw bind
# of the same directory:
#   latency    /bin/true with --overlay DIR and with --rw DIR, interleaved
#              (median and mean of RUNS launches each, milliseconds)
#   write      MiB/s of one dd of WRITE_MB MiB into DIR through each, timed
#              inside the sandbox around the dd alone
#   commit     the run of a payload that writes 10000 small files, and one
#              that writes one file of BIG_MB MiB, with --overlay-mode commit
#              and with discard: the difference is the commit's cost
# Numbers on a shared machine are noisy: compare the two columns of one run,
# never absolute values across runs.
#
# usage: bench/overlay.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 50)
#   WRITE_MB (default 256), BIG_MB (default 1024), SMALL_FILES (default 10000);
#   STORE=DIR adds a row for --overlay-store DIR (upper layer on disk)
set -euo pipefail

nsbox=$(realpath -- "${1:-build/nsbox}")
runs=${2:-50}
write_mb=${WRITE_MB:-256}
big_mb=${BIG_MB:-1024}
small=${SMALL_FILES:-10000}
size=$((big_mb + write_mb + 64))M
work=$(mktemp -d "${TMPDIR:-/var/tmp}/nsbox-bench-overlay.XXXXXX")
trap 'rm -rf -- "$work"' EXIT
mkdir -p "$work/dir"
cd "$work"

now_ns() { date +%s%N; }

# ms of one run of: nsbox ARGS...
run_ms() {
	local t0 t1
	t0=$(now_ns)
	"$nsbox" --no-project "$@" >/dev/null
	t1=$(now_ns)
	echo $(((t1 - t0) / 1000))
}

stats() { # microseconds on stdin -> "median_ms mean_ms"
	sort -n | awk '{v[NR] = $1; s += $1} END {
		m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
		printf "%.2f %.2f\n", m / 1000, s / NR / 1000 }'
}

echo "# nsbox --overlay vs --rw ($(uname -r), $(nproc) CPUs, $runs runs)"
echo
echo "## launch latency (/bin/true), ms: median mean"
: >ovl.us
: >rw.us
for ((i = 0; i < runs; i++)); do
	run_ms --overlay "$work/dir" -- /bin/true >>ovl.us
	run_ms --rw "$work/dir" -- /bin/true >>rw.us
done
echo "overlay $(stats <ovl.us)"
echo "rw      $(stats <rw.us)"

echo
echo "## write throughput, one dd of $write_mb MiB, MiB/s"
# Timed inside, around the dd alone: the whole run would also count the
# launch and, for the overlay, the change set's walk (which hashes the file).
# shellcheck disable=SC2016 # the script's own variables, expanded when it runs
printf 't0=$(date +%%s%%N); dd if=/dev/zero of=w bs=1M count=%d conv=fsync status=none; t1=$(date +%%s%%N); echo $(((t1 - t0) / 1000))\n' \
	"$write_mb" >write.sh
args_store=()
[ -n "${STORE:-}" ] && args_store=(--overlay-store "$STORE")
for mode in rw overlay ${STORE:+store}; do
	rm -f dir/w
	args=(--rw "$work/dir")
	[ "$mode" = overlay ] && args=(--overlay "$work/dir" --overlay-size "$size")
	[ "$mode" = store ] && args=(--overlay "$work/dir" --overlay-size "$size" "${args_store[@]}")
	us=$("$nsbox" --no-project "${args[@]}" --ro "$work/write.sh" --chdir "$work/dir" -- \
		/bin/sh "$work/write.sh")
	awk -v m="$mode" -v mb="$write_mb" -v us="$us" 'BEGIN {
		printf "%-7s %.0f\n", m, mb / (us / 1e6) }'
done
rm -f dir/w

echo
echo "## commit, ms: discard commit (difference: the commit)"
# shellcheck disable=SC2016 # the script's own variables, expanded when it runs
printf 'i=0; while [ $i -lt %d ]; do echo $i > f$i; i=$((i + 1)); done\n' "$small" >small.sh
printf 'head -c %dM /dev/zero > big\n' "$big_mb" >big.sh
for job in small big; do
	rm -rf dir && mkdir dir
	d=$(run_ms --ro "$work/$job.sh" --overlay "$work/dir" --overlay-size "$size" \
		--chdir "$work/dir" -- /bin/sh "$work/$job.sh")
	rm -rf dir && mkdir dir
	c=$(run_ms --ro "$work/$job.sh" --overlay "$work/dir" --overlay-size "$size" \
		--overlay-mode commit --chdir "$work/dir" -- /bin/sh "$work/$job.sh")
	echo "$job $((d / 1000)) $((c / 1000))"
done
