#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
#
# src/supervisor/cgroup.c on a real cgroup v2 kernel, as root (parent: the root cgroup)
# and as the delegated user (own cgroup deleg/session has processes, so the
# runs become its siblings under deleg).  cgtest prints its own VMTEST lines.
rc=0
/bin/cgtest root || rc=1
as-user /bin/cgtest user || rc=1

# Nothing of any run may be left behind.
left=$(find /sys/fs/cgroup -maxdepth 3 -type d -name 'nsbox-*')
if [ -n "$left" ]; then
	echo "VMTEST FAIL cgroup-leftovers: $left"
	rc=1
else
	echo "VMTEST PASS cgroup-leftovers"
fi
exit "$rc"
