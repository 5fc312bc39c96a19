// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one PATH search (pure; the gate runs it in the supervisor, the payload
 * before execve, and the not-found hint): the file system is asked only
 * through the caller's probe, and judged by nsb_path_kind.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <sys/stat.h>

#include "base/path_search.h"
#include "base/util.h"

int nsb_path_search(const char *path_list, const char *name, nsb_path_probe_fn probe, void *ud,
		    char *out, size_t outsz)
{
	char cand[PATH_MAX];
	bool saw_noexec = false;

	if (!name || !*name || strchr(name, '/'))
		return -EINVAL;
	if (!path_list)
		return -ENOENT;
	/* every entry, the one after a trailing ':' too ("" is one empty entry) */
	for (const char *d = path_list, *end;; d = end + 1) {
		end = strchrnul(d, ':');
		size_t n = (size_t)(end - d);
		/* an empty entry is the working directory, as for execvp */
		if (nsb_snprintf(cand, sizeof(cand), "%.*s/%s", n ? (int)n : 1, n ? d : ".",
				 name) >= 0 &&
		    strlen(cand) < outsz) {
			int r = probe(ud, cand);
			if (r == NSB_PATH_EXEC) {
				memcpy(out, cand, strlen(cand) + 1);
				return 0;
			}
			if (r == NSB_PATH_NOEXEC)
				saw_noexec = true;
		}
		if (!*end)
			break;
	}
	return saw_noexec ? -EACCES : -ENOENT;
}

int nsb_path_kind(const struct stat *st, bool executable)
{
	if (!st || S_ISDIR(st->st_mode))
		return NSB_PATH_ABSENT;
	return S_ISREG(st->st_mode) && executable ? NSB_PATH_EXEC : NSB_PATH_NOEXEC;
}
