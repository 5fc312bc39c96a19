// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * lines.c: the bounded line reader, by default (the profile's way: the file
 * is refused whole) and with the options the gate policy reads with (each
 * fault where it stands, the missing last newline counted).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "base/lines.h"

#define MAX_LINE 8

struct got {
	int r;		/* what ended the reading: 0, or the error */
	unsigned lines; /* lines returned before it */
	unsigned line, col;
};

/* Read len bytes of text (may hold NULs) to the end or the first error. */
static struct got read_all(const char *text, size_t len, size_t max_bytes, unsigned flags)
{
	char buf[MAX_LINE + 1];
	struct nsb_lines lr;
	struct got g = {0};
	FILE *f = fmemopen((void *)(uintptr_t)text, len ? len : 1, "r");

	cr_assert(f != NULL);
	if (len == 0)
		(void)getc(f); /* fmemopen cannot open an empty buffer: consume the one byte */
	g.r = nsb_lines_open_with(&lr, f, max_bytes, MAX_LINE, flags);
	if (g.r == 0)
		while ((g.r = nsb_lines_next(&lr, buf)) > 0)
			g.lines++;
	g.line = lr.line;
	g.col = lr.col;
	nsb_lines_free(&lr);
	fclose(f);
	return g;
}

#define IN_ORDER (NSB_LINES_IN_ORDER | NSB_LINES_COUNT_NEWLINE)

Test(lines, by_default_an_oversize_file_is_refused_before_any_line)
{
	struct got g = read_all("ok\nthe end\n", 11, 10, 0);

	cr_expect(eq(int, g.r, -EFBIG));
	cr_expect(eq(u32, g.lines, 0));
	cr_expect(eq(u32, g.line, 2));
	cr_expect(eq(u32, g.col, 8));
}

Test(lines, in_order_the_lines_before_the_limit_come_first)
{
	struct got g = read_all("ok\nthe end\n", 11, 10, IN_ORDER);

	cr_expect(eq(int, g.r, -EFBIG));
	cr_expect(eq(u32, g.lines, 1));
	cr_expect(eq(u32, g.line, 2));
	cr_expect(eq(u32, g.col, 8));
}

Test(lines, by_default_too_long_wins_over_an_earlier_nul)
{
	struct got g = read_all("a\0cdefghijk\n", 12, 100, 0);

	cr_expect(eq(int, g.r, -E2BIG));
	cr_expect(eq(u32, g.col, MAX_LINE + 1));
}

Test(lines, in_order_the_first_offending_byte_wins)
{
	struct got g = read_all("a\0cdefghijk\n", 12, 100, IN_ORDER);

	cr_expect(eq(int, g.r, -EILSEQ));
	cr_expect(eq(u32, g.col, 2));
	/* A NUL as the (max_line + 1)th byte is still the NUL... */
	g = read_all("abcdefgh\0jk\n", 12, 100, IN_ORDER);
	cr_expect(eq(int, g.r, -EILSEQ));
	cr_expect(eq(u32, g.col, MAX_LINE + 1));
	/* ...and one after it comes too late. */
	g = read_all("abcdefghi\0k\n", 12, 100, IN_ORDER);
	cr_expect(eq(int, g.r, -E2BIG));
	cr_expect(eq(u32, g.col, MAX_LINE + 1));
}

Test(lines, the_missing_last_newline_counts_only_when_asked)
{
	struct got g = read_all("ok\nend", 6, 6, 0);

	cr_expect(eq(int, g.r, 0));
	cr_expect(eq(u32, g.lines, 2));
	g = read_all("ok\nend", 6, 6, IN_ORDER);
	cr_expect(eq(int, g.r, -EFBIG));
	cr_expect(eq(u32, g.lines, 1));
	cr_expect(eq(u32, g.line, 2));
	cr_expect(eq(u32, g.col, 4));
	g = read_all("ok\nend", 6, 7, IN_ORDER);
	cr_expect(eq(int, g.r, 0));
	cr_expect(eq(u32, g.lines, 2));
}

Test(lines, an_empty_file_has_no_lines)
{
	struct got g = read_all("", 0, 10, IN_ORDER);

	cr_expect(eq(int, g.r, 0));
	cr_expect(eq(u32, g.lines, 0));
}
