// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Guarding nsbox's cache (cache_guard.h; supervisor).  Every place a run may
 * look is guarded, $XDG_CACHE_HOME/nsbox, ~/.cache/nsbox and
 * /var/tmp/nsbox-UID, whether or not this run uses a cache (NSBOX_NO_CACHE)
 * or that place, and with --no-protect too: it
 * guards nsbox, not the project.  A cache directory missing where a
 * writable bind reaches it is made first, or the payload could make it; one
 * that neither exists nor can be made by us cannot be made by the payload
 * either.  The covers themselves (read-only, folders above pinned so none
 * can be renamed away and replaced) are the protect scan's.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "base/macro.h"
#include "base/util.h"
#include "gate/gate_fs_cache.h"
#include "supervisor/cache_guard.h"

/* The caller's own writable binds are the ones a payload could write through. */
static bool writable_bind(const struct nsb_mount_op *op)
{
	return op->user && op->kind == NSB_OP_BIND && !op->readonly;
}

/* hint: how to move the cache elsewhere, or NULL for the place in /var/tmp,
 * which is guarded wherever the cache is. */
static int guard_dir(const struct nsb_plan *p, const char *real, const char *hint,
		     int (*fn)(void *ud, size_t op, const char *rel), void *ud, struct nsb_error *e)
{
	int r = 0;

	for (size_t i = 0; r >= 0 && i < p->n_ops; i++) {
		const struct nsb_mount_op *op = &p->ops[i];
		if (!writable_bind(op))
			continue;
		if (nsb_path_is_under(op->src, real)) {
			if (strcmp(op->src, real) == 0)
				nsb_error_setx(e, -EPERM, NSB_STAGE_PLAN,
					       "'%s' is nsbox's cache directory and cannot be "
					       "bound writable",
					       real);
			else
				nsb_error_setx(e, -EPERM, NSB_STAGE_PLAN,
					       "'%s' lies in nsbox's cache directory '%s' and "
					       "cannot be bound writable",
					       op->src, real);
			return hint ? nsb_error_hint(e, "bind it with --ro, or %s", hint)
				    : nsb_error_hint(e, "bind it with --ro");
		}
		if (nsb_path_is_under(real, op->src))
			r = fn(ud, i, real + strlen(op->src) + (strcmp(op->src, "/") != 0));
	}
	return r;
}

/* Does a writable bind reach dir (dir in it, or it in dir)?  dir need not exist. */
static bool reached(const struct nsb_plan *p, const char *dir)
{
	for (size_t i = 0; i < p->n_ops; i++) {
		const struct nsb_mount_op *op = &p->ops[i];
		if (writable_bind(op) &&
		    (nsb_path_is_under(dir, op->src) || nsb_path_is_under(op->src, dir)))
			return true;
	}
	return false;
}

/*
 * /var/tmp/nsbox-UID, guarded like the others where a writable bind
 * reaches it, but made only then (not by every run that binds something
 * writable, as the caller's own cache directories are), and guarded only
 * when it is the caller's: one another user made, or a link, is never used
 * (nsb_gate_cache_dir), so nothing of it needs guarding.  Returns 1 with
 * real filled when it is to be guarded, else 0.
 */
static int tmp_to_guard(const struct nsb_plan *p, char real[PATH_MAX])
{
	char dir[PATH_MAX], base[PATH_MAX];
	int n;

	if (nsb_gate_cache_dir(NSB_CACHE_TMP, dir, sizeof(dir)) < 0 ||
	    !realpath(NSB_CACHE_TMP_BASE, base))
		return 0;
	n = snprintf(real, PATH_MAX, "%s%s", base, dir + strlen(NSB_CACHE_TMP_BASE));
	if (n < 0 || n >= PATH_MAX || !reached(p, real))
		return 0;
	if (mkdir(real, 0700) < 0 && errno != EEXIST)
		return 0;
	return nsb_gate_cache_dir_owned(real) ? 1 : 0;
}

int nsb_cache_guard(const struct nsb_plan *p, int (*fn)(void *ud, size_t op, const char *rel),
		    void *ud, struct nsb_error *e)
{
	static const enum nsb_cache_where where[] = {NSB_CACHE_XDG, NSB_CACHE_HOME};
	char dir[PATH_MAX], real[3][PATH_MAX] = {"", "", ""};
	bool writable = false;
	int r = 0;

	for (size_t i = 0; i < p->n_ops && !writable; i++)
		writable = writable_bind(&p->ops[i]);
	for (size_t w = 0; writable && r >= 0 && w < ARRAY_SIZE(where); w++) {
		if (nsb_gate_cache_dir(where[w], dir, sizeof(dir)) < 0)
			continue;
		(void)nsb_gate_cache_mkdir(dir);
		if (!realpath(dir, real[w])) {
			real[w][0] = '\0';
			continue;
		}
		if (w == 1 && strcmp(real[0], real[1]) == 0)
			continue; /* guarded already */
		r = guard_dir(p, real[w], "point XDG_CACHE_HOME elsewhere", fn, ud, e);
	}
	if (writable && r >= 0 && tmp_to_guard(p, real[2]) && strcmp(real[2], real[0]) != 0 &&
	    strcmp(real[2], real[1]) != 0)
		r = guard_dir(p, real[2], NULL, fn, ud, e);
	return r;
}
