/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A bounded line reader for the configuration files nsbox parses (seccomp
 * profiles, and gate policies with the options below).  Pure: it reads the
 * FILE * it is handed.  The whole file is read first, so that a file over the
 * limit is refused before any of it is interpreted; then lines come one at a
 * time, each checked for length and for NUL bytes.  Positions are 1-based
 * line:column of a byte, for "file:line:col: message" diagnostics.
 *
 *	struct nsb_lines lr;
 *	r = nsb_lines_open(&lr, f, MAX_BYTES, MAX_LINE);  // -EFBIG: at lr.line:lr.col
 *	while ((r = nsb_lines_next(&lr, buf)) > 0)        // buf: MAX_LINE + 1 bytes
 *		parse(lr.line, buf);
 *	nsb_lines_free(&lr);
 */
#pragma once

#include <stddef.h>
#include <stdio.h>

struct nsb_lines {
	char *text; /* owned: the whole file */
	size_t len, pos, max_line;
	size_t limit; /* NSB_LINES_IN_ORDER: offset of the first byte past max_bytes */
	int read_err; /* NSB_LINES_IN_ORDER: the read error after text[len - 1], or 0 */
	unsigned flags;
	unsigned line; /* the line nsb_lines_next() returned, or where an error is */
	unsigned col;  /* where an error is */
};

/*
 * Options of nsb_lines_open_with() (the gate policy reads with both, as it
 * did byte by byte before this reader existed):
 * - NSB_LINES_IN_ORDER: each fault is reported where it stands in the file,
 *   after the lines before it: the open does not fail for a file over
 *   max_bytes or a read error, nsb_lines_next() returns -EFBIG (at the
 *   first byte past the limit) or the read error when it gets there; and in
 *   a line the first offending byte wins (a NUL byte before the
 *   (max_line + 1)th byte is -EILSEQ, not -E2BIG; past the limit, -EFBIG).
 * - NSB_LINES_COUNT_NEWLINE: a last line without its newline is read as if
 *   it had one, and that newline counts against max_bytes.
 */
#define NSB_LINES_IN_ORDER	(1u << 0)
#define NSB_LINES_COUNT_NEWLINE (1u << 1)

/*
 * Read all of f.  0, or -ENOMEM, -errno of a read error (-EIO when errno does
 * not say), or -EFBIG when f holds more than max_bytes: then line:col is the
 * first byte past the limit.  r is ready for nsb_lines_free() either way.
 */
int nsb_lines_open(struct nsb_lines *r, FILE *f, size_t max_bytes, size_t max_line);

/* nsb_lines_open with the NSB_LINES_* options in flags. */
int nsb_lines_open_with(struct nsb_lines *r, FILE *f, size_t max_bytes, size_t max_line,
			unsigned flags);

/*
 * The next line, without its newline, NUL-terminated in buf (max_line + 1
 * bytes); a last line without a newline counts, nothing after a final
 * newline does.  1 for a line (numbered r->line), 0 at the end, -E2BIG for a
 * line longer than max_line (col is max_line + 1), -EILSEQ for a NUL byte
 * (col is the byte's).  A too long line is reported even when it also holds
 * a NUL byte.
 */
int nsb_lines_next(struct nsb_lines *r, char *buf);

/* Free the text; r may be opened again. */
void nsb_lines_free(struct nsb_lines *r);
