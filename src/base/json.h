/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small, pure JSON writer into a growable malloc'd buffer.
 *
 * The writer enforces the grammar as it goes (a key only inside an object, a
 * value after every key, one top-level value, containers closed in order), so
 * whatever it hands out is valid JSON.  Commas are placed automatically.
 *
 * Errors are sticky: the first failure is kept in j->err and every later call
 * is a no-op returning it.  A caller can therefore emit a whole document
 * without checking each call and look only at nsb_json_finish():
 *   -ENOMEM  an allocation failed
 *   -E2BIG   the output would exceed j->max_len, or nesting exceeds
 *            NSB_JSON_MAX_DEPTH
 *   -EINVAL  misuse (key outside an object, value where a key is due,
 *            unbalanced end, second top-level value, finish while open)
 *
 * Strings are arbitrary bytes: '"', '\\' and every control character
 * (< 0x20 and 0x7f) are escaped; each maximal ill-formed UTF-8 subsequence
 * (overlong forms, surrogates, code points above U+10FFFF, stray continuation
 * bytes, truncated sequences) becomes one U+FFFD and sets
 * j->replaced_invalid_utf8.  Well-formed UTF-8 passes through unchanged.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Hard limit on the output, terminating NUL excluded. */
#define NSB_JSON_MAX_LEN (64u << 20)
/* Deepest nesting of objects and arrays. */
#define NSB_JSON_MAX_DEPTH 32

struct nsb_json {
	char *buf; /* NUL-terminated whenever non-NULL */
	size_t len, cap;
	size_t max_len; /* NSB_JSON_MAX_LEN after init; a caller may lower it */
	int depth;	/* open containers */
	/* Per level (0 = top level): a value was already written at this level. */
	bool need_comma[NSB_JSON_MAX_DEPTH + 1];
	/* Per open container (index depth): true for an object. */
	bool is_object[NSB_JSON_MAX_DEPTH + 1];
	bool after_key; /* a key was written, its value is due */
	int err;	/* first error (-errno), 0 while all is well */
	bool replaced_invalid_utf8;
	/* realloc() after init; replaceable to inject allocation failures. */
	void *(*realloc_fn)(void *ptr, size_t size);
};

void nsb_json_init(struct nsb_json *j);

/* Release the buffer.  Safe after nsb_json_finish() and on a zeroed struct. */
void nsb_json_free(struct nsb_json *j);

int nsb_json_begin_object(struct nsb_json *j);
int nsb_json_end_object(struct nsb_json *j);
int nsb_json_begin_array(struct nsb_json *j);
int nsb_json_end_array(struct nsb_json *j);

/* Write a member name; the next call must write its value. */
int nsb_json_key(struct nsb_json *j, const char *name);

/* A NUL-terminated string; NULL writes null. */
int nsb_json_string(struct nsb_json *j, const char *s);
/* len bytes of s, which may contain NUL and invalid UTF-8 (s may be NULL when len is 0). */
int nsb_json_string_len(struct nsb_json *j, const char *s, size_t len);

int nsb_json_int(struct nsb_json *j, int64_t v);
int nsb_json_uint(struct nsb_json *j, uint64_t v);
int nsb_json_bool(struct nsb_json *j, bool v);
int nsb_json_null(struct nsb_json *j);

/* Append one '\n' after the complete top-level value (for line-oriented output). */
int nsb_json_newline(struct nsb_json *j);

/*
 * Hand out the finished document: a malloc'd, NUL-terminated buffer and its
 * length (NUL excluded).  Requires exactly one complete top-level value.  On
 * success the writer no longer owns the buffer; on failure returns the sticky
 * error and nothing is handed out.  Call nsb_json_free() either way.
 */
int nsb_json_finish(struct nsb_json *j, char **ret, size_t *ret_len);

/*
 * A member in one call: the key, then its value.  The same sticky errors.
 * put_str writes null for NULL; put_opt_int writes null for a negative
 * value ("unknown"); put_strn writes a fixed-size char array up to its
 * first NUL, never past size bytes.
 */
void nsb_json_put_str(struct nsb_json *j, const char *key, const char *s);
void nsb_json_put_strn(struct nsb_json *j, const char *key, const char *s, size_t size);
void nsb_json_put_bool(struct nsb_json *j, const char *key, bool v);
void nsb_json_put_int(struct nsb_json *j, const char *key, int64_t v);
void nsb_json_put_uint(struct nsb_json *j, const char *key, uint64_t v);
void nsb_json_put_opt_int(struct nsb_json *j, const char *key, int64_t v);
