/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Faulting in ahead, in one system call, pages a launch is about to write
 * anyway: MADV_POPULATE_WRITE (Linux 5.14) over a range instead of one
 * page fault per page.  On a guest whose faults cost 10-15 µs each (the
 * exception and the hypervisor's exits around it) a populated page costs
 * about half of that, and a launch of nsbox -- /bin/true writes some 36
 * pages of stack and heap for the first time (or the first time since the
 * clone) where the sizes below were measured.
 *
 * Best effort and never more than the sizes say: an older kernel (EINVAL),
 * or a range that is not all mapped (ENOMEM: the stack's mapping is
 * smaller under a low RLIMIT_STACK), only leaves the pages to be faulted as
 * before.  The trim (trim.h) gives the stack's back later, as before.
 */
#pragma once

#include <stddef.h>

/* The supervisor's stack below main's frame, deepest in the gate (the
 * listing of /usr/bin, the path judge: 56 KiB), and the bytes of heap
 * malloc hands out before the clone (the plan, the gate's buffers: in the
 * static build 89 KiB from the block's first page in a default launch, as
 * nsbox-test and as root). */
#define NSB_PREFAULT_MAIN_STACK (60u << 10)
#define NSB_PREFAULT_MAIN_HEAP	(92u << 10)
/* init, right after the clone, writes the pages from 16 KiB below the
 * clone's frame up to main's: copied at once instead of one
 * copy-on-write fault each (6 of them). */
#define NSB_PREFAULT_CHILD_STACK (16u << 10)

/*
 * The supervisor's main, first: @stack bytes below the caller's frame and
 * @heap bytes of malloc's heap (a block that size allocated, populated and
 * freed: malloc keeps the pages for its next allocations; nothing when the
 * block did not come from the heap).  Remembers the page of the caller's
 * frame for nsb_prefault_child.
 */
void nsb_prefault_main(size_t stack, size_t heap);

/*
 * A child that shares the parent's pages copy-on-write (init, after the
 * clone), first: its own copies now of the stack from @depth below the
 * caller's frame up to the page of the frame nsb_prefault_main was called
 * from.  Nothing when it was not.
 */
void nsb_prefault_child(size_t depth);

/* The range [@lo, @hi), widened to whole pages, populated for writing.
 * Returns 0 or -errno (EINVAL: no MADV_POPULATE_WRITE; ENOMEM: a page of
 * the range is not mapped). */
int nsb_prefault_range(const void *lo, const void *hi);
