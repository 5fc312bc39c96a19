/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The record's "overlay" member (issue 16): one object per --overlay, with the
 * change set the supervisor read from its upper layer.  Plain data filled by
 * supervisor/overlay.c; overlay_record.c writes it as JSON (pure).  Each list
 * keeps its first NSB_OVL_RECORD_MAX entries; its *_count says how many
 * there were in all.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/json.h"
#include "base/sha256.h"

#define NSB_OVL_RECORD_MAX 1000

struct nsb_ovl_item {
	char *path;	  /* owned; relative to DIR */
	const char *type; /* "file", "dir", "symlink"; a skipped entry's reason */
	unsigned mode;	  /* permission bits as applied (setuid/setgid never) */
	uint64_t size;	  /* files: bytes; symlinks: length of the target */
	bool has_sha;
	char sha256[NSB_SHA256_HEX];
};

struct nsb_ovl_list {
	struct nsb_ovl_item *items; /* owned, n of them (at most NSB_OVL_RECORD_MAX) */
	size_t n, cap;
	uint64_t count; /* all of them, listed or not */
};

struct nsb_overlay_result {
	const char *dir;      /* DIR's real path (not owned) */
	const char *dest;     /* where it was inside (not owned) */
	const char *mode;     /* "discard", "commit", "export" */
	uint64_t upper_bytes; /* bytes the upper layer held at the end */
	uint64_t size_limit;  /* its bound (--overlay-size) */
	bool full;	      /* the upper layer was full at the end (disk.full) */
	bool complete;	      /* the whole upper layer was read */
	struct nsb_ovl_list added, modified, deleted, skipped;
	bool committed;	   /* commit: every change reached DIR */
	char *export_path; /* owned; export: where the change set went, or NULL */
	char *error;	   /* owned: why the change set is incomplete or not applied, or NULL */
	char *store; /* owned; --overlay-store: the run's directory (removed after), or NULL */
};

/* Append one entry (path copied); past the bound only the count grows.
 * Returns 0 or -ENOMEM. */
int nsb_ovl_list_add(struct nsb_ovl_list *l, const char *path, const char *type, unsigned mode,
		     uint64_t size, const char *sha256);

/* Free what the lists and the error own; the struct stays the caller's. */
void nsb_overlay_result_free(struct nsb_overlay_result *o);

/* "overlay": [ ... ] (the key and its array) into j. */
void nsb_overlay_record_put(struct nsb_json *j, const struct nsb_overlay_result *o, size_t n);
