/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A small strict JSON validator (RFC 8259) for tests and fuzzers.  Header-only,
 * no allocation, bounded recursion.
 *
 * Accepts exactly one value, optionally surrounded by insignificant whitespace
 * before it, and followed by nothing but at most one final '\n'.  Stricter
 * than the RFC where the RFC leaves room: raw bytes must be well-formed UTF-8
 * (no overlongs, surrogates or code points above U+10FFFF), a \u escape of a
 * surrogate must be a properly ordered high/low pair, and nesting deeper than
 * JSON_CHECK_MAX_DEPTH is rejected.
 *
 *   json_check(s, len)              true when s[0..len) is valid
 *   json_check_at(s, len, &off)     same, and on failure the offset of the
 *                                   first byte that could not be accepted
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <string.h>

#define JSON_CHECK_MAX_DEPTH 256

struct json_check_state {
	const unsigned char *s;
	size_t len, pos;
	int depth;
};

static inline bool json_check_value(struct json_check_state *st);

static inline int json_check_peek(const struct json_check_state *st)
{
	return st->pos < st->len ? st->s[st->pos] : -1;
}

static inline void json_check_ws(struct json_check_state *st)
{
	while (st->pos < st->len) {
		unsigned char c = st->s[st->pos];
		if (c != ' ' && c != '\t' && c != '\n' && c != '\r')
			break;
		st->pos++;
	}
}

static inline bool json_check_lit(struct json_check_state *st, const char *lit)
{
	size_t n = strlen(lit);
	if (st->len - st->pos < n || memcmp(st->s + st->pos, lit, n) != 0)
		return false;
	st->pos += n;
	return true;
}

static inline bool json_check_digits(struct json_check_state *st)
{
	size_t start = st->pos;
	while (st->pos < st->len && st->s[st->pos] >= '0' && st->s[st->pos] <= '9')
		st->pos++;
	return st->pos > start;
}

/* number = [ minus ] int [ frac ] [ exp ] */
static inline bool json_check_number(struct json_check_state *st)
{
	if (json_check_peek(st) == '-')
		st->pos++;
	int c = json_check_peek(st);
	if (c == '0')
		st->pos++; /* no leading zeros */
	else if (c < '1' || c > '9' || !json_check_digits(st))
		return false;
	if (json_check_peek(st) == '.') {
		st->pos++;
		if (!json_check_digits(st))
			return false;
	}
	c = json_check_peek(st);
	if (c == 'e' || c == 'E') {
		st->pos++;
		c = json_check_peek(st);
		if (c == '+' || c == '-')
			st->pos++;
		if (!json_check_digits(st))
			return false;
	}
	return true;
}

/* Four hex digits; value in *ret. */
static inline bool json_check_hex4(struct json_check_state *st, unsigned *ret)
{
	unsigned v = 0;
	if (st->len - st->pos < 4)
		return false;
	for (int i = 0; i < 4; i++) {
		unsigned char c = st->s[st->pos];
		unsigned d;
		if (c >= '0' && c <= '9')
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else if (c >= 'A' && c <= 'F')
			d = c - 'A' + 10;
		else
			return false;
		v = v * 16 + d;
		st->pos++;
	}
	*ret = v;
	return true;
}

/* One well-formed UTF-8 sequence of two to four bytes (Unicode Table 3-7). */
static inline bool json_check_utf8(struct json_check_state *st)
{
	unsigned char b = st->s[st->pos];
	unsigned char lo = 0x80, hi = 0xbf;
	int n;

	if (b >= 0xc2 && b <= 0xdf) {
		n = 2;
	} else if (b >= 0xe0 && b <= 0xef) {
		n = 3;
		lo = b == 0xe0 ? 0xa0 : 0x80;
		hi = b == 0xed ? 0x9f : 0xbf;
	} else if (b >= 0xf0 && b <= 0xf4) {
		n = 4;
		lo = b == 0xf0 ? 0x90 : 0x80;
		hi = b == 0xf4 ? 0x8f : 0xbf;
	} else {
		return false;
	}
	if (st->len - st->pos < (size_t)n)
		return false;
	for (int i = 1; i < n; i++) {
		unsigned char c = st->s[st->pos + i];
		if (i == 1 ? (c < lo || c > hi) : (c < 0x80 || c > 0xbf))
			return false;
	}
	st->pos += n;
	return true;
}

