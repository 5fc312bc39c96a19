// SPDX-License-Identifier: GPL-2.0-or-later
/* The setter of --isolation (its row is in cli_options.c).  Pure (supervisor). */
#include <errno.h>
#include <string.h>

#include "base/util.h"
#include "core/cli.h"
#include "core/cli_options.h"

/* --isolation namespaces|landlock|auto */
int nsb_cli_set_isolation(const struct nsb_cli_option *o, const char *arg, struct nsb_cli_state *s,
			  struct nsb_error *e)
{
	static const char *const names[] = {[NSB_ISO_NAMESPACES] = "namespaces",
					    [NSB_ISO_LANDLOCK] = "landlock",
					    [NSB_ISO_AUTO] = "auto"};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (strcmp(arg, names[i]) == 0) {
			s->c->isolation = (enum nsb_isolation)i;
			return 0;
		}
	return nsb_cli_usage_err(e, -EINVAL, "MODE is namespaces, landlock or auto",
				 "--isolation '%s': unknown isolation mode", arg);
}
