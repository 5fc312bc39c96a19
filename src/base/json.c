// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * JSON writer (see json.h).  Pure: memory allocation only, no I/O, no logging.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "base/json.h"

void nsb_json_init(struct nsb_json *j)
{
	memset(j, 0, sizeof(*j));
	j->max_len = NSB_JSON_MAX_LEN;
	j->realloc_fn = realloc;
}

void nsb_json_free(struct nsb_json *j)
{
	free(j->buf);
	j->buf = NULL;
	j->len = 0;
	j->cap = 0;
}

/* Keep the first error only: later failures are consequences of it. */
static int fail(struct nsb_json *j, int err)
{
	if (!j->err)
		j->err = err;
	return j->err;
}

/* Make room for n more bytes plus the terminating NUL. */
static int reserve(struct nsb_json *j, size_t n)
{
	/* A caller may lower the limit, never raise it. */
	size_t max = j->max_len < NSB_JSON_MAX_LEN ? j->max_len : NSB_JSON_MAX_LEN;

	if (j->err)
		return j->err;
	/* Compare without computing len + n, which could wrap. */
	if (j->len > max || n > max - j->len)
		return fail(j, -E2BIG);
	size_t need = j->len + n + 1;
	if (need <= j->cap)
		return 0;

	size_t cap = j->cap ? j->cap : 256;
	while (cap < need)
		cap *= 2; /* cannot wrap: need <= max + 1, far below SIZE_MAX / 2 */
	if (cap > max + 1)
		cap = max + 1;

	void *p = (j->realloc_fn ? j->realloc_fn : realloc)(j->buf, cap);
	if (!p)
		return fail(j, -ENOMEM);
	j->buf = p;
	j->cap = cap;
	return 0;
}

static int append(struct nsb_json *j, const void *p, size_t n)
{
	int r = reserve(j, n);
	if (r < 0)
		return r;
	memcpy(j->buf + j->len, p, n);
	j->len += n;
	j->buf[j->len] = '\0';
	return 0;
}

static int append_str(struct nsb_json *j, const char *s)
{
	return append(j, s, strlen(s));
}

/*
 * Called before every value and every key: checks that one is allowed here and
 * writes the separating comma.  is_key says which of the two it is.
 */
static int begin_item(struct nsb_json *j, bool is_key)
{
	if (j->err)
		return j->err;

	bool in_object = j->depth > 0 && j->is_object[j->depth];
	if (is_key) {
		if (!in_object || j->after_key)
			return fail(j, -EINVAL);
	} else if (in_object) {
		if (!j->after_key)
			return fail(j, -EINVAL);
		/* A value after its key: the key already wrote the comma. */
		j->after_key = false;
		return 0;
	} else if (j->depth == 0 && j->need_comma[0]) {
		return fail(j, -EINVAL); /* one top-level value only */
	}

	if (j->need_comma[j->depth]) {
		int r = append(j, ",", 1);
		if (r < 0)
			return r;
	}
	j->need_comma[j->depth] = true;
	return 0;
}

static int begin_container(struct nsb_json *j, bool object)
{
	int r = begin_item(j, false);
	if (r < 0)
		return r;
	if (j->depth >= NSB_JSON_MAX_DEPTH)
		return fail(j, -E2BIG);
	r = append(j, object ? "{" : "[", 1);
	if (r < 0)
		return r;
	j->depth++;
	j->is_object[j->depth] = object;
	j->need_comma[j->depth] = false;
	return 0;
}

static int end_container(struct nsb_json *j, bool object)
{
	if (j->err)
		return j->err;
	if (j->depth == 0 || j->is_object[j->depth] != object || j->after_key)
		return fail(j, -EINVAL);
	int r = append(j, object ? "}" : "]", 1);
	if (r < 0)
		return r;
	j->depth--;
	return 0;
}

int nsb_json_begin_object(struct nsb_json *j)
{
	return begin_container(j, true);
}

int nsb_json_end_object(struct nsb_json *j)
{
	return end_container(j, true);
}

int nsb_json_begin_array(struct nsb_json *j)
{
	return begin_container(j, false);
}

int nsb_json_end_array(struct nsb_json *j)
{
	return end_container(j, false);
}

/*
 * Length of the well-formed UTF-8 sequence at s[0..n) (n >= 1, s[0] >= 0x80),
 * or, when it is ill-formed, the negated length of its maximal subpart: the
 * longest prefix that could still have begun a well-formed sequence, at least
 * one byte.  Replacing each maximal subpart by one U+FFFD is the practice
 * Unicode recommends (chapter 3, "U+FFFD Substitution of Maximal Subparts"),
 * so a decoder and this writer agree on how many replacements appear.
 */
static int utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char b = s[0];
	int need;
	/* Bounds for the second byte; they exclude overlongs, surrogates, > U+10FFFF. */
	unsigned char lo = 0x80, hi = 0xbf;

	if (b >= 0xc2 && b <= 0xdf) {
		need = 2;
	} else if (b >= 0xe0 && b <= 0xef) {
		need = 3;
		if (b == 0xe0)
			lo = 0xa0; /* below: overlong */
		else if (b == 0xed)
			hi = 0x9f; /* above: UTF-16 surrogates */
	} else if (b >= 0xf0 && b <= 0xf4) {
		need = 4;
		if (b == 0xf0)
			lo = 0x90; /* below: overlong */
		else if (b == 0xf4)
			hi = 0x8f; /* above: beyond U+10FFFF */
	} else {
		return -1; /* continuation byte, C0/C1 (always overlong), F5..FF */
	}

	for (int i = 1; i < need; i++) {
		if ((size_t)i >= n)
			return -i; /* truncated */
		unsigned char c = s[i];
		if (i == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xbf))
			return -i;
	}
	return need;
}

