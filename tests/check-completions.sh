#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# The generated shell completions (make completions, tools/complete_gen.c):
#
#     bash tests/check-completions.sh BUILD_DIR NSBOX_BINARY
#
# 1. every option of the table (src/core/cli_options.c) is in all three
#    scripts, and the binary accepts each subcommand the scripts offer;
# 2. bash: Debian's bash-completion and the script loaded, the completion
#    function run on partial command lines in a fixture directory, its
#    candidates compared with what they must be;
# 3. zsh -n and fish -n parse their scripts, and fish completes a few
#    command lines itself (skipped, said so, where a shell is not
#    installed).
set -euo pipefail

if [ "$#" -ne 2 ]; then
	echo "usage: $0 BUILD_DIR NSBOX_BINARY" >&2
	exit 2
fi
build=$(realpath -- "$1")
nsbox=$(realpath -- "$2")
src=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
comp=$build/completions
fail=0

bad() {
	echo "check-completions: FAIL: $*" >&2
	fail=1
}

# ---- 1. the table in all three scripts --------------------------------------
mapfile -t options < <(sed -n 's/.*{\.name = "\(--[a-z0-9-]*\)".*/\1/p' "$src/src/core/cli_options.c")
[ "${#options[@]}" -gt 40 ] || bad "read only ${#options[@]} options from cli_options.c"
for o in "${options[@]}"; do
	grep -q -- "[ ']${o}[ ']" "$comp/nsbox.bash" || bad "$o missing from nsbox.bash"
	grep -qE -- "'(\*|\(- \*\))$o(=|')" "$comp/_nsbox" || bad "$o missing from _nsbox"
	grep -qE -- "-l ${o#--}( |$)" "$comp/nsbox.fish" || bad "$o missing from nsbox.fish"
done
echo "check-completions: ${#options[@]} options in nsbox.bash, _nsbox and nsbox.fish"
# the verbs the scripts offer are verbs of the binary, not commands to run
out=$("$nsbox" doctor --no-such-flag 2>&1) && bad "nsbox doctor took an unknown flag"
grep -q 'usage: nsbox doctor' <<<"$out" || bad "doctor is no verb: $out"
out=$("$nsbox" apply 2>&1) && bad "nsbox apply ran without arguments"
grep -q 'usage: nsbox apply' <<<"$out" || bad "apply is no verb: $out"

# ---- 2. bash's completion function on partial command lines -----------------
bc=/usr/share/bash-completion/bash_completion
if [ ! -r "$bc" ]; then
	bad "$bc missing (make deps-deb installs bash-completion)"
	exit 1
fi
fix=$(mktemp -d "${TMPDIR:-/tmp}/nsbox-comp.XXXXXX")
trap 'rm -rf -- "$fix"' EXIT
mkdir "$fix/data" "$fix/data2" "$fix/out"
touch "$fix/my.profile" "$fix/notes.txt"
cg=$(awk '$3 == "cgroup2" { print $2; exit }' /proc/self/mounts)
cg_dirs=$(find "$cg" -mindepth 1 -maxdepth 1 -type d | sort | tr '\n' ' ')

# WORDS as bash splits them (at '=' and ':' too), then the candidates, sorted.
cases=(
	'nsbox --isol|--isolation'
	'nsbox --isolation |auto landlock namespaces'
	'nsbox --isolation = l|landlock'
	'nsbox --overlay-mode |commit discard export:'
	'nsbox --overlay out --overlay-mode export : da|data data2'
	'nsbox --pids u|unlimited'
	'nsbox --seccomp m|my.profile'
	'nsbox --seccomp st|strict'
	'nsbox --print-profile |default groups strict'
	'nsbox --ro d|data data2'
	'nsbox --project |data data2 out'
	'nsbox --memory 1G --re|--request --request-fd --require-cgroup --result-fd'
	'nsbox doc|doctor'
	'nsbox doctor -|--json'
	'nsbox --ro data -- ech|echo'
	'nsbox --quiet mytool --isol|'
	"nsbox --cgroup-parent |$cg_dirs"
)
# shellcheck disable=SC2016 # expanded by the inner bash
runner='
compopt() { :; }   # outside a real completion, compopt has nothing to set
source "$1"
source "$2"
COMP_LINE=$3
COMP_POINT=${#COMP_LINE}
shift 3
COMP_WORDS=("$@")
COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
_nsbox
printf "%s\n" "${COMPREPLY[@]}"
'
n=0
for c in "${cases[@]}"; do
	line=${c%%|*}
	want=$(tr ' ' '\n' <<<"${c#*|}" | sed '/^$/d' | sort | tr '\n' ' ')
	read -ra words <<<"$line"
	# the line as typed: bash made words of '=' and ':'
	typed=${line// = /=}
	typed=${typed// : /:}
	# "nsbox --isolation " completes an empty word
	[ "${line: -1}" != " " ] || words+=("")
	got=$(cd "$fix" && env -i HOME="$fix" PATH=/nonexistent /bin/bash --norc --noprofile \
		-c "$runner" runner "$bc" "$comp/nsbox.bash" "$typed" "${words[@]}" 2>&1 |
		sed -e 's|/$||' -e '/^$/d' | sort | tr '\n' ' ')
	if [ "$got" != "$want" ]; then
		bad "'$line': got [$got], want [$want]"
	fi
	n=$((n + 1))
done
echo "check-completions: bash: $n command lines completed"

# ---- 3. the other shells parse theirs ----------------------------------------
for sh in zsh fish; do
	f=$comp/_nsbox
	[ "$sh" = zsh ] || f=$comp/nsbox.fish
	if command -v "$sh" >/dev/null; then
		"$sh" -n "$f" || bad "$sh -n $f"
		echo "check-completions: $sh -n $(basename "$f"): parsed"
	else
		echo "check-completions: $sh not installed: $(basename "$f") not parsed (make deps-deb installs it)"
	fi
done
# fish can run its completion too: `complete -C LINE` prints the candidates
if command -v fish >/dev/null; then
	fish_cases=(
		'nsbox --isolation |auto landlock namespaces'
		'nsbox --overlay-mode |commit discard export:'
		'nsbox --seccomp st|strict'
		'nsbox --print-pro|--print-profile'
		'nsbox --project d|data/ data2/'
		'nsbox doc|doctor'
	)
	for c in "${fish_cases[@]}"; do
		line=${c%%|*}
		want=$(tr ' ' '\n' <<<"${c#*|}" | sort | tr '\n' ' ')
		got=$(cd "$fix" && HOME=$fix fish --no-config -c \
			"source '$comp/nsbox.fish'; complete -C '$line'" | cut -f1 | sort | tr '\n' ' ')
		[ "$got" = "$want" ] || bad "fish: '$line': got [$got], want [$want]"
	done
	echo "check-completions: fish: ${#fish_cases[@]} command lines completed"
fi
[ "$fail" -eq 0 ] || exit 1
echo "check-completions: OK"
