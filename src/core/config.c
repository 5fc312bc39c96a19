// SPDX-License-Identifier: GPL-2.0-or-later
/* struct nsb_config's defaults, before the command line is read.  Pure. */
#include <stddef.h>
#include <string.h>

#include "core/config.h"

/* The lists (env, the gate's, the masks, the network's, the mounts) end the
 * struct, after every scalar (config.h). */
_Static_assert(offsetof(struct nsb_config, env) > offsetof(struct nsb_config, from_request) &&
		       offsetof(struct nsb_config, mounts) +
				       sizeof(((struct nsb_config *)0)->mounts) ==
			       sizeof(struct nsb_config),
	       "the lists come last in struct nsb_config (nsb_config_init)");

void nsb_config_init(struct nsb_config *c)
{
	/* The scalars and counts only: a list is filled as its options come
	 * and read only below its count, and clearing the lists (the mounts'
	 * table is 16 MiB) would cost every run their pages. */
	memset(c, 0, offsetof(struct nsb_config, env));
	c->result_fd = -1;
	c->kill_after_ms = NSB_DEFAULT_KILL_AFTER_MS;
}
