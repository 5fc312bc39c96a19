/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --overlay in the supervisor (issue 16): the upper layers the sandbox handed
 * over (sandbox/mount_overlay.c), read once the run is over (nothing of the
 * command runs any more then: init.h), into the record's change sets, the
 * disk.full violation, and per --overlay-mode a commit into DIR or an export
 * for nsbox apply.  A run without --overlay never comes here.
 */
#pragma once

#include "core/config.h"
#include "core/overlay_record.h"
#include "core/plan.h"
#include "core/result.h"

struct nsb_overlays {
	size_t n;
	int upper[NSB_MAX_OVERLAYS]; /* each upper tmpfs's mount fd, or -1 */
	struct nsb_overlay_result res[NSB_MAX_OVERLAYS];
};

/*
 * Take the upper layers from sock (as many as the sandbox sent: fewer when
 * its setup failed), read each change set, then discard, commit or export;
 * res->overlays points into *o afterwards.  Failures after the run are
 * warnings (stderr and the overlay's "error"), never a change of status.
 */
void nsb_overlays_finish(struct nsb_overlays *o, const struct nsb_config *cfg,
			 const struct nsb_plan *plan, int sock, struct nsb_result *res);

/* Close the upper layers (which frees them) and free the change sets. */
void nsb_overlays_close(struct nsb_overlays *o);