static inline bool json_check_string(struct json_check_state *st)
{
	if (json_check_peek(st) != '"')
		return false;
	st->pos++;
	for (;;) {
		int c = json_check_peek(st);
		if (c < 0 || c < 0x20)
			return false; /* unterminated, or a raw control character */
		if (c == '"') {
			st->pos++;
			return true;
		}
		if (c >= 0x80) {
			if (!json_check_utf8(st))
				return false;
			continue;
		}
		st->pos++;
		if (c != '\\')
			continue;

		c = json_check_peek(st);
		if (c <= 0 || !strchr("\"\\/bfnrtu", c)) /* c == 0 would match the terminator */
			return false;
		st->pos++;
		if (c != 'u')
			continue;
		unsigned u;
		if (!json_check_hex4(st, &u))
			return false;
		if (u >= 0xdc00 && u <= 0xdfff)
			return false; /* low surrogate without a high one */
		if (u >= 0xd800 && u <= 0xdbff) {
			if (!json_check_lit(st, "\\u") || !json_check_hex4(st, &u) || u < 0xdc00 ||
			    u > 0xdfff)
				return false;
		}
	}
}

static inline bool json_check_object(struct json_check_state *st)
{
	st->pos++; /* '{' */
	json_check_ws(st);
	if (json_check_peek(st) == '}') {
		st->pos++;
		return true;
	}
	for (;;) {
		json_check_ws(st);
		if (!json_check_string(st))
			return false;
		json_check_ws(st);
		if (json_check_peek(st) != ':')
			return false;
		st->pos++;
		if (!json_check_value(st))
			return false;
		int c = json_check_peek(st);
		st->pos++;
		if (c == '}')
			return true;
		if (c != ',') {
			st->pos--;
			return false;
		}
	}
}

static inline bool json_check_array(struct json_check_state *st)
{
	st->pos++; /* '[' */
	json_check_ws(st);
	if (json_check_peek(st) == ']') {
		st->pos++;
		return true;
	}
	for (;;) {
		if (!json_check_value(st))
			return false;
		int c = json_check_peek(st);
		st->pos++;
		if (c == ']')
			return true;
		if (c != ',') {
			st->pos--;
			return false;
		}
	}
}

/* One value, without the whitespace around it. */
static inline bool json_check_bare(struct json_check_state *st)
{
	bool ok;

	switch (json_check_peek(st)) {
	case '{':
	case '[':
		if (st->depth >= JSON_CHECK_MAX_DEPTH)
			return false;
		st->depth++;
		ok = json_check_peek(st) == '{' ? json_check_object(st) : json_check_array(st);
		st->depth--;
		return ok;
	case '"':
		return json_check_string(st);
	case 't':
		return json_check_lit(st, "true");
	case 'f':
		return json_check_lit(st, "false");
	case 'n':
		return json_check_lit(st, "null");
	default:
		return json_check_number(st);
	}
}

/* ws value ws */
static inline bool json_check_value(struct json_check_state *st)
{
	json_check_ws(st);
	if (!json_check_bare(st))
		return false;
	json_check_ws(st);
	return true;
}

static inline bool json_check_at(const char *s, size_t len, size_t *ret_off)
{
	struct json_check_state st = {.s = (const unsigned char *)s, .len = len};

	/* Leading whitespace is allowed; after the value, one final newline only. */
	json_check_ws(&st);
	bool ok = json_check_bare(&st);
	if (ok) {
		if (json_check_peek(&st) == '\n')
			st.pos++;
		ok = st.pos == len;
	}
	if (!ok && ret_off)
		*ret_off = st.pos;
	return ok;
}

static inline bool json_check(const char *s, size_t len)
{
	return json_check_at(s, len, NULL);
}
