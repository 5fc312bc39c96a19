// SPDX-License-Identifier: GPL-2.0-or-later
/* The strict JSON reader (json_parse.h).  Pure: no syscalls but malloc. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/fmt.h"
#include "base/json_parse.h"
#include "base/macro.h"

/* ---- the parser ------------------------------------------------------------ */

struct parser {
	struct nsb_jdoc *d;
	const unsigned char *s;
	size_t len, pos;
	uint32_t line;
	int depth;
	struct nsb_jerror *err;
};

/* Columns count characters: every byte that does not continue a UTF-8 sequence. */
static unsigned column_at(const char *buf, size_t off)
{
	unsigned col = 1;
	size_t i = off;

	while (i > 0 && buf[i - 1] != '\n')
		i--;
	for (; i < off; i++)
		if (((unsigned char)buf[i] & 0xc0) != 0x80)
			col++;
	return col;
}

void nsb_jdoc_where(const struct nsb_jdoc *d, const struct nsb_jval *v, unsigned *ret_line,
		    unsigned *ret_column)
{
	*ret_line = v->line;
	*ret_column = d->buf && v->offset <= d->len ? column_at(d->buf, v->offset) : 0;
}

_printf_(3, 4) static int fail_at(struct parser *p, const struct nsb_jval *v, const char *fmt, ...)
{
	va_list ap;
	size_t off = p->pos < p->len ? p->pos : p->len;

	va_start(ap, fmt);
	nsb_vformat(p->err->message, sizeof(p->err->message), fmt, ap);
	va_end(ap);
	p->err->line = p->line;
	p->err->column = column_at((const char *)p->s, off);
	if (v)
		nsb_jval_path(v, p->err->path, sizeof(p->err->path));
	else
		nsb_format(p->err->path, sizeof(p->err->path), "$");
	return -EINVAL;
}

static void skip_ws(struct parser *p)
{
	while (p->pos < p->len) {
		unsigned char c = p->s[p->pos];
		if (c == '\n')
			p->line++;
		else if (c != ' ' && c != '\t' && c != '\r')
			return;
		p->pos++;
	}
}

static int unexpected(struct parser *p, const struct nsb_jval *v, const char *wanted)
{
	unsigned char c;

	if (p->pos >= p->len)
		return fail_at(p, v, "unexpected end of document: %s expected", wanted);
	c = p->s[p->pos];
	if (c > 0x20 && c < 0x7f)
		return fail_at(p, v, "unexpected '%c': %s expected", c, wanted);
	return fail_at(p, v, "unexpected byte 0x%02x: %s expected", c, wanted);
}

