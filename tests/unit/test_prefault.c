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
#include "prefault_heap.h"

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

Test(prefault, malloc_hands_out_heap_pages_already_resident)
{
	size_t size = NSB_PREFAULT_MAIN_HEAP;
	int pages = 0, before, after;

	if (!heap_is_brk())
		cr_skip_test("malloc's heap is not the program break's here");

	/* Every free page of the heap given back before each: what malloc
	 * hands out next is resident only if something populated it. */
	malloc_trim(0);
	before = heap_block_resident(size, &pages);
	malloc_trim(0);
	nsb_prefault_main(0, size);
	after = heap_block_resident(size, &pages);
	cr_assert(before >= 0 && after >= 0, "mincore: %s", strerror(errno));
	cr_log_info("resident in a fresh block: %d of %d pages before, %d after", before, pages,
		    after);
	cr_expect(lt(int, before, pages / 2), "before the call: %d of %d pages", before, pages);
	cr_expect(ge(int, after, pages - 1), "after it: %d of %d pages", after, pages);
}

/* The path of the static-PIE helper, beside this binary (the Makefile
 * builds both). */
static void helper_path(char *buf, size_t size)
{
	ssize_t n = readlink("/proc/self/exe", buf, size - 1);

	cr_assert(n > 0, "readlink /proc/self/exe: %s", strerror(errno));
	buf[n] = '\0';
	char *slash = strrchr(buf, '/');
	cr_assert(slash != NULL);
	*slash = '\0';
	cr_assert(strlen(buf) + sizeof("/prefault_static_pie") <= size);
	strcat(buf, "/prefault_static_pie");
}

/*
 * The same, where nsbox runs by default: a static PIE, whose program break
 * the kernel puts apart from (below) the executable.  Before the heap's
 * test was made of malloc's own bounds, the prefault took every such block
 * for one of the mmap threshold and populated none.
 */
Test(prefault, a_static_pie_populates_its_heap_too)
{
	char path[4096], line[128];
	int below = -1, before = -1, after = -1, pages = -1;

	/* Under memcheck (make check-valgrind traces children) the helper
	 * would run on memcheck's heap, not the kernel's program break;
	 * this process's malloc tells (the same under a sanitizer, whose
	 * plain runs of this test are make check's). */
	if (!heap_is_brk())
		cr_skip_test(
			"malloc's heap is not the program break's here, nor would the helper's be");
	helper_path(path, sizeof(path));
	cr_assert(access(path, X_OK) == 0, "%s: %s (make builds it with the unit tests)", path,
		  strerror(errno));
	FILE *f = popen(path, "r");
	cr_assert(f != NULL, "popen %s: %s", path, strerror(errno));
	bool got = fgets(line, sizeof(line), f) &&
		   sscanf(line, "%d %d %d %d", &below, &before, &after, &pages) == 4;
	int status = pclose(f);
	cr_assert(got && status == 0, "%s printed no counts (status %d)", path, status);
	cr_log_info("static PIE: break below the executable %d; resident %d of %d pages before, "
		    "%d after",
		    below, before, pages, after);
	if (below != 1)
		cr_log_warn("this kernel put the static PIE's break above its executable: the "
			    "layout this test is about does not arise here");
	cr_expect(lt(int, before, pages / 2), "before the call: %d of %d pages", before, pages);
	cr_expect(ge(int, after, pages - 1), "after it: %d of %d pages", after, pages);
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
	if (!heap_is_brk())
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
