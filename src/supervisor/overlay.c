// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay: run by the supervisor after the run: change sets, disk.full, commit and export. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/fdpass.h"
#include "base/macro.h"
#include "supervisor/overlay.h"
#include "supervisor/overlay_apply.h"
#include "supervisor/overlay_export.h"
#include "supervisor/overlay_store.h"
#include "supervisor/overlay_walk.h"

static const char *const mode_names[] = {
	[NSB_OVERLAY_DISCARD] = "discard",
	[NSB_OVERLAY_COMMIT] = "commit",
	[NSB_OVERLAY_EXPORT] = "export",
};

static const char *type_of(const struct stat *st)
{
	return S_ISDIR(st->st_mode) ? "dir" : S_ISLNK(st->st_mode) ? "symlink" : "file";
}

/* The record's callback: each change into its list. */
static int record_change(void *ud, const struct nsb_ovl_event *ev)
{
	struct nsb_overlay_result *o = ud;
	const struct stat *st = &ev->st;
	int r = 0;

	switch (ev->kind) {
	case NSB_OVL_ADD:
	case NSB_OVL_MODIFY:
		r = nsb_ovl_list_add(ev->kind == NSB_OVL_ADD ? &o->added : &o->modified, ev->path,
				     type_of(st), nsb_ovl_applied_mode(st),
				     S_ISDIR(st->st_mode) ? 0 : (uint64_t)st->st_size,
				     ev->has_sha ? ev->sha256 : NULL);
		if (r == 0 && !S_ISLNK(st->st_mode) && (st->st_mode & (S_ISUID | S_ISGID)))
			r = nsb_ovl_list_add(&o->skipped, ev->path, "setuid/setgid bits", 0, 0,
					     NULL);
		break;
	case NSB_OVL_DELETE:
		r = nsb_ovl_list_add(&o->deleted, ev->path, type_of(st), 0, 0, NULL);
		break;
	case NSB_OVL_SKIP:
		r = nsb_ovl_list_add(&o->skipped, ev->path, ev->why, 0, 0, NULL);
		break;
	case NSB_OVL_DIR_END:
		break;
	}
	return r;
}

struct commit {
	int dir_fd;
	struct nsb_error *e;
	size_t failed;
};

/* The commit's callback: a change that fails is said and counted; the rest go on. */
static int commit_change(void *ud, const struct nsb_ovl_event *ev)
{
	struct commit *c = ud;
	struct nsb_error e = {0};

	if (nsb_ovl_apply(c->dir_fd, ev, &e) < 0) {
		fprintf(stderr, "nsbox: warning: overlay commit: %s\n", e.message);
		if (!c->failed++)
			*c->e = e;
	}
	return 0;
}

static void set_error(struct nsb_overlay_result *r, const char *what, const struct nsb_error *e)
{
	char buf[sizeof(e->message) + 64];

	nsb_format(buf, sizeof(buf), "%s: %s", what, e->message);
	fprintf(stderr, "nsbox: warning: overlay '%s': %s\n", r->dest, buf);
	if (!r->error)
		r->error = strdup(buf);
}

/* Whether the change set may reach DIR: the command exited 0, or --overlay-commit-always. */
static bool may_commit(const struct nsb_config *cfg, const struct nsb_result *res)
{
	bool ran = res->status == NSB_STATUS_EXITED || res->status == NSB_STATUS_SIGNALED ||
		   res->status == NSB_STATUS_TIMED_OUT || res->status == NSB_STATUS_OOM_KILLED;

	if (cfg->overlay_commit_always)
		return ran;
	return res->status == NSB_STATUS_EXITED && res->exit_code_set && res->exit_code == 0;
}

static void commit_one(struct nsb_overlay_result *r, int upper, int lower)
{
	struct nsb_error e = {0};
	struct commit c = {.dir_fd = lower, .e = &e};
	int rc = nsb_ovl_walk(upper, lower, false, commit_change, &c, &e);

	if (rc < 0)
		set_error(r, "commit", &e);
	else if (c.failed)
		set_error(r, "commit", &e);
	else
		r->committed = true;
}

/* One overlay: its upper layer's size and fullness, its change set, its fate. */
static void finish_one(struct nsb_overlays *o, size_t i, const struct nsb_config *cfg,
		       const struct nsb_mount_op *op, const char *plan_store,
		       struct nsb_result *res)
{
	struct nsb_overlay_result *r = &o->res[i];
	_cleanup_close_ int upper = -1, lower = -1;
	_cleanup_(nsb_ovl_unwiden) struct nsb_ovl_widened wide = {.fd = -1};
	struct nsb_error e = {0};
	struct statfs sf;