/* A well-formed UTF-8 sequence at s[0..avail): its length, or 0. */
static size_t utf8_seq(const unsigned char *s, size_t avail)
{
	unsigned c = s[0];
	size_t k;
	uint32_t cp, min;

	if (c < 0x80)
		return 1;
	if ((c & 0xe0) == 0xc0)
		k = 1, cp = c & 0x1f, min = 0x80;
	else if ((c & 0xf0) == 0xe0)
		k = 2, cp = c & 0x0f, min = 0x800;
	else if ((c & 0xf8) == 0xf0)
		k = 3, cp = c & 0x07, min = 0x10000;
	else
		return 0;
	if (avail <= k)
		return 0;
	for (size_t j = 1; j <= k; j++) {
		if ((s[j] & 0xc0) != 0x80)
			return 0;
		cp = (cp << 6) | (s[j] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return k + 1;
}

static int hex4(const unsigned char *s, uint32_t *ret)
{
	uint32_t v = 0;

	for (int i = 0; i < 4; i++) {
		unsigned c = s[i];
		if (c >= '0' && c <= '9')
			v = v * 16 + (c - '0');
		else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f')
			v = v * 16 + ((c | 0x20) - 'a' + 10);
		else
			return -EINVAL;
	}
	*ret = v;
	return 0;
}

static size_t put_utf8(char *out, uint32_t cp)
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* A \u escape at p->pos (after the backslash and 'u'), with its low half when
 * it is a high surrogate.  Lone surrogates are refused: they are not text. */
static int unicode_escape(struct parser *p, const struct nsb_jval *v, uint32_t *ret)
{
	uint32_t hi, lo;

	if (p->len - p->pos < 4 || hex4(p->s + p->pos, &hi) < 0)
		return fail_at(p, v, "invalid \\u escape: four hex digits expected");
	p->pos += 4;
	if (hi >= 0xdc00 && hi <= 0xdfff)
		return fail_at(p, v, "invalid \\u escape: lone low surrogate");
	if (hi < 0xd800 || hi > 0xdbff) {
		*ret = hi;
		return 0;
	}
	if (p->len - p->pos < 6 || p->s[p->pos] != '\\' || p->s[p->pos + 1] != 'u' ||
	    hex4(p->s + p->pos + 2, &lo) < 0 || lo < 0xdc00 || lo > 0xdfff)
		return fail_at(p, v, "invalid \\u escape: high surrogate without its low half");
	p->pos += 6;
	*ret = 0x10000 + ((hi - 0xd800) << 10) + (lo - 0xdc00);
	return 0;
}

/* The decoding of one escape after the backslash; out gets at most 4 bytes. */
static int escape(struct parser *p, const struct nsb_jval *v, char *out, size_t *o)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;
	uint32_t cp = 0;
	int r;

	if (p->pos >= p->len)
		return unexpected(p, v, "an escape");
	if (p->s[p->pos] == 'u') {
		p->pos++;
		r = unicode_escape(p, v, &cp);
		if (r < 0)
			return r;
		*o += put_utf8(out + *o, cp);
		return 0;
	}
	k = p->s[p->pos] ? strchr(from, p->s[p->pos]) : NULL;
	if (!k)
		return fail_at(p, v, "invalid escape '\\%c'",
			       p->s[p->pos] > 0x20 && p->s[p->pos] < 0x7f ? p->s[p->pos] : '?');
	out[(*o)++] = to[k - from];
	p->pos++;
	return 0;
}

/*
 * A string at p->pos (on the opening quote): decoded into the arena.  The
 * decoding is never longer than the text (an escape of 2 or 6 bytes yields
 * at most 1 or 3, a pair of 12 yields 4), so the raw length bounds it.
 */
static int parse_string(struct parser *p, const struct nsb_jval *v, char **ret, size_t *ret_len)
{
	size_t end = ++p->pos, o = 0;
	char *out;
	int r;

	while (end < p->len && p->s[end] != '"')
		end += p->s[end] == '\\' ? 2 : 1;
	if (end >= p->len) {
		p->pos = p->len;
		return fail_at(p, v, "unterminated string");
	}
	out = nsb_jdoc_alloc(p->d, end - p->pos + 1);
	if (!out)
		return -ENOMEM;
	while (p->pos < end) {
		unsigned char c = p->s[p->pos];
		size_t k;

		if (c == '\\') {
			p->pos++;
			r = escape(p, v, out, &o);
			if (r < 0)
				return r;
			continue;
		}
		if (c < 0x20)
			return fail_at(p, v, "control character 0x%02x in a string (escape it)", c);
		k = utf8_seq(p->s + p->pos, end - p->pos);
		if (k == 0)
			return fail_at(p, v, "invalid UTF-8 in a string");
		memcpy(out + o, p->s + p->pos, k);
		o += k;
		p->pos += k;
	}
	p->pos = end + 1;
	out[o] = '\0';
	*ret = out;
	*ret_len = o;
	return 0;
}

static size_t digits(const struct parser *p, size_t i)
{
	size_t start = i;

	while (i < p->len && p->s[i] >= '0' && p->s[i] <= '9')
		i++;
	return i - start;
}

/* -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?, kept as text. */
static int parse_number(struct parser *p, struct nsb_jval *v)
{
	size_t i = p->pos, n;
	char *text;

	if (i < p->len && p->s[i] == '-')
		i++;
	n = digits(p, i);
	if (n == 0 || (n > 1 && p->s[i] == '0')) {
		p->pos = i;
		return fail_at(p, v, n ? "leading zero in a number" : "invalid number");
	}
	i += n;
	if (i < p->len && p->s[i] == '.') {
		n = digits(p, ++i);
		if (n == 0) {
			p->pos = i;
			return fail_at(p, v, "invalid number: digits expected after '.'");
		}
		i += n;
	}
	if (i < p->len && (p->s[i] == 'e' || p->s[i] == 'E')) {
		i++;
		if (i < p->len && (p->s[i] == '+' || p->s[i] == '-'))
			i++;
		n = digits(p, i);
		if (n == 0) {
			p->pos = i;
			return fail_at(p, v, "invalid number: digits expected in the exponent");
		}
		i += n;
	}
	text = nsb_jdoc_alloc(p->d, i - p->pos + 1);
	if (!text)
		return -ENOMEM;
	memcpy(text, p->s + p->pos, i - p->pos);
	v->type = NSB_JNUMBER;
	v->str = text;
	v->len = i - p->pos;
	p->pos = i;
	return 0;
}

static int literal(struct parser *p, struct nsb_jval *v, const char *word, enum nsb_jtype t, bool b)
{
	size_t n = strlen(word);

	if (p->len - p->pos < n || memcmp(p->s + p->pos, word, n) != 0)
		return unexpected(p, v, "a value");
	p->pos += n;
	v->type = t;
	v->boolean = b;
	return 0;
}

static int parse_value(struct parser *p, struct nsb_jval *v);

static struct nsb_jval *new_child(struct parser *p, struct nsb_jval *parent)
{
	struct nsb_jval *c = nsb_jdoc_alloc(p->d, sizeof(*c));

	if (!c)
		return NULL;
	c->parent = parent;
	c->index = parent->n;
	if (parent->last)
		parent->last->next = c;
	else
		parent->first = c;
	parent->last = c;
	parent->n++;
	return c;
}

static int key_cmp(const void *a, const void *b)
{
	const struct nsb_jval *x = *(const struct nsb_jval *const *)a;
	const struct nsb_jval *y = *(const struct nsb_jval *const *)b;
	size_t n = x->key_len < y->key_len ? x->key_len : y->key_len;
	int c = memcmp(x->key, y->key, n);

	if (c)
		return c;
	if (x->key_len != y->key_len)
		return x->key_len < y->key_len ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

/*
 * Every name once.  Sorted (n log n, where pairwise comparison would let a
 * 1 MiB object of short names cost seconds); of the repeated names, the
 * earliest second occurrence in the document is the one reported.
 */
static int check_duplicates(struct parser *p, struct nsb_jval *obj)
{
	const struct nsb_jval *dup = NULL;
	struct nsb_jval **v;
	size_t i = 0;

	if (obj->n < 2)
		return 0;
	v = malloc(obj->n * sizeof(struct nsb_jval *));
	if (!v)
		return -ENOMEM;
	for (struct nsb_jval *m = obj->first; m; m = m->next)
		v[i++] = m;
	qsort(v, obj->n, sizeof(struct nsb_jval *), key_cmp);
	for (i = 1; i < obj->n; i++)
		if (v[i]->key_len == v[i - 1]->key_len &&
		    memcmp(v[i]->key, v[i - 1]->key, v[i]->key_len) == 0 &&
		    (!dup || v[i]->index < dup->index))
			dup = v[i];
	free(v);
	if (!dup)
		return 0;
	p->line = dup->line;
	p->pos = dup->offset;
	return fail_at(p, dup, "duplicate member name");
}

/* Past the opening bracket of v (TYPE): true, with the closing one CLOSE
 * taken too, when the container is empty. */
static bool open_container(struct parser *p, struct nsb_jval *v, enum nsb_jtype type,
			   unsigned char close)
{
	v->type = type;
	p->pos++;
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return true;
	}
	return false;
}

/* After a member or an element: 1 past a ',', 0 past CLOSE, else the error. */
static int next_or_close(struct parser *p, struct nsb_jval *v, unsigned char close)
{
	skip_ws(p);
	if (p->pos < p->len && p->s[p->pos] == ',') {
		p->pos++;
		skip_ws(p);
		return 1;
	}
	if (p->pos < p->len && p->s[p->pos] == close) {
		p->pos++;
		return 0;
	}
	return unexpected(p, v, close == '}' ? "',' or '}'" : "',' or ']'");
}

static int parse_object(struct parser *p, struct nsb_jval *v)
{
	int r;

	if (open_container(p, v, NSB_JOBJECT, '}'))
		return 0;
	for (;;) {
		struct nsb_jval *m;
		char *key = NULL;

		if (p->pos >= p->len || p->s[p->pos] != '"')
			return unexpected(p, v, "a member name");
		m = new_child(p, v);
		if (!m)
			return -ENOMEM;
		r = parse_string(p, v, &key, &m->key_len);
		if (r < 0)
			return r;
		m->key = key;
		skip_ws(p);
		if (p->pos >= p->len || p->s[p->pos] != ':')
			return unexpected(p, m, "':'");
		p->pos++;
		skip_ws(p);
		r = parse_value(p, m);
		if (r >= 0)
			r = next_or_close(p, v, '}');
		if (r <= 0)
			return r < 0 ? r : check_duplicates(p, v);
	}
}

static int parse_array(struct parser *p, struct nsb_jval *v)
{
	int r;

	if (open_container(p, v, NSB_JARRAY, ']'))
		return 0;
	for (;;) {
		struct nsb_jval *e = new_child(p, v);

		if (!e)
			return -ENOMEM;
		r = parse_value(p, e);
		if (r >= 0)
			r = next_or_close(p, v, ']');
		if (r <= 0)
			return r;
	}
}

/* The value at p->pos (whitespace skipped) into v, whose place is set. */
static int parse_value(struct parser *p, struct nsb_jval *v)
{
	int r;

	v->offset = p->pos;
	v->line = p->line;
	if (p->pos >= p->len)
		return unexpected(p, v, "a value");
	switch (p->s[p->pos]) {
	case '{':
	case '[':
		if (p->depth >= NSB_JSON_MAX_DEPTH) {
			fail_at(p, v, "nested deeper than %d arrays and objects",
				NSB_JSON_MAX_DEPTH);
			return -E2BIG;
		}
		p->depth++;
		r = p->s[p->pos] == '{' ? parse_object(p, v) : parse_array(p, v);
		p->depth--;
		return r;
	case '"':
		v->type = NSB_JSTRING;
		return parse_string(p, v, &v->str, &v->len);
	case 't':
		return literal(p, v, "true", NSB_JBOOL, true);
	case 'f':
		return literal(p, v, "false", NSB_JBOOL, false);
	case 'n':
		return literal(p, v, "null", NSB_JNULL, false);
	default:
		if (p->s[p->pos] == '-' || (p->s[p->pos] >= '0' && p->s[p->pos] <= '9'))
			return parse_number(p, v);
		return unexpected(p, v, "a value");
	}
}

int nsb_json_parse(struct nsb_jdoc *d, const char *buf, size_t len, size_t max_len,
		   struct nsb_jerror *err)
{
	struct parser p = {
		.d = d, .s = (const unsigned char *)buf, .len = len, .line = 1, .err = err};
	struct nsb_jval *root;
	int r;

	memset(err, 0, sizeof(*err));
	d->root = NULL;
	d->buf = buf;
	d->len = len;
	if (len > max_len) {
		nsb_format(err->message, sizeof(err->message), "document larger than %zu bytes",
			   max_len);
		nsb_format(err->path, sizeof(err->path), "$");
		return -E2BIG;
	}
	if (len >= 3 && memcmp(buf, "\xef\xbb\xbf", 3) == 0)
		return fail_at(&p, NULL, "byte order mark before the document");
	root = nsb_jdoc_alloc(d, sizeof(*root));
	if (!root)
		return -ENOMEM;
	skip_ws(&p);
	if (p.pos >= len)
		return fail_at(&p, NULL, "empty document");
	r = parse_value(&p, root);
	if (r == -ENOMEM)
		nsb_format(err->message, sizeof(err->message), "out of memory");
	if (r < 0)
		return r;
	skip_ws(&p);
	if (p.pos < len)
		return fail_at(&p, NULL, "unexpected text after the document");
	d->root = root;
	return 0;
}
