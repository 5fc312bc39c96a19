// SPDX-License-Identifier: GPL-2.0-or-later
/* trim: drop the pages a sleeping supervisor or init no longer needs (trim.h). */
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <malloc.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

#include "base/macro.h"
#include "base/trim.h"
#include "base/util.h"

/* At most this many ranges per trim: one per loaded object, and the
 * stack's.  nsbox loads five objects; a larger count is cut short. */
#define TRIM_MAX_RANGES 32

struct trim_walk {
	uintptr_t page, vdso;
	uintptr_t only; /* when not 0: the one object loaded there */
	size_t n;
	uintptr_t lo[TRIM_MAX_RANGES], hi[TRIM_MAX_RANGES];
};

/*
 * One object: its read-only segments come first (headers, text,
 * constants), from the first one's page to the end of the last one's,
 * clipped at the page where the first writable segment begins (a page the
 * two share is that segment's: the loader maps it last, over the other).
 * Between them lies only the object's own reservation, never another
 * mapping.
 */
_waiting_ static int trim_object(struct dl_phdr_info *info, size_t size, void *data)
{
	struct trim_walk *w = data;
	uintptr_t lo = UINTPTR_MAX, hi = 0, mask = ~(w->page - 1);

	(void)size;
	if (info->dlpi_addr == w->vdso || w->n >= TRIM_MAX_RANGES - 1)
		return 0;
	if (w->only && info->dlpi_addr != w->only)
		return 0;
	for (ElfW(Half) i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t s = info->dlpi_addr + ph->p_vaddr;
		uintptr_t end = (s + ph->p_memsz + w->page - 1) & mask;

		if (ph->p_type != PT_LOAD || ph->p_memsz == 0)
			continue;
		if (ph->p_flags & PF_W) {
			if (hi > (s & mask))
				hi = s & mask;
			break;
		}
		if (lo > (s & mask))
			lo = s & mask;
		if (hi < end)
			hi = end;
	}
	if (hi > lo) {
		w->lo[w->n] = lo;
		w->hi[w->n++] = hi;
	}
	return 0;
}

/* glibc's: the top of the main thread's stack, as exec left it. */
extern void *__libc_stack_end;

/* The stack from 8 KiB below the caller's frame down @depth more. */
_waiting_ static int stack_range(struct trim_walk *w, uintptr_t here, size_t depth)
{
	uintptr_t top = (uintptr_t)__libc_stack_end;
	uintptr_t hi = (here - 8192) & ~(w->page - 1);

	/* Another thread's stack may have a mapping right below it. */
	if (here > top || top - here > 64 * 1024 * 1024)
		return -EINVAL;
	w->lo[w->n] = (hi - depth) & ~(w->page - 1);
	w->hi[w->n++] = hi;
	return 0;
}

/*
 * Every range is asked about before the first is dropped, and nothing is
 * called between the drops but madvise: what runs after the first one
 * faults back only this loop and the way out.  Where parts of a range are
 * unmapped (the stack's guard gap), madvise does the mapped part and says
 * ENOMEM: that is success here.
 */
_waiting_ static int drop(const struct trim_walk *w, nsb_trim_allowed_fn allowed, const void *ud)
{
	bool ok[TRIM_MAX_RANGES];
	int err = 0, done = 0;

	for (size_t i = 0; i < w->n; i++)
		ok[i] = !allowed || allowed(ud, w->lo[i], w->hi[i] - w->lo[i]);
	for (size_t i = 0; i < w->n; i++) {
		if (!ok[i]) {
			err = err ? err : -EPERM;
			continue;
		}
		if (madvise((void *)w->lo[i], w->hi[i] - w->lo[i], MADV_DONTNEED) < 0 &&
		    errno != ENOMEM) {
			err = err ? err : -errno;
			continue;
		}
		done++;
	}
	return err < 0 ? err : done;
}

_waiting_ static void walk_init(struct trim_walk *w)
{
	/* getpagesize: sysconf is a 64 KiB window of libc's text of its own. */
	w->page = (uintptr_t)getpagesize();
	w->vdso = (uintptr_t)getauxval(AT_SYSINFO_EHDR);
	w->only = 0;
	w->n = 0;
}

_waiting_ int nsb_trim_text(nsb_trim_allowed_fn allowed, const void *ud)
{
	struct trim_walk w;

	walk_init(&w);
	dl_iterate_phdr(trim_object, &w);
	return drop(&w, allowed, ud);
}

int nsb_trim_loader(void)
{
	struct trim_walk w;

	walk_init(&w);
	w.only = (uintptr_t)getauxval(AT_BASE);
	/* 0: a static binary, or one started as the loader's argument. */
	if (!w.only)
		return 0;
	dl_iterate_phdr(trim_object, &w);
	return drop(&w, NULL, NULL);
}

_waiting_ int nsb_trim_stack(size_t depth, nsb_trim_allowed_fn allowed, const void *ud)
{
	struct trim_walk w;
	int r;

	walk_init(&w);
	r = stack_range(&w, (uintptr_t)__builtin_frame_address(0), depth);
	if (r < 0)
		return r;
	r = drop(&w, allowed, ud);
	return r < 0 ? r : 0;
}

_waiting_ int nsb_trim(bool heap, nsb_trim_allowed_fn allowed, const void *ud)
{
	struct trim_walk w;
	int r, s;

	walk_init(&w);
	dl_iterate_phdr(trim_object, &w);
	s = stack_range(&w, (uintptr_t)__builtin_frame_address(0), 256 * 1024);
	r = drop(&w, allowed, ud);
	if (heap)
		malloc_trim(0);
	return r < 0 ? r : s < 0 ? s : 0;
}

long nsb_loadavg_runnable(const char *text)
{
	const char *p = text;
	char *end;
	long r;

	/* Three averages, each ended by one space, then RUNNABLE/TOTAL. */
	for (int i = 0; i < 3; i++) {
		p = strchr(p, ' ');
		if (!p)
			return -1;
		p++;
	}
	if (*p < '0' || *p > '9')
		return -1;
	errno = 0;
	r = nsb_strtol10(p, &end);
	return errno || *end != '/' ? -1 : r;
}

_waiting_ bool nsb_cpu_saturated(void)
{
	char buf[128];
	int fd = open("/proc/loadavg", O_RDONLY | O_CLOEXEC);
	ssize_t n;
	long runnable, cpus;

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	runnable = nsb_loadavg_runnable(buf);
	/* One runnable task (this one) saturates no machine: no more to read. */
	if (runnable <= 1)
		return false;
	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	return cpus > 0 && runnable > cpus;
}
