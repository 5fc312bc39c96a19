// SPDX-License-Identifier: GPL-2.0-or-later
/* nss: name lookups with glibc's built-in modules only, in a static nsbox (nss.h). */
#include <errno.h>
#include <nss.h>
#include <sys/auxv.h>

#include "base/macro.h"
#include "supervisor/nss.h"

int nsb_nss_builtin_only(void)
{
	static const char *const db[][2] = {
		{"passwd", "files"},
		{"group", "files"},
		{"hosts", "files dns"},
	};
	static int done = 1; /* 1: not yet */

	if (done <= 0)
		return done;
	done = 0;
	/* The kernel names the loader it mapped: none in a static binary. */
	if (getauxval(AT_BASE) != 0)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(db); i++)
		if (__nss_configure_lookup(db[i][0], db[i][1]) != 0) {
			done = errno ? -errno : -EINVAL;
			break;
		}
	return done;
}
