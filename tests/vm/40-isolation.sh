#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# nsbox doctor, --isolation and the AppArmor profile on a real Debian kernel
# (cgroup v2 delegated, AppArmor in the kernel): doctor's verdict is compared
# with what actually runs, as root and as the delegated user, before and
# with user.max_user_namespaces at 0; then the profile apparmor/nsbox is
# loaded for /bin/nsbox and nsbox must still run under it.

W=/tmp/nsbvm-iso
mkdir -p "$W"
rc_all=0
GATE="--allow-path / --allow-metachar --allow-inline-code"

# as WHO CMD...: CMD as root or as the delegated user.
as() {
	who=$1
	shift
	if [ "$who" = user ]; then as-user "$@"; else "$@"; fi
}

# run WHO NSBOX-ARGS...: exit status; record in $W/rec, outputs in $W/out, $W/err.
run() {
	who=$1
	shift
	# shellcheck disable=SC2086 # GATE is a list of words
	as "$who" /bin/nsbox --result-fd 3 --no-project $GATE "$@" 3>"$W/rec" >"$W/out" 2>"$W/err"
}

doctor() {
	as "$1" /bin/nsbox doctor --json >"$W/doc" 2>"$W/err"
}

verdict() {
	if [ -z "$2" ]; then
		echo "VMTEST PASS $1  # $3"
	else
		echo "VMTEST FAIL $1:$2 ($3)"
		echo "  doctor: $(head -c 1500 "$W/doc" 2>/dev/null)"
		echo "  record: $(cat "$W/rec" 2>/dev/null)"
		echo "  stderr: $(head -c 1500 "$W/err")"
		rc_all=1
	fi
}

# doctor exits 0 exactly when the default sandbox starts, 1 exactly when
# only --isolation landlock does.
t_doctor_matches() {
	who=$1 tag=$2
	why=
	doctor "$who"
	d=$?
	run "$who" -- probe exit 0
	n=$?
	run "$who" --isolation landlock -- probe socket inet
	l=$?
	grep -q '^{"schema":1,' "$W/doc" || why="$why schema"
	if [ "$n" -eq 0 ]; then
		[ "$d" -eq 0 ] || why="$why doctor=$d-but-namespaces-run"
	elif [ "$l" -eq 1 ] && grep -q '^socket=EAFNOSUPPORT' "$W/out"; then
		[ "$d" -eq 1 ] || why="$why doctor=$d-but-landlock-runs"
	else
		[ "$d" -eq 2 ] || why="$why doctor=$d-but-nothing-runs(l=$l)"
	fi
	verdict "$who-doctor-$tag" "$why" "doctor=$d namespaces=$n landlock=$l"
}

t_blocked() {
	who=$1
	why=
	run "$who" -- probe exit 0
	rc=$?
	[ "$rc" -eq 125 ] || why="$why exit=$rc"
	grep -q 'user.max_user_namespaces' "$W/err" || why="$why diagnosis"
	grep -q -- '--isolation auto' "$W/err" || why="$why hint"
	verdict "$who-maxuserns0-namespaces-fails" "$why" "exit=$rc"
	why=
	run "$who" --isolation auto -- probe exit 3
	rc=$?
	if grep -q '"landlock_abi":0' "$W/doc"; then
		[ "$rc" -eq 125 ] || why="$why exit=$rc"
	else
		[ "$rc" -eq 3 ] || why="$why exit=$rc"
		grep -q '"isolation":"landlock"' "$W/rec" || why="$why record"
		grep -q 'warning: user namespaces are refused here' "$W/err" || why="$why warning"
	fi
	verdict "$who-maxuserns0-auto" "$why" "exit=$rc"
}

for who in root user; do
	t_doctor_matches "$who" host
done

saved=$(cat /proc/sys/user/max_user_namespaces)
if echo 0 >/proc/sys/user/max_user_namespaces; then
	for who in root user; do
		t_doctor_matches "$who" maxuserns0
		t_blocked "$who"
	done
	echo "$saved" >/proc/sys/user/max_user_namespaces
else
	echo "VMTEST FAIL sysctl-max-user-namespaces: cannot write it"
	rc_all=1
fi

# The AppArmor profile, for /bin/nsbox.  An AppArmor 3 parser (Debian 12)
# cannot compile the "userns," rule: it loads the profile without it (and
# says so), which still proves the rest loads and nsbox runs under it.
t_apparmor() {
	why=
	[ -d /sys/kernel/security/apparmor ] ||
		mount -t securityfs securityfs /sys/kernel/security 2>/dev/null
	if [ ! -d /sys/kernel/security/apparmor ]; then
		echo "VMTEST PASS apparmor-profile  # skipped: AppArmor is not enabled in this kernel"
		return
	fi
	if ! command -v apparmor_parser >/dev/null; then
		echo "VMTEST FAIL apparmor-profile: apparmor_parser is not in the image"
		rc_all=1
		return
	fi
	sed 's|^profile nsbox /usr/local/bin/nsbox |profile nsbox /bin/nsbox |' \
		/etc/nsbox-apparmor/nsbox >"$W/nsbox.aa"
	ver=$(apparmor_parser --version | sed -n 's/^AppArmor parser version \([0-9]*\).*/\1/p')
	if [ "${ver:-0}" -lt 4 ]; then
		grep -v -e '^abi <abi/4.0>,$' -e '^  userns,$' "$W/nsbox.aa" >"$W/nsbox.aa3"
		mv "$W/nsbox.aa3" "$W/nsbox.aa"
		note="parser $ver: loaded without the AppArmor 4 lines"
	else
		note="parser $ver"
	fi
	apparmor_parser -r -K "$W/nsbox.aa" >"$W/err" 2>&1 || why="$why load"
	grep -q '^nsbox ' /sys/kernel/security/apparmor/profiles || why="$why not-listed"
	for who in root user; do
		run "$who" -- probe exit 0 || why="$why $who-run=$?"
	done
	doctor root
	grep -q '"apparmor_profile_loaded":true' "$W/doc" || why="$why doctor"
	verdict apparmor-profile "$why" "$note; restrict_unprivileged_userns=$(cat /proc/sys/kernel/apparmor_restrict_unprivileged_userns 2>/dev/null || echo absent)"
}
t_apparmor
exit "$rc_all"
