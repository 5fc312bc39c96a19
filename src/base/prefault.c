// SPDX-License-Identifier: GPL-2.0-or-later
/* prefault: write-populate the pages a launch is about to write (prefault.h). */
#include <errno.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/prefault.h"
#include "base/macro.h"

/* getpagesize: sysconf is a 64 KiB window of libc's text of its own
 * (as in sandbox/payload.c). */
#define PAGE ((uintptr_t)getpagesize())

/* The end of the page nsb_prefault_main's caller has its frame in. */
static uintptr_t main_top;

int nsb_prefault_range(const void *lo, const void *hi)
{
	uintptr_t a = (uintptr_t)lo & ~(PAGE - 1);
	uintptr_t b = ((uintptr_t)hi + PAGE - 1) & ~(PAGE - 1);

	if (b <= a)
		return 0;
	if (madvise((void *)a, b - a, MADV_POPULATE_WRITE) < 0)
		return nsb_negerrno();
	return 0;
}

/* This function's frame: its caller's lies above it.  The functions below
 * are never inlined, so that it is theirs and not their caller's. */
#define CALLER_FRAME() ((uintptr_t)__builtin_frame_address(0))

/*
 * Whether [@p, @p + @n) lies on malloc's heap: between the program break
 * and the bytes below it that malloc took with sbrk (mallinfo2's arena).
 * Not "above the executable's end": a static PIE's break is placed apart
 * from the executable (the kernel puts it low, the executable high), and a
 * block of the mmap threshold's own mapping may lie on either side.
 */
static bool on_brk_heap(const void *p, size_t n)
{
	uintptr_t top = (uintptr_t)sbrk(0);
	struct mallinfo2 mi = mallinfo2();
	uintptr_t a = (uintptr_t)p;

	return p && mi.arena > 0 && mi.arena <= top && a >= top - mi.arena && a <= top &&
	       n <= top - a;
}

__attribute__((noinline)) void nsb_prefault_main(size_t stack, size_t heap)
{
	uintptr_t sp = CALLER_FRAME();
	char *block;

	/* The caller's frame (main's is small: its state is static) lies
	 * above this one, on this page or the next. */
	main_top = (sp & ~(PAGE - 1)) + 2 * PAGE;
	/* From @stack below this frame up to it: the caller's frame is on
	 * the same page or above, and was written when it was entered. */
	(void)nsb_prefault_range((const void *)(sp - stack), (const void *)sp);
	if (heap == 0)
		return;
	/* Only a block on malloc's heap (on_brk_heap): above
	 * M_MMAP_THRESHOLD (a tunable) it is a mapping of its own, which
	 * free() would unmap with its pages, and a sanitizer's malloc has a
	 * heap elsewhere. */
	block = malloc(heap);
	if (on_brk_heap(block, heap))
		(void)nsb_prefault_range(block, block + heap);
	free(block);
}

__attribute__((noinline)) void nsb_prefault_child(size_t depth)
{
	uintptr_t sp = CALLER_FRAME();

	if (main_top <= sp)
		return;
	/* Apart: the kernel populates a range from its start and stops at
	 * the first page not mapped, and the stack's mapping may end less
	 * than @depth below (it grows on a fault, never on a populate). */
	(void)nsb_prefault_range((const void *)sp, (const void *)main_top);
	(void)nsb_prefault_range((const void *)(sp - depth), (const void *)sp);
}
