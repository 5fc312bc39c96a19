// SPDX-License-Identifier: GPL-2.0-or-later
/* The bounded line reader (lines.h): pure, any process. */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/lines.h"

/* Where offset at of the text is, as line:col (1-based). */
static void locate(struct nsb_lines *r, size_t at)
{
	r->line = 1;
	r->col = 1;
	for (size_t i = 0; i < at; i++) {
		r->col++;
		if (r->text[i] == '\n') {
			r->line++;
			r->col = 1;
		}
	}
}

int nsb_lines_open_with(struct nsb_lines *r, FILE *f, size_t max_bytes, size_t max_line,
			unsigned flags)
{
	size_t len = 0;

	*r = (struct nsb_lines){.max_line = max_line, .limit = SIZE_MAX, .flags = flags};
	/* One byte more than allowed tells "exactly at the limit" from "over". */
	r->text = malloc(max_bytes + 1);
	if (!r->text)
		return -ENOMEM;
	while (len <= max_bytes) {
		size_t got = fread(r->text + len, 1, max_bytes + 1 - len, f);
		if (got == 0)
			break;
		len += got;
	}
	if (ferror(f)) {
		if (!(flags & NSB_LINES_IN_ORDER))
			return errno ? -errno : -EIO;
		r->read_err = errno ? -errno : -EIO;
	}
	/* The missing newline fits: the buffer has one byte more than max_bytes. */
	if ((flags & NSB_LINES_COUNT_NEWLINE) && !r->read_err && len > 0 && len <= max_bytes &&
	    r->text[len - 1] != '\n')
		r->text[len++] = '\n';
	r->len = len;
	if (len > max_bytes) {
		r->limit = max_bytes;
		if (flags & NSB_LINES_IN_ORDER)
			return 0;
		/* Point at the first byte past the limit. */
		locate(r, max_bytes);
		return -EFBIG;
	}
	return 0;
}

int nsb_lines_open(struct nsb_lines *r, FILE *f, size_t max_bytes, size_t max_line)
{
	return nsb_lines_open_with(r, f, max_bytes, max_line, 0);
}

/*
 * The first fault of the line at start (n bytes before its newline or the
 * end of the text) in the order of its bytes; at the same byte the size
 * limit comes before a NUL byte, and a NUL byte before the length.
 */
static int first_fault(struct nsb_lines *r, const char *start, size_t n)
{
	size_t over = r->limit - r->pos; /* the line's first byte past the limit */
	size_t scan = n < r->max_line + 1 ? n : r->max_line + 1;
	const char *nul = memchr(start, '\0', scan < over ? scan : over);

	if (nul) {
		r->col = (unsigned)(nul - start) + 1;
		return -EILSEQ;
	}
	if (over <= n && over <= r->max_line) {
		r->col = (unsigned)over + 1;
		return -EFBIG;
	}
	if (n > r->max_line) {
		r->col = (unsigned)r->max_line + 1;
		return -E2BIG;
	}
	if (over <= n) {
		r->col = (unsigned)over + 1;
		return -EFBIG;
	}
	/* A line cut short by a read error is not a line. */
	if (r->read_err && r->pos + n == r->len)
		return r->read_err;
	return 0;
}

int nsb_lines_next(struct nsb_lines *r, char *buf)
{
	if (r->pos >= r->len)
		return r->read_err;
	const char *start = r->text + r->pos;
	const char *nl = memchr(start, '\n', r->len - r->pos);
	size_t n = nl ? (size_t)(nl - start) : r->len - r->pos;

	r->line++;
	r->col = 1;
	if (r->flags & NSB_LINES_IN_ORDER) {
		int fault = first_fault(r, start, n);
		if (fault < 0)
			return fault;
	} else if (n > r->max_line) {
		r->col = (unsigned)r->max_line + 1;
		return -E2BIG;
	} else {
		const char *nul = memchr(start, '\0', n);
		if (nul) {
			r->col = (unsigned)(nul - start) + 1;
			return -EILSEQ;
		}
	}
	memcpy(buf, start, n);
	buf[n] = '\0';
	r->pos += n + 1;
	return 1;
}

void nsb_lines_free(struct nsb_lines *r)
{
	free(r->text);
	r->text = NULL;
}
