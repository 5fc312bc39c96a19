// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * trim.c, checked against the kernel: after a trim, /proc/self/smaps shows
 * the test binary's read-only pages and the stack below the frame gone from
 * this process, while everything the process holds (data, RELRO, heap, the
 * stack above the frame) still reads back as it was written.
 */
#include <dlfcn.h>
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>

#include "base/trim.h"

/* .data, and a pointer the loader relocates (RELRO in a PIE). */
static int data_word = 42;
static const char *const relro_ptr = "relocated";

/* This test binary's path, as the kernel names its mappings. */
static const char *self_exe(void)
{
	static char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	cr_assert(n > 0);
	exe[n] = '\0';
	return exe;
}

/* Rss in KiB of this process's mappings of @path ("[stack]", or a file's
 * executable ones); with @touch, each of their pages is read too (all of
 * them resident, counted by the next call: smaps' text for a mapping may be
 * made before its pages are touched). */
static long rss_kb(const char *path, bool touch)
{
	char line[PATH_MAX + 256], perms[8], p[PATH_MAX];
	bool stack = strcmp(path, "[stack]") == 0, in = false;
	unsigned long lo, hi;
	FILE *f = fopen("/proc/self/smaps", "re");
	long sum = 0, kb;

	cr_assert(f != NULL);
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%lx-%lx %7s %*s %*s %*s %4095s", &lo, &hi, perms, p);
		if (n >= 3 && strchr(line, '-') < strchr(line, ' ')) {
			in = n == 4 && (stack || perms[2] == 'x') && strcmp(p, path) == 0;
			for (unsigned long a = lo; in && touch && a < hi; a += 4096)
				(void)*(volatile const unsigned char *)a;
			continue;
		}
		if (in && sscanf(line, "Rss: %ld kB", &kb) == 1)
			sum += kb;
	}
	fclose(f);
	return sum;
}

/* Dirty 192 KiB of stack below the caller, as a deep setup would. */
static __attribute__((noinline)) void deep(void)
{
	volatile char buf[192 * 1024];

	for (size_t i = 0; i < sizeof(buf); i += 512)
		buf[i] = (char)i;
}

Test(trim, read_only_pages_and_the_stack_below_go_what_is_held_stays)
{
	char above[8192];
	int *heap = malloc(64 * 1024);
	long text0, text1, stack0, stack1;

	cr_assert(heap != NULL);
	for (size_t i = 0; i < 64 * 1024 / sizeof(int); i++)
		heap[i] = (int)i * 7;
	memset(above, 0x5a, sizeof(above));
	data_word = 43;
	deep();
	(void)rss_kb(self_exe(), true);
	text0 = rss_kb(self_exe(), false);
	stack0 = rss_kb("[stack]", false);

	cr_assert(ge(int, nsb_trim(true, NULL, NULL), 0));
	text1 = rss_kb(self_exe(), false);
	stack1 = rss_kb("[stack]", false);

	/* The kernel's count: the text was dropped (what ran since faulted
	 * back a window or two). */
	cr_expect(lt(long, text1, text0 / 4), "text %ld -> %ld KiB", text0, text1);
	cr_log_info("text %ld -> %ld KiB, stack %ld -> %ld KiB", text0, text1, stack0, stack1);
	cr_expect(le(long, stack1 + 128, stack0), "stack %ld -> %ld KiB", stack0, stack1);
	/* And nothing held was lost. */
	cr_expect(eq(int, data_word, 43));
	cr_expect(strcmp(relro_ptr, "relocated") == 0, "RELRO pointer reads '%s'", relro_ptr);
	for (size_t i = 0; i < 64 * 1024 / sizeof(int); i++)
		if (heap[i] != (int)i * 7)
			cr_fail("heap word %zu is %d", i, heap[i]);
	for (size_t i = 0; i < sizeof(above); i++)
		if (above[i] != 0x5a)
			cr_fail("stack byte %zu above the frame is %d", i, above[i]);
	free(heap);
}

struct asked {
	int calls;
	uintptr_t addr[64];
	size_t len[64];
};

static bool refuse(const void *ud, uintptr_t addr, size_t len)
{
	struct asked *a = (struct asked *)(uintptr_t)ud;

	if (a->calls < 64) {
		a->addr[a->calls] = addr;
		a->len[a->calls] = len;
	}
	a->calls++;
	return false;
}

Test(trim, a_refused_range_is_left_mapped)
{
	struct asked a = {0};
	long text0, text1;

	(void)rss_kb(self_exe(), true);
	text0 = rss_kb(self_exe(), false);
	cr_expect(eq(int, nsb_trim_text(refuse, &a), -EPERM));
	text1 = rss_kb(self_exe(), false);
	/* One question per object (this binary, libc, ld.so at least). */
	cr_expect(ge(int, a.calls, 3));
	for (int i = 0; i < a.calls && i < 64; i++)
		cr_expect(a.len[i] > 0 && a.addr[i] % (uintptr_t)sysconf(_SC_PAGESIZE) == 0);
	cr_expect(ge(long, text1, text0), "text %ld -> %ld KiB", text0, text1);
}

