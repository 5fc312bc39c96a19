#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Test the Python and the TypeScript packages against the real binary:
#
#     bash tests/check-packages.sh python|js NSBOX_BINARY
#
# python: builds the wheel offline with Debian's setuptools and wheel in a
# venv under build/ (--system-site-packages: pytest, setuptools and wheel come
# from Debian, nothing from a registry), installs it there and runs pytest
# against the installed package as the caller; then, as root, again as the
# unprivileged test user (tests/ensure-user.sh) on copies of the binary and
# the sources in a root-owned directory that user may read.
# js: node --test as the caller and as the test user (skipped, with the
# reason, where node is missing).
set -euo pipefail

if [ "$#" -ne 2 ] || { [ "$1" != python ] && [ "$1" != js ]; }; then
	echo "usage: $0 python|js NSBOX_BINARY" >&2
	exit 2
fi
what=$1
nsbox=$(realpath -- "$2")
src=$(cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.." && pwd -P)
build=${BUILD:-$src/build}
mkdir -p "$build"
build=$(realpath -- "$build")
python=${PYTHON:-/usr/bin/python3}
[ -x "$python" ] || python=python3
user=${NSBOX_TEST_USER:-nsbox-test}

# A root-owned copy of the binary and of what the tests read, for the test
# user (the source tree may sit where that user cannot read).
user_tree() {
	local top=$1
	chmod 0755 "$top"
	install -m 0755 "$nsbox" "$top/nsbox"
	mkdir -p "$top/src/examples" "$top/src/js"
	cp "$src/VERSION" "$top/src/"
	cp -r "$src/python" "$top/src/python"
	cp "$src/examples/agent_demo.py" "$top/src/examples/"
	cp -r "$src/js/." "$top/src/js/"
	chmod -R a+rX "$top"
}

can_switch() {
	if [ "$(id -u)" -ne 0 ]; then
		echo "check-$what: not root: the run as '$user' is skipped"
		return 1
	fi
	if ! getent passwd "$user" >/dev/null; then
		echo "check-$what: no user '$user' (tests/ensure-user.sh): the run as that user is skipped"
		return 1
	fi
}

check_python() {
	local venv=$build/pyvenv wheels=$build/wheel stage=$build/pysrc
	if ! "$python" -c 'import pytest, setuptools, wheel' 2>/dev/null; then
		echo "check-python: $python lacks pytest, setuptools or wheel: run make deps" >&2
		return 1
	fi
	[ -x "$venv/bin/python" ] || "$python" -m venv --system-site-packages "$venv"
	# build from a copy: setuptools writes build/ and *.egg-info next to the sources
	rm -rf "$stage" "$wheels" && cp -r "$src/python" "$stage"
	"$venv/bin/python" -m pip install -q --no-build-isolation --no-index "$stage"
	rm -rf "$stage" && cp -r "$src/python" "$stage"
	"$venv/bin/python" -m pip wheel -q --no-build-isolation --no-deps --no-index -w "$wheels" "$stage"
	"$venv/bin/python" -m pip install -q --no-index --no-deps --force-reinstall "$wheels"/nsbox-*.whl
	echo "== pytest (installed wheel: $(basename "$wheels"/nsbox-*.whl)) as $(id -un)"
	(cd "$build" && NSBOX_BIN=$nsbox NSBOX_PY_INSTALLED=$venv \
		"$venv/bin/python" -m pytest -p no:cacheprovider -q "$src/python/tests")
	can_switch || return 0
	local top
	top=$(mktemp -d /tmp/nsbox-pytest-XXXXXX)
	# shellcheck disable=SC2064 # expand now: the trap runs after top is gone
	trap "rm -rf '$top'" RETURN
	user_tree "$top"
	echo "== pytest (sources) as $user"
	(cd /tmp && runuser -u "$user" -- env HOME=/tmp NSBOX_BIN="$top/nsbox" \
		PYTHONPATH="$top/src/python/src" PYTHONDONTWRITEBYTECODE=1 \
		"$python" -m pytest -p no:cacheprovider -q "$top/src/python/tests")
}

check_js() {
	if ! command -v node >/dev/null; then
		echo "check-js: skipped: node is not installed (make deps installs nodejs)"
		return 0
	fi
	echo "== node --test ($(node --version)) as $(id -un)"
	(cd "$src/js" && NSBOX_BIN=$nsbox node --test test/*.test.js)
	can_switch || return 0
	local top
	top=$(mktemp -d /tmp/nsbox-nodetest-XXXXXX)
	# shellcheck disable=SC2064 # expand now: the trap runs after top is gone
	trap "rm -rf '$top'" RETURN
	user_tree "$top"
	echo "== node --test as $user"
	(cd "$top/src/js" && runuser -u "$user" -- env HOME=/tmp NSBOX_BIN="$top/nsbox" \
		node --test test/*.test.js)
}

"check_$what"
