// SPDX-License-Identifier: GPL-2.0-or-later
/* cli_overlay: the --overlay options' setters (cli_options.c has their rows).  Pure (supervisor). */
#include <errno.h>
#include <string.h>

#include "core/cli_options.h"
#include "base/util.h"

int nsb_cli_check_overlays(struct nsb_config *c, struct nsb_error *e)
{
	c->n_overlays = 0;
	for (size_t i = 0; i < c->n_mounts; i++)
		if (c->mounts[i].kind == NSB_MOUNT_OVERLAY && ++c->n_overlays > NSB_MAX_OVERLAYS)
			return nsb_cli_usage_err(
				e, -E2BIG, "overlay a common parent directory instead",
				"--overlay '%.*s': too many overlays (at most %d)",
				(int)c->mounts[i].src_len, c->mounts[i].src, NSB_MAX_OVERLAYS);
	if (!c->n_overlays &&
	    (c->overlay_size || c->overlay_mode || c->overlay_commit_always || c->overlay_store))
		return nsb_cli_usage_err(
			e, -EINVAL, "add --overlay DIR",
			"--overlay-size, --overlay-mode, --overlay-commit-always and "
			"--overlay-store need an --overlay");
	return 0;
}

int nsb_cli_set_overlay_size(const struct nsb_cli_option *o, const char *arg,
			     struct nsb_cli_state *s, struct nsb_error *e)
{
	uint64_t v;

	if (nsb_parse_size(arg, NSB_MAX_OVERLAY_SIZE, &v) < 0 || v < NSB_MIN_OVERLAY_SIZE)
		return nsb_cli_usage_err(
			e, -EINVAL,
			"SIZE is bytes with an optional k, M, G or T suffix, from 1M to 1T",
			"--overlay-size '%s': invalid size", arg);
	s->c->overlay_size = v;
	return 0;
}

/* discard | commit | export:PATH */
int nsb_cli_set_overlay_mode(const struct nsb_cli_option *o, const char *arg,
			     struct nsb_cli_state *s, struct nsb_error *e)
{
	struct nsb_config *c = s->c;

	if (strcmp(arg, "discard") == 0)
		c->overlay_mode = NSB_OVERLAY_DISCARD;
	else if (strcmp(arg, "commit") == 0)
		c->overlay_mode = NSB_OVERLAY_COMMIT;
	else if (strncmp(arg, "export:", 7) == 0 && arg[7] && strlen(arg + 7) <= NSB_MAX_PATH) {
		c->overlay_mode = NSB_OVERLAY_EXPORT;
		c->overlay_export = arg + 7;
	} else
		return nsb_cli_usage_err(
			e, -EINVAL,
			"MODE is discard, commit or export:PATH (PATH: a new directory)",
			"--overlay-mode '%s': invalid mode", arg);
	return 0;
}
