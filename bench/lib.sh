# SPDX-License-Identifier: GPL-2.0-or-later
# shellcheck shell=bash
#
# Shared by the bench/*.sh scripts (sourced, never run).  A script sets
# bench_title and calls
#
#     bench_init NAME DEFAULT_RUNS "$@"
#
# which reads the two optional arguments every script takes (the nsbox
# binary, default build/nsbox, and the number of runs), prepares a staging
# directory that every user can read (the binary, bench.py and an empty
# project folder, all 0755, removed on exit), prints the title and the
# machine (bench_header), and sets:
#
#   root        the source tree
#   out         where CSV and markdown go (build/bench, or $BENCH_OUT)
#   nsbox_src   the binary named on the command line
#   runs        the number of runs (rounds) to take
#   smoke       1 under BENCH_SMOKE=1 (make bench-smoke): tiny counts
#   stage       the staging directory; $stage/bin/nsbox, $stage/bin/bench.py
#   proj        $stage/proj, the working directory of every launch
#   users       who to run as: root and nsbox-test when we are root (and that
#               account exists), otherwise only ourselves
#   bwrap_cmd   the bubblewrap line equivalent to `nsbox -- CMD` (an array
#               without the command: append it)
#
# Nothing here checks timings: a benchmark fails only when a script or a
# launcher fails, never because a number looks slow.

bench_init() {
	bench_name=$1
	local default_runs=$2
	shift 2
	root=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd)
	out=${BENCH_OUT:-$root/build/bench}
	smoke=${BENCH_SMOKE:-0}
	nsbox_src=${1:-$root/build/nsbox}
	runs=${2:-$default_runs}
	if [ "$smoke" = 1 ] && [ -z "${2:-}" ]; then
		runs=1
	fi
	if [ ! -x "$nsbox_src" ]; then
		echo "$bench_name: '$nsbox_src' is not an executable (run make first)" >&2
		exit 2
	fi
	nsbox_src=$(realpath -- "$nsbox_src")
	case $runs in
	'' | *[!0-9]*)
		echo "$bench_name: RUNS must be a positive number, not '$runs'" >&2
		exit 2
		;;
	esac
	[ "$runs" -ge 1 ] || {
		echo "$bench_name: RUNS must be at least 1" >&2
		exit 2
	}
	bench_need python3 python3
	bench_need bwrap bubblewrap
	mkdir -p "$out"
	out=$(cd -- "$out" && pwd)

	stage=$(mktemp -d /tmp/nsbox-bench-XXXXXX)
	# shellcheck disable=SC2064 # expand now: the trap must remove this stage
	trap "rm -rf -- '$stage'" EXIT
	mkdir -p "$stage/bin" "$stage/proj"
	cp -- "$nsbox_src" "$stage/bin/nsbox"
	cp -- "$root/bench/bench.py" "$stage/bin/bench.py"
	chmod 0755 "$stage" "$stage/bin" "$stage/proj" "$stage/bin/nsbox"
	chmod 0644 "$stage/bin/bench.py"
	nsbox=$stage/bin/nsbox
	proj=$stage/proj

	users=("$(id -un)")
	if [ "$(id -u)" -eq 0 ] && getent passwd "${NSBOX_TEST_USER:-nsbox-test}" >/dev/null; then
		users+=("${NSBOX_TEST_USER:-nsbox-test}")
	fi

	bwrap_cmd=(bwrap --unshare-all --die-with-parent --new-session --cap-drop ALL
		--ro-bind /usr /usr)
	local l
	for l in bin sbin lib lib32 lib64 libx32; do
		if [ -L "/$l" ]; then
			bwrap_cmd+=(--symlink "$(readlink "/$l")" "/$l")
		fi
	done
	bwrap_cmd+=(--ro-bind-try /etc/ld.so.cache /etc/ld.so.cache
		--ro-bind-try /etc/passwd /etc/passwd --ro-bind-try /etc/group /etc/group
		--proc /proc --dev /dev --tmpfs /tmp --ro-bind "$proj" "$proj" --chdir "$proj"
		--hostname nsbox)
	cd -- "$proj" || exit 2
	echo "== ${bench_title:-$bench_name}"
	bench_header
	echo
}

# bench_static SOURCE: compile bench/SOURCE (C) into $out, static (so that
# its exec has no loader, and it runs in any sandbox), unless that binary is
# newer; prints the binary's path.
bench_static() {
	local bin=$out/${1%.c}
	bench_need gcc build-essential
	if [ ! -x "$bin" ] || [ "$root/bench/$1" -nt "$bin" ]; then
		gcc -std=gnu11 -O2 -Wall -Wextra -Werror -static -o "$bin" "$root/bench/$1" >&2 || return 1
	fi
	echo "$bin"
}

# bench_need COMMAND PACKAGE: fail with the package to install.
bench_need() {
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "${bench_name:-bench}: needs $1 (apt-get install $2)" >&2
		exit 2
	fi
}

# bench_header: the machine, the kernel and the versions, markdown-friendly.
bench_header() {
	local model git
	model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
	git=$(git -C "$root" describe --always 2>/dev/null || echo unknown)
	# what the binary is built from; README.md and bench/results change as
	# the report is published
	if ! git -C "$root" diff --quiet HEAD -- src seccomp-profiles Makefile 2>/dev/null; then
		git="$git with local changes"
	fi
	echo "- machine: $(nproc) CPUs, ${model:-unknown model}, $(awk '/MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo)"
	echo "- kernel: $(uname -sr)"
	echo "- bwrap: $(bwrap --version 2>&1 | head -n 1)"
	echo "- nsbox: $("$nsbox" --version 2>&1 | head -n 1) (binary ${nsbox_src#"$root"/}, tree $git)"
	echo "- date: $(date -u '+%Y-%m-%d %H:%M UTC')"
}

# as_user USER COMMAND...: run COMMAND as USER (directly when that is us),
# with a small clean environment and the current directory kept.
as_user() {
	local user=$1
	shift
	if [ "$user" = "$(id -un)" ]; then
		"$@"
	else
		# A home of its own, as a real user has: nsbox keeps its cache
		# there (nsbox(1), FILES).
		if [ ! -d "$stage/home/$user" ]; then
			mkdir -p -- "$stage/home/$user"
			chown -- "$user:" "$stage/home/$user"
		fi
		setpriv --reuid="$user" --regid="$user" --init-groups -- \
			env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$stage/home/$user" \
			LANG=C.UTF-8 "$@"
	fi
}

# bench_py ARGS...: bench.py, from the stage (readable by every user).
bench_py() {
	python3 "$stage/bin/bench.py" "$@"
}

# bench_out TABLE_FILE: print the table and keep it, under its title, as
# $out/$bench_name.md for the report.
bench_out() {
	{
		echo "### ${bench_title:-$bench_name}"
		echo
		cat -- "$1"
	} >"$out/$bench_name.md"
	cat -- "$1"
}