/* The path of the mapping that holds @addr, in @path; false if none. */
static bool mapping_path(uintptr_t addr, char *path, size_t size)
{
	char line[PATH_MAX + 256], p[PATH_MAX];
	unsigned long lo, hi;
	FILE *f = fopen("/proc/self/maps", "re");
	bool found = false;

	cr_assert(f != NULL);
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%lx-%lx %*s %*s %*s %*s %4095s", &lo, &hi, p) == 3 &&
		    lo <= addr && addr < hi)
			found = (size_t)snprintf(path, size, "%s", p) < size;
	fclose(f);
	return found;
}

/* The dynamic loader's text goes, and only that: this binary's stays, and
 * the loader still answers from the data it keeps (dlsym). */
Test(trim, the_loaders_text_alone_goes_its_data_stays)
{
	char loader[PATH_MAX];
	const char *exe = self_exe();
	long ld0, ld1, own0, own1;

	cr_assert(mapping_path((uintptr_t)getauxval(AT_BASE), loader, sizeof(loader)),
		  "no mapping at AT_BASE");
	(void)rss_kb(loader, true);
	(void)rss_kb(exe, true);
	ld0 = rss_kb(loader, false);
	own0 = rss_kb(exe, false);
	cr_assert(gt(long, ld0, 0), "%s: no text resident", loader);

	cr_expect(eq(int, nsb_trim_loader(), 1));
	ld1 = rss_kb(loader, false);
	own1 = rss_kb(exe, false);
	cr_log_info("%s: %ld -> %ld KiB; %s: %ld -> %ld KiB", loader, ld0, ld1, exe, own0, own1);
	cr_expect(eq(long, ld1, 0), "the loader's text: %ld -> %ld KiB", ld0, ld1);
	cr_expect(ge(long, own1, own0 / 2), "this binary's text: %ld -> %ld KiB", own0, own1);
	void *sym = dlsym(RTLD_DEFAULT, "getpid");
	cr_expect(sym == (void *)getpid, "dlsym answers %p for getpid, not %p", sym,
		  (void *)getpid);
}

static void *off_main(void *unused)
{
	(void)unused;
	return (void *)(intptr_t)nsb_trim_stack(64 * 1024, NULL, NULL);
}

Test(trim, only_the_main_threads_stack)
{
	pthread_t t;
	void *ret;

	cr_assert(eq(int, pthread_create(&t, NULL, off_main, NULL), 0));
	cr_assert(eq(int, pthread_join(t, &ret), 0));
	cr_expect(eq(int, (int)(intptr_t)ret, -EINVAL));
	cr_expect(eq(int, nsb_trim_stack(64 * 1024, NULL, NULL), 0));
}

Test(trim, loadavg_runnable_is_the_fourth_fields_first_number)
{
	cr_expect(eq(long, nsb_loadavg_runnable("0.52 0.58 0.59 3/467 12345\n"), 3));
	cr_expect(eq(long, nsb_loadavg_runnable("12.00 8.10 4.02 517/1024 9\n"), 517));
	cr_expect(eq(long, nsb_loadavg_runnable("0.00 0.00 0.00 0/1 1"), 0));
	/* Not that field: none. */
	cr_expect(eq(long, nsb_loadavg_runnable(""), -1));
	cr_expect(eq(long, nsb_loadavg_runnable("0.52 0.58 0.59"), -1));
	cr_expect(eq(long, nsb_loadavg_runnable("0.52 0.58 0.59 "), -1));
	cr_expect(eq(long, nsb_loadavg_runnable("0.52 0.58 0.59 x/467 1"), -1));
	cr_expect(eq(long, nsb_loadavg_runnable("0.52 0.58 0.59 3 467"), -1));
	cr_expect(eq(long, nsb_loadavg_runnable("0.52 0.58 0.59 -3/467 1"), -1));
	cr_expect(eq(long, nsb_loadavg_runnable("0.52 0.58 0.59 99999999999999999999/1 1"), -1));
}

/* More busy loops than CPUs, each killed with this test's process. */
Test(trim, more_busy_loops_than_cpus_saturate_the_machine)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int n = 0, want = 2 * (int)cpus + 2;
	pid_t *spin = calloc((size_t)want, sizeof(*spin));
	bool saturated = false;

	cr_assert(cpus > 0 && cpus < 4096 && spin != NULL);
	for (; n < want; n++) {
		spin[n] = fork();
		cr_assert(spin[n] >= 0);
		if (spin[n] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL);
			for (;;)
				__asm__ volatile("" ::: "memory");
		}
	}
	/* The kernel counts them runnable once they run: a few tries. */
	for (int i = 0; i < 50 && !saturated; i++) {
		usleep(20 * 1000);
		saturated = nsb_cpu_saturated();
	}
	for (int i = 0; i < n; i++) {
		kill(spin[i], SIGKILL);
		waitpid(spin[i], NULL, 0);
	}
	free(spin);
	cr_expect(saturated, "%d busy loops on %ld CPUs", n, cpus);
}
