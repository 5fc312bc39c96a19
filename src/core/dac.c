// SPDX-License-Identifier: GPL-2.0-or-later
/* dac: pure: owner/group/other permission bits as a caller without capabilities meets them. */
#include <unistd.h>

#include "core/dac.h"

static bool in_groups(gid_t g, gid_t gid, const gid_t *groups, size_t n)
{
	if (g == gid)
		return true;
	for (size_t i = 0; i < n; i++)
		if (groups[i] == g)
			return true;
	return false;
}

bool nsb_dac_allows(const struct nsb_dac_inode *ino, uid_t uid, gid_t gid, const gid_t *groups,
		    size_t n, int want)
{
	unsigned bits;

	want &= R_OK | W_OK | X_OK;
	/* One class only, owner first: a mode of 0077 locks the owner out. */
	if (ino->uid == uid)
		bits = (ino->mode >> 6) & 7;
	else if (in_groups(ino->gid, gid, groups, n))
		bits = (ino->mode >> 3) & 7;
	else
		bits = ino->mode & 7;
	/* R_OK, W_OK and X_OK are 4, 2 and 1: the same as rwx bits. */
	return (bits & (unsigned)want) == (unsigned)want;
}
