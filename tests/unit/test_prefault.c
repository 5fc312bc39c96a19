// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * prefault.c, checked against the kernel: the pages it is asked for are
 * resident before anything writes them (mincore), and a child's stack
 * pages are its own copies before it writes them (/proc/self/pagemap's
 * "exclusively mapped" bit), where without the call they are not.
 */
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "base/prefault.h"

#define PAGE ((uintptr_t)4096)

/* How many of the pages of [lo, hi) are resident, by the kernel's count. */
static size_t resident(uintptr_t lo, uintptr_t hi)
{
	unsigned char vec[256];
	size_t n = 0;

	lo &= ~(PAGE - 1);
	cr_assert(hi > lo && (hi - lo) / PAGE <= sizeof(vec));
	cr_assert(mincore((void *)lo, hi - lo, vec) == 0, "mincore: %s", strerror(errno));
	for (size_t i = 0; i < (hi - lo + PAGE - 1) / PAGE; i++)
		n += vec[i] & 1;
	return n;
}

/* ---- the heap ----------------------------------------------------- */

extern char end[];

/* Whether malloc hands out blocks from the program break's heap, which
 * nsb_prefault_main populates: not under AddressSanitizer or memcheck,
 * whose malloc keeps its heap elsewhere (the prefault leaves it alone). */
static bool brk_heap(void)
{
	char *p = malloc(64);
	bool on = p && (uintptr_t)p >= (uintptr_t)end && (uintptr_t)p < (uintptr_t)sbrk(0);

	free(p);
	return on;
}

Test(prefault, malloc_hands_out_heap_pages_already_resident)
{
	size_t size = NSB_PREFAULT_MAIN_HEAP;
	char *p;

	if (!brk_heap())
		cr_skip_test("malloc's heap is not the program break's here");

	/* Every free page of the heap given back: what malloc hands out
	 * next is resident only if something populated it. */
	malloc_trim(0);
	p = malloc(size - 4096);
	cr_assert(p != NULL);
	size_t before = resident((uintptr_t)p + PAGE, (uintptr_t)p + size - 2 * PAGE);
	free(p);
	malloc_trim(0);

	nsb_prefault_main(0, size);
	p = malloc(size - 4096);
	cr_assert(p != NULL);
	size_t after = resident((uintptr_t)p + PAGE, (uintptr_t)p + size - 2 * PAGE);
	size_t pages = (size - 3 * PAGE) / PAGE;
	cr_log_info("resident in a fresh block: %zu of %zu pages before, %zu after", before, pages,
		    after);
	cr_expect(lt(sz, before, pages / 2), "before the call: %zu of %zu pages", before, pages);
	cr_expect(ge(sz, after, pages - 1), "after it: %zu of %zu pages", after, pages);
	free(p);
}

/* VmHWM of this process, in KiB. */
static long hwm_kb(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "re");

	cr_assert(f != NULL);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "VmHWM: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb;
}

Test(prefault, a_block_off_the_heap_is_not_populated)
{
	/* Above the mmap threshold the block is a mapping of its own, which
	 * free() unmaps: populating it would only raise the peak RSS. */
	if (!brk_heap())
		cr_skip_test("malloc's heap is not the program break's here");
	long before = hwm_kb();

	nsb_prefault_main(0, 16u << 20);
	long after = hwm_kb();
	cr_log_info("VmHWM %ld -> %ld KiB", before, after);
	cr_expect(lt(long, after - before, 1024), "VmHWM %ld -> %ld KiB", before, after);
}

/* ---- a child's copies of the stack --------------------------------- */

/* The pagemap flags of the page holding @addr (bit 56: exclusively
 * mapped, that is not shared with the parent). */
static uint64_t pagemap(uintptr_t addr)
{
	uint64_t e = 0;
	int fd = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return 0;
	if (pread(fd, &e, sizeof(e), (off_t)(addr / PAGE * sizeof(e))) != (ssize_t)sizeof(e))
		e = 0;
	close(fd);
	return e;
}

#define PM_PRESENT   (1ull << 63)
#define PM_EXCLUSIVE (1ull << 56)

/* In the child: how many pages of [lo, hi) are present and its own. */
static int own_pages(uintptr_t lo, uintptr_t hi)
{
	int n = 0;

	for (uintptr_t a = lo & ~(PAGE - 1); a < hi; a += PAGE) {
		uint64_t e = pagemap(a);
		n += (e & PM_PRESENT) && (e & PM_EXCLUSIVE);
	}
	return n;
}

struct forked {
	int own, pages;
};

/* The fork, 36 KiB of written stack below @top, the frame that called
 * nsb_prefault_main: the child counts its own pages among those between
 * (what it writes itself after the fork lies below), after
 * nsb_prefault_child when @prefault. */
static __attribute__((noinline)) void fork_deep(bool prefault, int pipe_wr, uintptr_t top,
						int depth)
{
	volatile char pad[12288];

	for (size_t i = 0; i < sizeof(pad); i += 256)
		pad[i] = (char)i;
	if (depth > 0) {
		fork_deep(prefault, pipe_wr, top, depth - 1);
		pad[0] = 1; /* no tail call: this frame stays */
		return;
	}
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	pid_t pid = fork();

	cr_assert(pid >= 0);
	if (pid == 0) {
		struct forked f = {0};
		if (prefault)
			nsb_prefault_child(NSB_PREFAULT_CHILD_STACK);
		uintptr_t lo = (sp & ~(PAGE - 1)) + PAGE, hi = top & ~(PAGE - 1);
		f.own = own_pages(lo, hi);
		f.pages = (int)((hi - lo) / PAGE);
		_exit(write(pipe_wr, &f, sizeof(f)) == (ssize_t)sizeof(f) ? 0 : 1);
	}
	int status;
	cr_assert(waitpid(pid, &status, 0) == pid && WIFEXITED(status) && WEXITSTATUS(status) == 0);
}

static __attribute__((noinline)) struct forked child_counts(bool prefault)
{
	int p[2];
	struct forked f = {0};

	cr_assert(pipe(p) == 0);
	/* This frame stands for main's. */
	nsb_prefault_main(0, 0);
	fork_deep(prefault, p[1], (uintptr_t)__builtin_frame_address(0), 2);
	cr_assert(read(p[0], &f, sizeof(f)) == (ssize_t)sizeof(f));
	close(p[0]);
	close(p[1]);
	return f;
}

Test(prefault, a_childs_stack_pages_are_its_own_before_it_writes_them)
{
	if (!(pagemap((uintptr_t)__builtin_frame_address(0)) & PM_PRESENT))
		cr_skip_test("/proc/self/pagemap reports no present bit here");
	struct forked without = child_counts(false), with = child_counts(true);

	cr_log_info("own pages above the fork's frame: %d of %d without, %d with", without.own,
		    without.pages, with.own);
	cr_expect(eq(int, without.own, 0), "without the call: %d of %d", without.own,
		  without.pages);
	cr_expect(ge(int, with.pages, 4), "only %d pages between the frames", with.pages);
	cr_expect(eq(int, with.own, with.pages), "with it: %d of %d", with.own, with.pages);
}

Test(prefault, an_unmapped_range_is_an_error_and_nothing_else)
{
	size_t size = 4 * PAGE;
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	cr_assert(p != MAP_FAILED);
	cr_expect(eq(int, nsb_prefault_range(p, (char *)p + size), 0));
	cr_expect(eq(sz, resident((uintptr_t)p, (uintptr_t)p + size), 4));
	munmap(p, size);
	cr_expect(eq(int, nsb_prefault_range(p, (char *)p + size), -ENOMEM));
}
