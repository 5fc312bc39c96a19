// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * test_prefault's helper, linked as a static PIE as nsbox is by default
 * (STATIC=all): there the kernel puts the program break apart from the
 * executable, low, while the executable lies high, so "above the
 * executable's end" is no test of a heap block.  Prints
 *
 *   BREAK_BELOW_END BEFORE AFTER PAGES
 *
 * 1 when the break lies below the executable's end (else 0); how many of
 * PAGES pages of a fresh heap block are resident before anything writes
 * them, without nsb_prefault_main and then after it.
 */
#include <stdint.h>
#include <stdio.h>
#include <unistd.h>

#include "base/prefault.h"
#include "prefault_heap.h"

extern char end[];

int main(void)
{
	size_t size = NSB_PREFAULT_MAIN_HEAP;
	int pages = 0, before, after;

	if (!heap_is_brk()) {
		fputs("prefault_static_pie: malloc's heap is not the program break's\n", stderr);
		return 1;
	}
	/* Every free page of the heap given back before each: what malloc
	 * hands out next is resident only if something populated it. */
	malloc_trim(0);
	before = heap_block_resident(size, &pages);
	malloc_trim(0);
	nsb_prefault_main(0, size);
	after = heap_block_resident(size, &pages);
	if (before < 0 || after < 0) {
		perror("prefault_static_pie: mincore");
		return 1;
	}
	printf("%d %d %d %d\n", (uintptr_t)sbrk(0) < (uintptr_t)end, before, after, pages);
	return 0;
}
