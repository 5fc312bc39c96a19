// SPDX-License-Identifier: GPL-2.0-or-later
/* rlimits: run by the payload, after init forked it and before execve. */
#include <errno.h>
#include <sys/resource.h>

#include "base/macro.h"
#include "sandbox/rlimits.h"

int nsb_limits_apply_rlimits(const struct nsb_limits *l, struct nsb_error *e)
{
	if (l->memory_via == NSB_VIA_RLIMIT) {
		struct rlimit rl = {.rlim_cur = l->memory, .rlim_max = l->memory};
		/* Address space bounds mmap-based allocators, data bounds brk. */
		if (setrlimit(RLIMIT_AS, &rl) < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_LIMITS,
					     "set RLIMIT_AS to %llu bytes",
					     (unsigned long long)l->memory);
		if (setrlimit(RLIMIT_DATA, &rl) < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_LIMITS,
					     "set RLIMIT_DATA to %llu bytes",
					     (unsigned long long)l->memory);
	}
	if (l->pids_via == NSB_VIA_RLIMIT) {
		struct rlimit rl = {.rlim_cur = l->pids, .rlim_max = l->pids};
		if (setrlimit(RLIMIT_NPROC, &rl) < 0)
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_LIMITS,
					     "set RLIMIT_NPROC to %llu",
					     (unsigned long long)l->pids);
	}
	return 0;
}
