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
# Numbers on a shared machine are noisy: compare the columns of one run,
# never absolute values across runs.  Runs as the caller.  Under bench-smoke
# (BENCH_SMOKE=1): 2 rounds, 8 MiB, 200 small files, one file of 16 MiB.
#
# usage: bench/overlay.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 50)
#   WRITE_MB (default 256), BIG_MB (default 1024), SMALL_FILES (default 10000);
#   STORE=DIR puts the store row's upper layer there (default: a directory
#   beside the benchmark's DIR, on ${TMPDIR:-/var/tmp})
# writes build/bench/overlay.md
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="Overlay (--overlay against --rw)"
bench_init overlay 50 "$@"

write_mb=${WRITE_MB:-256}
big_mb=${BIG_MB:-1024}
small=${SMALL_FILES:-10000}
if [ "$smoke" = 1 ]; then
	[ -n "${2:-}" ] || runs=2
	write_mb=8
	big_mb=16
	small=200
fi
size=$((big_mb + write_mb + 64))M
# On disk, not the stage's /tmp: the store row needs a filesystem with user
# extended attributes, and the writes should not land in memory twice.
work=$(mktemp -d "${TMPDIR:-/var/tmp}/nsbox-bench-overlay.XXXXXX")
# shellcheck disable=SC2064 # expand now: both must go
trap "rm -rf -- '$work' '$stage'" EXIT
mkdir -p "$work/dir" "$work/store"
store=${STORE:-$work/store}
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

echo "$runs rounds of /bin/true with --overlay and with --rw, interleaved ..." >&2
: >commit.ms
: >ovl.us
: >rw.us
for ((i = 0; i < runs; i++)); do
	run_ms --overlay "$work/dir" -- /bin/true >>ovl.us
	run_ms --rw "$work/dir" -- /bin/true >>rw.us
done
read -r lat_ovl lat_ovl_mean < <(stats <ovl.us)
read -r lat_rw lat_rw_mean < <(stats <rw.us)

echo "one dd of $write_mb MiB through --rw, --overlay and --overlay-store ..." >&2
# Timed inside, around the dd alone: the whole run would also count the
# launch and, for the overlay, the change set's walk (which hashes the file).
# shellcheck disable=SC2016 # the script's own variables, expanded when it runs
printf 't0=$(date +%%s%%N); dd if=/dev/zero of=w bs=1M count=%d conv=fsync status=none; t1=$(date +%%s%%N); echo $(((t1 - t0) / 1000))\n' \
	"$write_mb" >write.sh
declare -A mibs
for mode in rw overlay store; do
	rm -f dir/w
	args=(--rw "$work/dir")
	[ "$mode" = overlay ] && args=(--overlay "$work/dir" --overlay-size "$size")
	[ "$mode" = store ] && args=(--overlay "$work/dir" --overlay-size "$size" --overlay-store "$store")
	us=$("$nsbox" --no-project "${args[@]}" --ro "$work/write.sh" --chdir "$work/dir" -- \
		/bin/sh "$work/write.sh")
	mibs[$mode]=$(awk -v mb="$write_mb" -v us="$us" 'BEGIN { printf "%.0f", mb / (us / 1e6) }')
done
rm -f dir/w

echo "$small small files, then one file of $big_mb MiB, discarded and committed ..." >&2
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
	echo "$job $((d / 1000)) $((c / 1000))" >>commit.ms
done

{
	echo "| measure | --rw | --overlay | --overlay-store | overlay / rw |"
	echo "|---|---|---|---|---|"
	awk -v o="$lat_ovl" -v r="$lat_rw" -v om="$lat_ovl_mean" -v rm="$lat_rw_mean" -v k="$runs" 'BEGIN {
		printf "| launch of /bin/true, ms (median of %d; mean) | %.2f (%.2f) | %.2f (%.2f) | - | %.2f |\n", k, r, rm, o, om, o / r }'
	awk -v r="${mibs[rw]}" -v o="${mibs[overlay]}" -v s="${mibs[store]}" -v mb="$write_mb" 'BEGIN {
		printf "| write of %d MiB (dd, fsync), MiB/s | %d | %d | %d | %.2f |\n", mb, r, o, s, o / r }'
	while read -r job d c; do
		what="$small small files"
		[ "$job" = big ] && what="one file of $big_mb MiB"
		echo "| $what: whole run discarded / committed, ms (the difference is the commit) | - | $d / $c | - | - |"
	done <commit.ms
} >table.md
bench_out table.md
