// SPDX-License-Identifier: GPL-2.0-or-later
/* The JSON reader's tree (json_parse.h): its arena, paths, lookups and numbers.  Pure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "base/json_parse.h"
#include "base/macro.h"

/* ---- the arena ------------------------------------------------------------- */

#define ARENA_BLOCK (64u << 10)

struct nsb_jarena_block {
	struct nsb_jarena_block *next;
	size_t used, size;
	max_align_t data[];
};

void *nsb_jdoc_alloc(struct nsb_jdoc *d, size_t size)
{
	struct nsb_jarena_block *b = d->blocks;
	size_t need = (size + 15) & ~(size_t)15;
	void *p;

	if (need < size)
		return NULL;
	if (!b || b->size - b->used < need) {
		size_t bs = need > ARENA_BLOCK ? need : ARENA_BLOCK;

		b = calloc(1, sizeof(*b) + bs);
		if (!b)
			return NULL;
		b->size = bs;
		/* A big allocation gets a block of its own, behind the current
		 * one, so the current block's free space is not wasted. */
		if (d->blocks && need > ARENA_BLOCK) {
			b->next = d->blocks->next;
			d->blocks->next = b;
		} else {
			b->next = d->blocks;
			d->blocks = b;
		}
	}
	p = (char *)b->data + b->used;
	b->used += need;
	return p;
}

void nsb_jdoc_free(struct nsb_jdoc *d)
{
	while (d->blocks) {
		struct nsb_jarena_block *n = d->blocks->next;
		free(d->blocks);
		d->blocks = n;
	}
	d->root = NULL;
}

const char *nsb_jtype_name(enum nsb_jtype t)
{
	switch (t) {
	case NSB_JNULL:
		return "null";
	case NSB_JBOOL:
		return "a boolean";
	case NSB_JNUMBER:
		return "a number";
	case NSB_JSTRING:
		return "a string";
	case NSB_JARRAY:
		return "an array";
	case NSB_JOBJECT:
		return "an object";
	}
	return "a value";
}

static bool plain_key(const char *k, size_t n)
{
	if (n == 0 || (k[0] >= '0' && k[0] <= '9'))
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = k[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '_'))
			return false;
	}
	return true;
}

/* One step of a path: ".key", "[3]" or ["key"] with the key escaped. */
static size_t path_step(const struct nsb_jval *v, char *out, size_t size)
{
	size_t o = 0;

	if (!v->parent)
		return (size_t)nsb_format(out, size, "$");
	if (v->parent->type == NSB_JARRAY)
		return (size_t)nsb_format(out, size, "[%zu]", v->index);
	if (plain_key(v->key, v->key_len))
		return (size_t)nsb_format(out, size, ".%s", v->key);
	/* Quoted: printable ASCII as is, the rest as \u00XX bytes. */
	o += (size_t)nsb_format(out, size, "[\"");
	for (size_t i = 0; i < v->key_len; i++) {
		unsigned char c = (unsigned char)v->key[i];
		char tmp[8];
		if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
			nsb_format(tmp, sizeof(tmp), "%c", c);
		else
			nsb_format(tmp, sizeof(tmp), "\\u%04x", c);
		o += (size_t)nsb_format(o < size ? out + o : NULL, o < size ? size - o : 0, "%s",
					tmp);
	}
	o += (size_t)nsb_format(o < size ? out + o : NULL, o < size ? size - o : 0, "\"]");
	return o;
}

void nsb_jval_path(const struct nsb_jval *v, char *out, size_t size)
{
	const struct nsb_jval *chain[NSB_JSON_MAX_DEPTH + 2];
	size_t n = 0, o = 0;

	if (size == 0)
		return;
	out[0] = '\0';
	for (; v && n < ARRAY_SIZE(chain); v = v->parent)
		chain[n++] = v;
	while (n-- > 0) {
		size_t k = path_step(chain[n], out + o, size - o);
		if (o + k >= size) {
			/* Cut: end with "..." where it fits. */
			if (size >= 4)
				memcpy(out + size - 4, "...", 4);
			return;
		}
		o += k;
	}
}

/* ---- reading the tree ------------------------------------------------------ */

const struct nsb_jval *nsb_jobj_get(const struct nsb_jval *obj, const char *key)
{
	size_t n = strlen(key);

	if (!obj || obj->type != NSB_JOBJECT)
		return NULL;
	for (const struct nsb_jval *m = obj->first; m; m = m->next)
		if (m->key_len == n && memcmp(m->key, key, n) == 0)
			return m;
	return NULL;
}

int nsb_jval_uint(const struct nsb_jval *v, uint64_t max, uint64_t *ret)
{
	uint64_t x = 0;

	if (v->type != NSB_JNUMBER || v->str[0] == '-' || strpbrk(v->str, ".eE"))
		return -EINVAL;
	for (const char *c = v->str; *c; c++) {
		unsigned dgt = (unsigned)(*c - '0');
		if (x > (UINT64_MAX - dgt) / 10)
			return -ERANGE;
		x = x * 10 + dgt;
	}
	if (x > max)
		return -ERANGE;
	*ret = x;
	return 0;
}

int nsb_jval_int(const struct nsb_jval *v, int64_t *ret)
{
	bool neg;
	uint64_t x = 0, lim;

	if (v->type != NSB_JNUMBER || strpbrk(v->str, ".eE"))
		return -EINVAL;
	neg = v->str[0] == '-';
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	for (const char *c = v->str + neg; *c; c++) {
		unsigned dgt = (unsigned)(*c - '0');
		if (x > (lim - dgt) / 10)
			return -ERANGE;
		x = x * 10 + dgt;
	}
	*ret = neg ? (int64_t)(0 - x) : (int64_t)x;
	return 0;
}
