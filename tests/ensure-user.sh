#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Make sure the unprivileged account the integration tests drop to exists.
# The tests run as root and switch to this user themselves, so it needs no
# home, no shell and no password.  Safe to run any number of times.
set -euo pipefail

user=${NSBOX_TEST_USER:-nsbox-test}

if getent passwd "$user" >/dev/null; then
	exit 0
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "ensure-user: '$user' is missing and only root can create it;" \
		"the tests that run as an unprivileged user will be skipped" >&2
	exit 0
fi

# A second concurrent run may win the race: treat "already exists" as success.
if ! useradd --system --no-create-home --user-group --shell /usr/sbin/nologin \
	--home-dir /nonexistent "$user"; then
	getent passwd "$user" >/dev/null || exit 1
fi
echo "ensure-user: created '$user' ($(id "$user"))"
