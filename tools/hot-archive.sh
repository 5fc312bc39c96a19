#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Write the list of the static libraries' members a default launch runs
# (make hot-functions, static builds):
#   tools/hot-archive.sh HOTSTEP NSBOX MAP LIST
# HOTSTEP is tools/hotstep.c built; NSBOX the static build and MAP its link
# map.  One launch of nsbox --result-fd 3 -- /bin/true in an empty project
# folder, single-stepped, as us and (when we are root) as nsbox-test; then
# tools/hot-archive.py maps the instructions to archive members.
set -euo pipefail

hotstep=$1 nsbox=$2 map=$3 list=$4
user=${NSBOX_TEST_USER:-nsbox-test}
work=$(mktemp -d)
trap 'rm -rf -- "$work"' EXIT
chmod 755 "$work"
mkdir "$work/proj" "$work/out"
chmod 777 "$work/out"
cp -- "$hotstep" "$work/hotstep"
cp -- "$nsbox" "$work/nsbox"
chmod 755 "$work/hotstep" "$work/nsbox"

launch() (
	cd "$work/proj"
	"$work/hotstep" "$1" "$work/nsbox" --result-fd 3 -- /bin/true 3>/dev/null
)

launch "$work/out/root"
if [ "$(id -u)" -eq 0 ] && getent passwd "$user" >/dev/null; then
	chown -- "$user:" "$work/proj"
	setpriv --reuid="$user" --regid="$user" --init-groups -- \
		env -i PATH=/usr/bin:/bin HOME=/nonexistent \
		bash -c "$(declare -f launch); work=$work; launch $work/out/user"
fi
python3 "$(dirname -- "${BASH_SOURCE[0]}")/hot-archive.py" write "$map" "$list" "$work"/out/*
