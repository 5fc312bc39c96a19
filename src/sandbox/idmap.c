// SPDX-License-Identifier: GPL-2.0-or-later
/* idmap: run by init, first thing: its own user namespace's id maps. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/util.h"
#include "sandbox/idmap.h"

/*
 * The kernel accepts a map only as one write(2) at offset 0, so a short
 * write is an error rather than something to retry.
 */
static int write_proc_file(const char *path, const char *text, struct nsb_error *e)
{
	_cleanup_close_ int fd = -1;
	size_t len = strlen(text);
	ssize_t n;

	fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_USERNS, "open '%s'", path);
	n = write(fd, text, len);
	if (n < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_USERNS, "write '%.*s' to '%s'",
				     (int)nsb_strcspn(text, "\n"), text, path);
	if ((size_t)n != len)
		return nsb_error_setx(e, -EIO, NSB_STAGE_USERNS,
				      "short write to '%s' (%zd of %zu bytes)", path, n, len);
	return 0;
}

int nsb_userns_write_maps(pid_t pid, uid_t uid, gid_t gid, struct nsb_error *e)
{
	char dir[32], path[64], map[64];
	int r;

	if (pid < 0)
		return nsb_error_setx(e, -EINVAL, NSB_STAGE_USERNS, "invalid pid %d", (int)pid);
	if (pid == 0)
		nsb_format(dir, sizeof(dir), "/proc/self");
	else
		nsb_format(dir, sizeof(dir), "/proc/%d", (int)pid);

	/*
	 * setgroups first: an unprivileged writer may set gid_map only after
	 * setgroups is denied (otherwise the payload could drop supplementary
	 * groups that deny it access).  Denying it also for root callers keeps
	 * the identity inside the same whoever runs us.
	 */
	nsb_format(path, sizeof(path), "%s/setgroups", dir);
	r = write_proc_file(path, "deny", e);
	if (r < 0)
		return r;

	nsb_format(path, sizeof(path), "%s/uid_map", dir);
	nsb_format(map, sizeof(map), "%u %u 1\n", (unsigned int)uid, (unsigned int)uid);
	r = write_proc_file(path, map, e);
	if (r < 0)
		return r;

	nsb_format(path, sizeof(path), "%s/gid_map", dir);
	nsb_format(map, sizeof(map), "%u %u 1\n", (unsigned int)gid, (unsigned int)gid);
	return write_proc_file(path, map, e);
}
