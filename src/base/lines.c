// SPDX-License-Identifier: GPL-2.0-or-later
/* The bounded line reader (lines.h): pure, any process. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/lines.h"

int nsb_lines_open(struct nsb_lines *r, FILE *f, size_t max_bytes, size_t max_line)
{
	size_t len = 0;

	*r = (struct nsb_lines){.max_line = max_line};
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
	if (ferror(f))
		return errno ? -errno : -EIO;
	r->len = len;
	if (len > max_bytes) {
		/* Point at the first byte past the limit. */
		r->line = 1;
		r->col = 1;
		for (size_t i = 0; i < max_bytes; i++) {
			r->col++;
			if (r->text[i] == '\n') {
				r->line++;
				r->col = 1;
			}
		}
		return -EFBIG;
	}
	return 0;
}

int nsb_lines_next(struct nsb_lines *r, char *buf)
{
	if (r->pos >= r->len)
		return 0;
	const char *start = r->text + r->pos;
	const char *nl = memchr(start, '\n', r->len - r->pos);
	size_t n = nl ? (size_t)(nl - start) : r->len - r->pos;

	r->line++;
	r->col = 1;
	if (n > r->max_line) {
		r->col = (unsigned)r->max_line + 1;
		return -E2BIG;
	}
	const char *nul = memchr(start, '\0', n);
	if (nul) {
		r->col = (unsigned)(nul - start) + 1;
		return -EILSEQ;
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
