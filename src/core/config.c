// SPDX-License-Identifier: GPL-2.0-or-later
/* struct nsb_config's defaults, before the command line is read.  Pure. */
#include <string.h>

#include "core/config.h"

void nsb_config_init(struct nsb_config *c)
{
	memset(c, 0, sizeof(*c));
	c->result_fd = -1;
	c->kill_after_ms = NSB_DEFAULT_KILL_AFTER_MS;
}
