/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the two halves of the mount setup share (init, before pivot_root):
 * mount.c builds the new root and its binds, mount_special.c its /proc and
 * /dev.  Internal to them: no other file includes it.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"
#include "base/macro.h"
#include "core/plan.h"
#include "sandbox/mount_dest.h"

/* Where the new root is assembled before pivot_root.  Every source has been
 * cloned by then, so hiding the host's /tmp under it costs nothing. */
#define STAGING_DIR "/tmp"

static const char *const dev_nodes[] = {"null", "zero", "full", "random", "urandom", "tty"};

/* Descriptors whose close waits for the next batch (close_runs). */
#define DEFER_MAX 64

struct prepared;

struct mount_ctx {
	const struct nsb_plan *plan;
	struct prepared *prep; /* one per plan op */
	int dev_fds[ARRAY_SIZE(dev_nodes)];
	int mask_fd;		   /* read-only tmpfs holding "file" and "dir", both empty */
	int root_fd;		   /* the new root's mount */
	struct nsb_dest_walk walk; /* finds the mount points beneath root_fd */
	/* The leading read-only binds: made read-only, nosuid and nodev by one
	 * recursive call on the root once all are attached, not one each. */
	size_t ro_prefix;
	int defer[DEFER_MAX];
	size_t n_defer;
	size_t next_cover; /* the plan's first cover not yet mounted */
	int overlay_sock;  /* the upper layers go to the supervisor here; -1: no overlay */
	int store_fd;	   /* --overlay-store: the run's directory, cloned here; -1: none */
};

/* mount.c */
void mnt_defer_close(struct mount_ctx *c, int fd);
int mnt_set_attr(int fd, const char *path, unsigned flags, uint64_t set);
int mnt_mount_err(struct nsb_error *e, int r, const char *what, const char *path);
int mnt_attach(struct mount_ctx *c, int tree_fd, const char *dest, bool is_dir,
	       struct nsb_error *e);
int mnt_new_fs(struct mount_ctx *c, const char *type, const char *const *kv, unsigned attrs,
	       const char *dest, struct nsb_error *e);
int mnt_new_tmpfs(struct mount_ctx *c, uint64_t size, unsigned mode, unsigned attrs,
		  const char *dest, struct nsb_error *e);

/* mount_cover.c: the covers of bind op, attached from tree_fd. */
int mnt_cover_bind(struct mount_ctx *c, size_t op, int tree_fd, struct nsb_error *e);

/* mount_overlay.c: --overlay-store's directory into c->store_fd (-1 without),
 * before anything covers its path. */
int mnt_open_store(struct mount_ctx *c, struct nsb_error *e);

/* mount_overlay.c: op's overlay, lower_fd its lower layer; a detached mount fd. */
int mnt_make_overlay(struct mount_ctx *c, const struct nsb_mount_op *op, int lower_fd,
		     struct nsb_error *e);

/* mount_special.c */
int mnt_prepare_devices(struct mount_ctx *c, struct nsb_error *e);
int mnt_make_mask_source(struct mount_ctx *c, struct nsb_error *e);
int mnt_setup_proc(struct mount_ctx *c, const struct nsb_mount_op *op, struct nsb_error *e);
int mnt_setup_dev(struct mount_ctx *c, const struct nsb_mount_op *op, struct nsb_error *e);