/* Bytes that go out unchanged: printable ASCII other than '"' and '\\'. */
static bool plain_ascii(unsigned char c)
{
	return c >= 0x20 && c < 0x7f && c != '"' && c != '\\';
}

static int write_escaped(struct nsb_json *j, const char *str, size_t len)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;

	int r = append(j, "\"", 1);
	while (r >= 0 && i < len) {
		/* Copy the longest run that needs no escaping in one go. */
		size_t run = i;
		while (run < len && plain_ascii(s[run]))
			run++;
		if (run > i) {
			r = append(j, s + i, run - i);
			i = run;
			continue;
		}

		unsigned char c = s[i];
		if (c >= 0x80) {
			int n = utf8_seq(s + i, len - i);
			if (n > 0) {
				r = append(j, s + i, (size_t)n);
				i += (size_t)n;
			} else {
				r = append(j, "\xef\xbf\xbd", 3); /* U+FFFD */
				j->replaced_invalid_utf8 = true;
				i += (size_t)-n;
			}
			continue;
		}

		char esc[7];
		const char *out = esc;
		size_t n = 2;
		switch (c) {
		case '"':
			out = "\\\"";
			break;
		case '\\':
			out = "\\\\";
			break;
		case '\b':
			out = "\\b";
			break;
		case '\f':
			out = "\\f";
			break;
		case '\n':
			out = "\\n";
			break;
		case '\r':
			out = "\\r";
			break;
		case '\t':
			out = "\\t";
			break;
		default: /* the other controls, NUL and DEL */
			/* esc is a 6-byte escape, not a C string */
			memcpy(esc, "\\u00", 4); // NOLINT(bugprone-not-null-terminated-result)
			esc[4] = hex[c >> 4];
			esc[5] = hex[c & 0xf];
			n = 6;
			break;
		}
		r = append(j, out, n);
		i++;
	}
	if (r >= 0)
		r = append(j, "\"", 1);
	return r;
}

int nsb_json_key(struct nsb_json *j, const char *name)
{
	if (!name)
		return fail(j, -EINVAL);
	int r = begin_item(j, true);
	if (r < 0)
		return r;
	r = write_escaped(j, name, strlen(name));
	if (r < 0)
		return r;
	r = append(j, ":", 1);
	if (r < 0)
		return r;
	j->after_key = true;
	return 0;
}

int nsb_json_string_len(struct nsb_json *j, const char *s, size_t len)
{
	if (!s && len > 0)
		return fail(j, -EINVAL);
	int r = begin_item(j, false);
	if (r < 0)
		return r;
	return write_escaped(j, s ? s : "", len);
}

int nsb_json_string(struct nsb_json *j, const char *s)
{
	if (!s)
		return nsb_json_null(j);
	return nsb_json_string_len(j, s, strlen(s));
}

static int write_literal(struct nsb_json *j, const char *lit)
{
	int r = begin_item(j, false);
	if (r < 0)
		return r;
	return append_str(j, lit);
}

int nsb_json_int(struct nsb_json *j, int64_t v)
{
	char num[24];
	nsb_format(num, sizeof(num), "%" PRId64, v);
	return write_literal(j, num);
}

int nsb_json_uint(struct nsb_json *j, uint64_t v)
{
	char num[24];
	nsb_format(num, sizeof(num), "%" PRIu64, v);
	return write_literal(j, num);
}

int nsb_json_bool(struct nsb_json *j, bool v)
{
	return write_literal(j, v ? "true" : "false");
}

int nsb_json_null(struct nsb_json *j)
{
	return write_literal(j, "null");
}

static bool complete(const struct nsb_json *j)
{
	return j->depth == 0 && j->need_comma[0];
}

int nsb_json_newline(struct nsb_json *j)
{
	if (j->err)
		return j->err;
	/* No value ends in a raw '\n' (strings escape it): so it is ours. */
	if (!complete(j) || !j->buf || j->buf[j->len - 1] == '\n')
		return fail(j, -EINVAL);
	return append(j, "\n", 1);
}

int nsb_json_finish(struct nsb_json *j, char **ret, size_t *ret_len)
{
	if (j->err)
		return j->err;
	if (!complete(j))
		return fail(j, -EINVAL);
	*ret = j->buf;
	if (ret_len)
		*ret_len = j->len;
	j->buf = NULL;
	j->len = 0;
	j->cap = 0;
	return 0;
}

/* ---- a member in one call ------------------------------------------------- */

void nsb_json_put_str(struct nsb_json *j, const char *key, const char *s)
{
	nsb_json_key(j, key);
	nsb_json_string(j, s);
}

void nsb_json_put_strn(struct nsb_json *j, const char *key, const char *s, size_t size)
{
	nsb_json_key(j, key);
	nsb_json_string_len(j, s, strnlen(s, size));
}

void nsb_json_put_bool(struct nsb_json *j, const char *key, bool v)
{
	nsb_json_key(j, key);
	nsb_json_bool(j, v);
}

void nsb_json_put_int(struct nsb_json *j, const char *key, int64_t v)
{
	nsb_json_key(j, key);
	nsb_json_int(j, v);
}

void nsb_json_put_uint(struct nsb_json *j, const char *key, uint64_t v)
{
	nsb_json_key(j, key);
	nsb_json_uint(j, v);
}

void nsb_json_put_opt_int(struct nsb_json *j, const char *key, int64_t v)
{
	nsb_json_key(j, key);
	if (v < 0)
		nsb_json_null(j);
	else
		nsb_json_int(j, v);
}
