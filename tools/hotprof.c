// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * hotprof: the function-entry hook of the profiling build that
 * `make hot-functions` makes (build/hotprof/nsbox, compiled with
 * -finstrument-functions).  It is never linked into nsbox itself.
 *
 * Every instrumented function calls __cyg_profile_func_enter with its own
 * address on entry; the hook marks one byte per 16 bytes of text in a
 * MAP_SHARED anonymous map made before main.  The map is shared with every
 * process cloned from this one without an exec (init, the payload's child
 * until it execs), so their calls are marked too, each with which side
 * made it (1 the supervisor, 2 init or the payload, 3 both), at the
 * function entered or left and at the call site; the process
 * that made the map writes the marked offsets (16 hex digits as nm prints
 * them, relative to the start of the executable) and their marks, one pair
 * per line, to $NSBOX_HOTPROF_OUT when it exits.  Nothing is
 * written when the variable is unset, and a failure to write is reported on
 * stderr: the tool that reads the file (tools/hot-functions.sh) then finds it
 * missing and stops.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define HOTPROF_GRAIN 16 /* functions are aligned to at least this */
#define NOPROF	      __attribute__((no_instrument_function))

/* The linker's symbols for the executable's start and the end of its text. */
extern char __executable_start[], etext[];

static unsigned char *seen;
static size_t n_seen;
static pid_t owner;

NOPROF void __cyg_profile_func_enter(void *fn, void *site);
NOPROF void __cyg_profile_func_exit(void *fn, void *site);

/* Mark the grain of @addr: 1 if the supervisor ran it, 2 if init or the
 * payload did (a system call per mark: this build is never timed). */
NOPROF static void mark(const void *addr)
{
	uintptr_t off = (uintptr_t)addr - (uintptr_t)__executable_start;

	if (seen && off / HOTPROF_GRAIN < n_seen)
		seen[off / HOTPROF_GRAIN] |= getpid() == owner ? 1 : 2;
}

/*
 * The function entered, and the call site in its caller: a process may run
 * a function it never entered (init comes out of clone3 inside nsb_spawn,
 * and calls on from there).  tools/hot-functions.sh maps each marked
 * offset to the function that holds it.
 */
void __cyg_profile_func_enter(void *fn, void *site)
{
	mark(fn);
	mark(site);
}

/* ... and the function left, for a process that only returned from it. */
void __cyg_profile_func_exit(void *fn, void *site)
{
	mark(fn);
	mark(site);
}

/* Before every other constructor (libcap-ng's calls nsbox's strtoul). */
NOPROF __attribute__((constructor(101))) static void hotprof_start(void)
{
	size_t n = (size_t)(etext - __executable_start) / HOTPROF_GRAIN + 1;
	void *m = mmap(NULL, n, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);

	if (m == MAP_FAILED) {
		fprintf(stderr, "hotprof: mmap of %zu bytes: %s\n", n, strerror(errno));
		return;
	}
	seen = m;
	n_seen = n;
	owner = getpid();
}

NOPROF __attribute__((destructor)) static void hotprof_end(void)
{
	const char *out = getenv("NSBOX_HOTPROF_OUT");
	FILE *f;

	if (!seen || getpid() != owner || !out)
		return;
	f = fopen(out, "ae");
	if (!f) {
		fprintf(stderr, "hotprof: %s: %s\n", out, strerror(errno));
		return;
	}
	for (size_t i = 0; i < n_seen; i++)
		if (seen[i])
			fprintf(f, "%016zx %u\n", i * HOTPROF_GRAIN, seen[i]);
	if (fclose(f) != 0)
		fprintf(stderr, "hotprof: %s: %s\n", out, strerror(errno));
}
