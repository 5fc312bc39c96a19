// SPDX-License-Identifier: GPL-2.0-or-later
/* overlay_record: the record's "overlay" member, as data and as JSON.  Pure (supervisor). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "core/overlay_record.h"

int nsb_ovl_list_add(struct nsb_ovl_list *l, const char *path, const char *type, unsigned mode,
		     uint64_t size, const char *sha256)
{
	struct nsb_ovl_item *it;

	l->count++;
	if (l->n >= NSB_OVL_RECORD_MAX)
		return 0;
	if (l->n == l->cap) {
		size_t nc = l->cap ? l->cap * 2 : 16;
		struct nsb_ovl_item *ni = realloc(l->items, nc * sizeof(*ni));
		if (!ni)
			return -ENOMEM;
		l->items = ni;
		l->cap = nc;
	}
	it = &l->items[l->n];
	*it = (struct nsb_ovl_item){.type = type, .mode = mode, .size = size};
	if (!(it->path = strdup(path)))
		return -ENOMEM;
	if (sha256) {
		it->has_sha = true;
		memcpy(it->sha256, sha256, NSB_SHA256_HEX);
		it->sha256[NSB_SHA256_HEX - 1] = '\0';
	}
	l->n++;
	return 0;
}

static void list_free(struct nsb_ovl_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->items[i].path);
	free(l->items);
	*l = (struct nsb_ovl_list){0};
}

void nsb_overlay_result_free(struct nsb_overlay_result *o)
{
	list_free(&o->added);
	list_free(&o->modified);
	list_free(&o->deleted);
	list_free(&o->skipped);
	free(o->error);
	free(o->export_path);
	free(o->store);
	o->error = o->export_path = o->store = NULL;
}

/* added/modified: {path, type, mode, size, sha256}; deleted: paths;
 * skipped: {path, why}. */
static void put_list(struct nsb_json *j, const char *key, const struct nsb_ovl_list *l, int shape)
{
	char count[32];

	nsb_json_key(j, key);
	nsb_json_begin_array(j);
	for (size_t i = 0; i < l->n; i++) {
		const struct nsb_ovl_item *it = &l->items[i];
		if (shape == 1) {
			nsb_json_string(j, it->path);
			continue;
		}
		nsb_json_begin_object(j);
		nsb_json_put_str(j, "path", it->path);
		if (shape == 2) {
			nsb_json_put_str(j, "why", it->type);
		} else {
			nsb_json_put_str(j, "type", it->type);
			char mode[8];
			nsb_format(mode, sizeof(mode), "%04o", it->mode & 07777);
			nsb_json_put_str(j, "mode", mode);
			nsb_json_put_uint(j, "size", it->size);
			nsb_json_put_str(j, "sha256", it->has_sha ? it->sha256 : NULL);
		}
		nsb_json_end_object(j);
	}
	nsb_json_end_array(j);
	strcpy(count, key);
	strcat(count, "_count");
	nsb_json_put_uint(j, count, l->count);
}

void nsb_overlay_record_put(struct nsb_json *j, const struct nsb_overlay_result *o, size_t n)
{
	nsb_json_key(j, "overlay");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < n; i++) {
		nsb_json_begin_object(j);
		nsb_json_put_str(j, "dir", o[i].dir);
		nsb_json_put_str(j, "dest", o[i].dest);
		nsb_json_put_str(j, "mode", o[i].mode);
		nsb_json_put_uint(j, "upper_bytes", o[i].upper_bytes);
		nsb_json_put_uint(j, "size_limit", o[i].size_limit);
		nsb_json_key(j, "full");
		nsb_json_bool(j, o[i].full);
		nsb_json_key(j, "complete");
		nsb_json_bool(j, o[i].complete);
		put_list(j, "added", &o[i].added, 0);
		put_list(j, "modified", &o[i].modified, 0);
		put_list(j, "deleted", &o[i].deleted, 1);
		put_list(j, "skipped", &o[i].skipped, 2);
		nsb_json_key(j, "committed");
		nsb_json_bool(j, o[i].committed);
		nsb_json_put_str(j, "export", o[i].export_path);
		nsb_json_put_str(j, "error", o[i].error);
		nsb_json_put_str(j, "store", o[i].store);
		nsb_json_end_object(j);
	}
	nsb_json_end_array(j);
}