	r->store = plan_store ? strdup(plan_store) : NULL;
	if (plan_store) {
		/* On disk: the layer's own blocks and inodes, as the watch counts
		 * them (overlay_store.h); the filesystem's are everyone's. */
		uint64_t n;
		nsb_ovl_store_usage(o->upper[i], UINT64_MAX, UINT64_MAX, &r->upper_bytes, &n);
		r->full = r->upper_bytes > r->size_limit || n > (r->size_limit >> 10);
	} else if (fstatfs(o->upper[i], &sf) == 0) {
		r->upper_bytes = (uint64_t)(sf.f_blocks - sf.f_bfree) * (uint64_t)sf.f_bsize;
		/* ENOSPC inside: no block or no inode left at the end. */
		r->full = sf.f_bavail == 0 || (sf.f_files && sf.f_ffree == 0);
	}
	/* DEST's own mode may be 000: widened until the walks are done. */
	upper = nsb_ovl_open_upper(o->upper[i], "upper", O_RDONLY | O_DIRECTORY, &wide);
	lower = open(op->src, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (upper < 0 || lower < 0) {
		nsb_error_set(&e, upper < 0 ? upper : nsb_negerrno(), NSB_STAGE_SUPERVISE,
			      "open '%s'", upper < 0 ? "the upper layer" : op->src);
		set_error(r, "read the change set", &e);
		return;
	}
	if (nsb_ovl_walk(upper, lower, true, record_change, r, &e) < 0) {
		set_error(r, "read the change set", &e);
		return;
	}
	r->complete = true;
	if (cfg->overlay_mode == NSB_OVERLAY_COMMIT && may_commit(cfg, res))
		commit_one(r, upper, lower);
	else if (cfg->overlay_mode == NSB_OVERLAY_EXPORT) {
		char path[NSB_MAX_PATH + 32];
		/* One directory per overlay beside the first: PATH, PATH.1, ... */
		if (i == 0)
			nsb_format(path, sizeof(path), "%s", cfg->overlay_export);
		else
			nsb_format(path, sizeof(path), "%s.%zu", cfg->overlay_export, i);
		if (nsb_ovl_export(upper, lower, path, &e) < 0)
			set_error(r, "export", &e);
		else
			r->export_path = strdup(path);
	}
}

/* The first full overlay is the violation's place; count says how many were. */
static void record_full(struct nsb_overlays *o, struct nsb_result *res)
{
	size_t full = 0;
	const char *where = NULL;

	for (size_t i = 0; i < o->n; i++)
		if (o->res[i].full && !full++)
			where = o->res[i].dest;
	if (!full || res->n_violations >= ARRAY_SIZE(res->violations))
		return;
	res->violations[res->n_violations].kind = "disk.full";
	res->violations[res->n_violations].count = full;
	res->violations[res->n_violations].path = where;
	res->n_violations++;
}

void nsb_overlays_finish(struct nsb_overlays *o, const struct nsb_config *cfg,
			 const struct nsb_plan *plan, int sock, struct nsb_result *res)
{
	size_t k = 0;

	o->n = 0;
	for (size_t i = 0; i < NSB_MAX_OVERLAYS; i++)
		o->upper[i] = -1;
	for (size_t i = 0; i < plan->n_ops && k < NSB_MAX_OVERLAYS; i++) {
		const struct nsb_mount_op *op = &plan->ops[i];
		if (!op->overlay)
			continue;
		/* init sent them in the plan's order, all before the payload ran. */
		int fd = sock >= 0 ? nsb_fd_recv(sock) : -EPIPE;
		if (fd < 0)
			break;
		o->upper[k] = fd;
		o->res[k] = (struct nsb_overlay_result){
			.dir = op->src,
			.dest = op->dest,
			.mode = mode_names[cfg->overlay_mode],
			.size_limit = plan->overlay_size,
		};
		finish_one(o, k, cfg, op, plan->overlay_store, res);
		o->n = ++k;
	}
	if (o->n) {
		res->enforced.overlay_size = plan->overlay_size;
		res->enforced.overlay_via = plan->overlay_store ? "watch" : "tmpfs";
	}
	record_full(o, res);
	res->overlays = o->res;
	res->n_overlays = o->n;
}

void nsb_overlays_close(struct nsb_overlays *o)
{
	for (size_t i = 0; i < o->n; i++) {
		nsb_closep(&o->upper[i]);
		nsb_overlay_result_free(&o->res[i]);
	}
	o->n = 0;
}
