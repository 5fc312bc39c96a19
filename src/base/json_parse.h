/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A strict JSON reader (RFC 8259) into a tree held in an arena.  Pure.
 *
 * Strict means: the whole input is one value with only JSON whitespace around
 * it; the input is well-formed UTF-8 (no byte order mark); strings contain no
 * raw control characters and no lone surrogate escapes; numbers follow the
 * RFC's grammar exactly (no leading zeros, '+', '.5', NaN, hex); an object
 * names each member once; nesting is at most NSB_JSON_MAX_DEPTH deep and the
 * input at most the caller's max_len bytes.  The first violation stops the
 * parse with line:column (1-based; the column counts characters) and the JSON
 * path of the value it was in ("$.limits.memory", "$.ro[2]").
 *
 * Why our own and not a Debian library: the request is the only JSON nsbox
 * reads, it needs exactly these refusals (duplicates, depth, size, lone
 * surrogates) plus a path in every message, and the candidates (json-c,
 * jansson, cJSON) accept duplicate keys silently, keep numbers only as
 * double/int64, or would add a shared library to every launch.  This file is
 * a few hundred lines, fuzzed (tests/fuzz/fuzz_json_parse.c).
 *
 * Every string and every node lives in the document's arena: one free
 * (nsb_jdoc_free) releases everything.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/json.h" /* NSB_JSON_MAX_DEPTH */

enum nsb_jtype {
	NSB_JNULL,
	NSB_JBOOL,
	NSB_JNUMBER,
	NSB_JSTRING,
	NSB_JARRAY,
	NSB_JOBJECT,
};

struct nsb_jval {
	enum nsb_jtype type;
	bool boolean;
	/* A string: decoded, NUL-terminated, len bytes (it may hold a NUL).
	 * A number: its text as written, NUL-terminated. */
	char *str;
	size_t len;
	/* In an object: the member's name (decoded, NUL-terminated). */
	const char *key;
	size_t key_len;
	size_t index; /* position in the parent */
	/* Arrays and objects: the elements or members, in document order. */
	size_t n;
	struct nsb_jval *first, *last, *next, *parent;
	size_t offset; /* of the value's first byte in the document */
	uint32_t line; /* of that byte */
};

struct nsb_jarena_block;

struct nsb_jdoc {
	struct nsb_jval *root;
	const char *buf; /* the input: kept (not owned) for line:column */
	size_t len;
	struct nsb_jarena_block *blocks;
};

struct nsb_jerror {
	unsigned line, column; /* 1-based; 0 when no position applies */
	char path[256];
	char message[160];
};

/*
 * Parse buf[0..len).  On success d->root is the value; on failure returns
 * -EINVAL (not JSON, or refused), -E2BIG (len > max_len, nesting too deep)
 * or -ENOMEM, with err filled.  Call nsb_jdoc_free either way.  buf must
 * stay valid while positions are asked for (nsb_jdoc_where).
 */
int nsb_json_parse(struct nsb_jdoc *d, const char *buf, size_t len, size_t max_len,
		   struct nsb_jerror *err);

void nsb_jdoc_free(struct nsb_jdoc *d);

/* size bytes (aligned, zeroed) in the document's arena, NULL when out of memory. */
void *nsb_jdoc_alloc(struct nsb_jdoc *d, size_t size);

/* The member named key, or NULL. */
const struct nsb_jval *nsb_jobj_get(const struct nsb_jval *obj, const char *key);

/* An integer number (no fraction, no exponent) in [0, max] or [INT64_MIN,
 * INT64_MAX]: 0, or -EINVAL (not an integer) / -ERANGE. */
int nsb_jval_uint(const struct nsb_jval *v, uint64_t max, uint64_t *ret);
int nsb_jval_int(const struct nsb_jval *v, int64_t *ret);

/* The JSON path of v ("$", "$.a[3]", "$[\"odd key\"]"), cut with "..." when
 * it does not fit; out is always NUL-terminated. */
void nsb_jval_path(const struct nsb_jval *v, char *out, size_t size);

/* Line and column of v in the document. */
void nsb_jdoc_where(const struct nsb_jdoc *d, const struct nsb_jval *v, unsigned *ret_line,
		    unsigned *ret_column);

/* The type's name in messages: "a string", "an object", ... */
const char *nsb_jtype_name(enum nsb_jtype t);
