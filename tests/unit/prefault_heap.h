/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What test_prefault and its static-PIE helper (prefault_static_pie.c) both
 * measure of malloc's heap, by the kernel's count (mincore): whether blocks
 * come from the program break, and how many pages of a fresh block are
 * resident before anything writes them.  No Criterion here: the helper is
 * a plain static program.
 */
#pragma once

#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#define HEAP_PAGE ((uintptr_t)4096)

/* Whether a small block lies below the program break, within what malloc
 * took with sbrk: not so under AddressSanitizer or memcheck, whose malloc
 * keeps its heap elsewhere (the prefault leaves that alone). */
static inline bool heap_is_brk(void)
{
	char *p = malloc(64);
	uintptr_t top = (uintptr_t)sbrk(0), a = (uintptr_t)p;
	struct mallinfo2 mi = mallinfo2();
	bool on = p && mi.arena > 0 && mi.arena <= top && a >= top - mi.arena && a < top;

	free(p);
	return on;
}

/* Of the whole pages inside a block of @size - 4096 bytes (its first and
 * last excepted), how many are resident before the block is written;
 * *pages gets their number.  -1 when malloc or mincore fails.  After a
 * malloc_trim(0), the pages that something populated since. */
static inline int heap_block_resident(size_t size, int *pages)
{
	unsigned char vec[256];
	char *p;
	int n = 0;

	p = malloc(size - HEAP_PAGE);
	if (!p)
		return -1;
	uintptr_t lo = ((uintptr_t)p + HEAP_PAGE) & ~(HEAP_PAGE - 1);
	uintptr_t hi = ((uintptr_t)p + size - 2 * HEAP_PAGE) & ~(HEAP_PAGE - 1);
	*pages = (int)((hi - lo) / HEAP_PAGE);
	if (*pages <= 0 || (size_t)*pages > sizeof(vec) || mincore((void *)lo, hi - lo, vec) != 0) {
		free(p);
		return -1;
	}
	for (int i = 0; i < *pages; i++)
		n += vec[i] & 1;
	free(p);
	return n;
}
