// SPDX-License-Identifier: GPL-2.0-or-later
/* struct nsb_config's defaults, before the command line is read.  Pure. */
#include <stddef.h>
#include <string.h>

#include "core/config.h"

_Static_assert(offsetof(struct nsb_config, mounts) == 0 &&
		       offsetof(struct nsb_config, n_mounts) ==
			       sizeof(((struct nsb_config *)0)->mounts),
	       "the mounts come first in struct nsb_config (nsb_config_init)");

void nsb_config_init(struct nsb_config *c)
{
	/* Everything but the mounts, which add_mount clears one by one as
	 * they come: the whole table would be half a megabyte of page faults
	 * in every run. */
	memset(&c->n_mounts, 0, sizeof(*c) - offsetof(struct nsb_config, n_mounts));
	c->result_fd = -1;
	c->kill_after_ms = NSB_DEFAULT_KILL_AFTER_MS;
}
