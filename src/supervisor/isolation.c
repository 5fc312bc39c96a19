// SPDX-License-Identifier: GPL-2.0-or-later
/* --isolation in the supervisor: the mode, a Landlock run's TMPDIR, subreaper and sweep (isolation.h). */
#define _XOPEN_SOURCE 700 /* nftw */
#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>
#include <unistd.h>

#include "base/reap.h"
#include "base/util.h"
#include "supervisor/doctor.h"
#include "supervisor/isolation.h"

int nsb_isolation_decide(struct nsb_run *run, struct nsb_error *e)
{
	const struct nsb_config *cfg = run->cfg;
	int r;

	run->plan.isolation = NSB_ISO_NAMESPACES;
	if (cfg->isolation == NSB_ISO_NAMESPACES)
		return 0;
	if (cfg->isolation == NSB_ISO_AUTO) {
		char step[16] = "";
		int err = nsb_doctor_try_userns(step, sizeof(step));

		if (err == 0)
			return 0;
		(void)nsb_snprintf(run->isolation_why, sizeof(run->isolation_why), "%s: %s", step,
				   strerror(err));
	}
	r = nsb_landlock_decide(cfg, nsb_doctor_landlock_abi(), &run->plan.landlock, e);
	if (r < 0)
		return r;
	run->plan.isolation = NSB_ISO_LANDLOCK;
	return 0;
}

/* Protected paths and masks are mounts over parts of a bind: a Landlock
 * run cannot make them, and does not pretend to. */
static int refuse_covers(const struct nsb_run *run, struct nsb_error *e)
{
	if (run->plan.n_covers == 0)
		return 0;
	nsb_error_setx(
		e, -EOPNOTSUPP, NSB_STAGE_LANDLOCK,
		"--isolation landlock: '%s' must be protected or masked, which needs a mount "
		"namespace",
		run->plan.covers[0].path);
	/* With both switches given, what is left is nsbox's own cache
	 * (cache_guard.h), which no switch lowers. */
	if (run->cfg->no_protect && run->cfg->no_mask)
		return nsb_error_hint(e, "it holds nsbox's cache, which no payload may write: bind "
					 "a narrower directory");
	return nsb_error_hint(e, "--no-protect and --no-mask lower the request; or bind a "
				 "narrower directory");
}

static int make_tmpdir(struct nsb_run *run, struct nsb_error *e)
{
	struct nsb_landlock_plan *ll = &run->plan.landlock;
	const char *base = getenv("TMPDIR");
	int r;

	if (!base || base[0] != '/' || strlen(base) > NSB_MAX_PATH - 32)
		base = "/tmp";
	if (nsb_snprintf(ll->tmpdir, sizeof(ll->tmpdir), "%s/nsbox-XXXXXX", base) < 0 ||
	    !mkdtemp(ll->tmpdir)) {
		r = nsb_negerrno();
		nsb_error_set(e, r, NSB_STAGE_LANDLOCK, "create the private TMPDIR under '%s'",
			      base);
		ll->tmpdir[0] = '\0';
		return nsb_error_hint(e, "point TMPDIR at a writable directory");
	}
	r = nsb_plan_setenv(&run->plan, "TMPDIR", ll->tmpdir, e);
	if (r >= 0)
		r = nsb_plan_setenv(&run->plan, "HOME", ll->tmpdir, e);
	return r;
}

int nsb_isolation_prepare(struct nsb_run *run, struct nsb_error *e)
{
	int r;

	/* A sandbox of our own binds the files of /etc from a snapshot when
	 * it can (it may write the cache: only for a run that goes ahead). */
	if (run->plan.isolation != NSB_ISO_LANDLOCK) {
		nsb_etc_snapshot_apply(&run->plan, &run->etc);
		return 0;
	}
	r = refuse_covers(run, e);
	if (r < 0)
		return r;
	if (run->isolation_why[0])
		fprintf(stderr,
			"nsbox: warning: user namespaces are refused here (%s): --isolation auto runs "
			"with Landlock and seccomp only, without pid, mount, net, ipc, uts, user and "
			"cgroup namespaces (nsbox doctor says why)\n",
			run->isolation_why);
	r = make_tmpdir(run, e);
	if (r < 0)
		return r;
	/* Whatever the payload starts and leaves behind is reparented here
	 * (or to init, the subreaper below us), never to the host's init. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_LANDLOCK,
				     "become the child subreaper");
	return 0;
}

int nsb_isolation_kill_all(void *ud)
{
	const struct timespec tick = {.tv_nsec = 1000000};

	(void)ud;
	/* Parents first, round after round until only zombies are left: what
	 * a dying process leaves (or forked while it was being killed) is
	 * ours at once (subreaper) and caught by the next round.  Nothing is
	 * reaped here, init's wait is the event loop's.  Bounded (a second):
	 * the sweep after the run goes on until nothing is left. */
	for (int i = 0; i < 1000 && nsb_kill_descendants() > 0; i++)
		nanosleep(&tick, NULL);
	return 0;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(path) < 0 ? -1 : 0;
	return unlink(path) < 0 ? -1 : 0;
}

void nsb_isolation_finish(struct nsb_run *run)
{
	char *dir = run->plan.landlock.tmpdir;

	nsb_etc_snapshot_close(&run->etc);
	if (run->plan.isolation != NSB_ISO_LANDLOCK)
		return;
	if (nsb_reap_descendants() < 0)
		fprintf(stderr, "nsbox: warning: cannot read /proc to find survivors\n");
	/* Nothing of the payload runs any more: the tree cannot change under
	 * the walk.  FTW_PHYS: a planted symlink is removed, not followed;
	 * FTW_MOUNT: nothing on another filesystem is touched. */
	if (dir[0] && nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0)
		fprintf(stderr, "nsbox: warning: remove the private TMPDIR '%s': %s\n", dir,
			strerror(errno));
	dir[0] = '\0';
}
